import { useTranslation } from 'react-i18next';
import { OrderTable } from '../components/OrderTable';

/** Order query (/operation/orderManage/orderQuery): every charging order, filters, totals, export. */
export function OrderQueryPage() {
  const { t } = useTranslation();
  return <OrderTable title={t('billing.order.title')} />;
}
