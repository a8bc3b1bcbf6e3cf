import { Alert } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../session/CurrentUserContext';

/**
 * A warning above every page for an administrator whose account has no second factor (the demo's
 * password-only sign-in, or a deployment that made it optional); closed for the rest of the visit.
 */
export function SecondFactorNotice() {
  const { t } = useTranslation();
  const { user } = useCurrentUser();
  const [closed, setClosed] = useState(false);
  if (!user.secondFactorMissing || closed) return null;
  return (
    <Alert
      type="warning"
      showIcon
      closable
      onClose={() => setClosed(true)}
      message={t('user.secondFactorMissing')}
      style={{ marginBottom: 16 }}
      data-testid="second-factor-notice"
    />
  );
}
