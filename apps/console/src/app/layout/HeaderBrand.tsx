import { theme, Typography } from 'antd';
import { Link } from 'react-router-dom';
import { usePlatformSettings, useSystemTitle } from '../platform/PlatformSettingsContext';

/** Logo and title by the logo-title setting (spec §2): 1 both, 2 title only, 3 logo only. */
export function HeaderBrand() {
  const { logo, logoTitleMode } = usePlatformSettings();
  const title = useSystemTitle();
  const { token } = theme.useToken();
  const showLogo = logoTitleMode === '1' || logoTitleMode === '3';
  const showTitle = logoTitleMode === '1' || logoTitleMode === '2';
  return (
    <Link
      to="/home"
      aria-label={title}
      style={{ display: 'flex', alignItems: 'center', gap: 10, minWidth: 0, color: token.colorText }}
    >
      {showLogo && <img src={logo} alt={showTitle ? '' : title} height={32} data-testid="header-logo" />}
      {showTitle && (
        <Typography.Title level={4} style={{ margin: 0, whiteSpace: 'nowrap' }} data-testid="header-title">
          {title}
        </Typography.Title>
      )}
    </Link>
  );
}
