import { useTranslation } from 'react-i18next';
import { ConfigTable } from '../components/ConfigTable';

/** Third-party settings (`sys:thirdParty`): keys and addresses of outside services. Never public. */
export function ThirdPartySettingsPage() {
  const { t } = useTranslation();
  return (
    <ConfigTable category="third_party" title={t('admin.thirdParty.title')} testId="admin-third-party" />
  );
}
