import { useTranslation } from 'react-i18next';
import { OrderTable } from '../components/OrderTable';

/** Abnormal orders (/operation/orderManage/abnormalOrder): orders held at settlement, with their review. */
export function AbnormalOrdersPage() {
  const { t } = useTranslation();
  return <OrderTable held title={t('billing.order.abnormalTitle')} />;
}
