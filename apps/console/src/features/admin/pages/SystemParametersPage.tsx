import { useTranslation } from 'react-i18next';
import { ConfigTable } from '../components/ConfigTable';

/** System parameters (`sys:parameter`), e.g. mandatory two-factor authentication for administrators. */
export function SystemParametersPage() {
  const { t } = useTranslation();
  return <ConfigTable category="system" title={t('admin.parameter.title')} testId="admin-parameters" />;
}
