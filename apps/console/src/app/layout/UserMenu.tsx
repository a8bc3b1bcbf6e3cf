import {
  CheckOutlined,
  DownOutlined,
  GlobalOutlined,
  KeyOutlined,
  LogoutOutlined,
  SafetyOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Avatar, Button, Dropdown, type MenuProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TwoFactorDialog } from '../../features/admin';
import { isLocale, SUPPORTED_LOCALES } from '../../locales';
import { useLocale } from '../providers/useLocale';
import { useCurrentUser } from '../session/CurrentUserContext';
import { useLogout } from '../session/useSession';
import { lazyNamed, MountWhenOpened } from '../lazy/lazyNamed';
import { localeLabelKey } from './LocaleMenu';

const LOCALE_PREFIX = 'locale:';

const ChangePasswordDialog = lazyNamed(
  'change-password',
  () => import('./ChangePasswordDialog'),
  'ChangePasswordDialog',
);

/** The user menu of the header: language, change password, two-factor authentication, sign out. */
export function UserMenu() {
  const { t } = useTranslation();
  const { user } = useCurrentUser();
  const { locale, setLocale } = useLocale();
  const logout = useLogout();
  const [changingPassword, setChangingPassword] = useState(false);
  const [twoFactor, setTwoFactor] = useState(false);

  const items: MenuProps['items'] = [
    // The languages as a group of the menu, not a submenu: one click, no hover that a slow pointer loses.
    {
      key: 'language',
      type: 'group',
      label: (
        <span>
          <GlobalOutlined /> {t('header.language')}
        </span>
      ),
      children: SUPPORTED_LOCALES.map((key) => ({
        key: `${LOCALE_PREFIX}${key}`,
        label: t(localeLabelKey[key]),
        icon: key === locale ? <CheckOutlined /> : <span style={{ display: 'inline-block', width: 14 }} />,
      })),
    },
    { type: 'divider' },
    { key: 'password', icon: <KeyOutlined />, label: t('user.changePassword') },
    { key: 'totp', icon: <SafetyOutlined />, label: t('admin.totp.menu') },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: t('user.logout'), danger: true },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key.startsWith(LOCALE_PREFIX)) {
      const next = key.slice(LOCALE_PREFIX.length);
      if (isLocale(next)) setLocale(next);
    } else if (key === 'password') {
      setChangingPassword(true);
    } else if (key === 'totp') {
      setTwoFactor(true);
    } else if (key === 'logout') {
      void logout();
    }
  };

  return (
    <>
      <Dropdown menu={{ items, onClick }} trigger={['click']}>
        <Button type="text" data-testid="user-menu" aria-label={t('user.menu')}>
          <Avatar size="small" icon={<UserOutlined />} />
          <span>{user.realName || user.username}</span>
          <DownOutlined style={{ fontSize: 10 }} />
        </Button>
      </Dropdown>
      <MountWhenOpened open={changingPassword}>
        <ChangePasswordDialog open={changingPassword} onClose={() => setChangingPassword(false)} />
      </MountWhenOpened>
      <MountWhenOpened open={twoFactor}>
        <TwoFactorDialog open={twoFactor} onClose={() => setTwoFactor(false)} />
      </MountWhenOpened>
    </>
  );
}
