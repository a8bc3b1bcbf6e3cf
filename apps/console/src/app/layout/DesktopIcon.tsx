import { DesktopOutlined } from '@ant-design/icons';
import { GuardedButton, usePermission } from '@voltdepot/console-ui';
import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { sessionStore } from '../../request';
import { usePlatformSettings } from '../platform/PlatformSettingsContext';
import { desktopActionOf, GO_SCREEN_PERMISSION } from './desktopLink';

/** Header desktop icon (spec §2): /home with several systems, else the big screen in a new tab. */
export function DesktopIcon() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const settings = usePlatformSettings();
  const canGoScreen = usePermission(GO_SCREEN_PERMISSION);
  const probe = desktopActionOf({
    systemCount: settings.systemList.length,
    bigScreen: settings.bigScreen,
    canGoScreen,
    userAgent: navigator.userAgent,
    accessToken: undefined,
    baseUrl: import.meta.env.BASE_URL,
  });
  if (probe.kind === 'none') return null;

  const label = probe.kind === 'home' ? t('header.desktopHome') : t('header.bigScreen');
  const open = () => {
    // Read the token at click time: it may have been refreshed since the header rendered.
    const action = desktopActionOf({
      systemCount: settings.systemList.length,
      bigScreen: settings.bigScreen,
      canGoScreen,
      userAgent: navigator.userAgent,
      accessToken: sessionStore.get()?.accessToken,
      baseUrl: import.meta.env.BASE_URL,
    });
    if (action.kind === 'home') void navigate('/home');
    if (action.kind === 'screen') window.open(action.url, '_blank', 'noopener');
  };
  return (
    <Tooltip title={label}>
      <GuardedButton type="text" icon={<DesktopOutlined />} aria-label={label} onClick={open} />
    </Tooltip>
  );
}
