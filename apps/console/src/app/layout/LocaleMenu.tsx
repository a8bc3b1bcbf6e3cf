import { GlobalOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { isLocale, SUPPORTED_LOCALES, type Locale } from '../../locales';
import { useLocale } from '../providers/useLocale';

export const localeLabelKey = { 'zh-CN': 'locale.zhCN', 'en-US': 'locale.enUS' } as const satisfies Record<
  Locale,
  string
>;

/** Switches the console language at runtime (remembered in localStorage); on pages without the user menu. */
export function LocaleMenu() {
  const { t } = useTranslation();
  const { locale, setLocale } = useLocale();
  const items: MenuProps['items'] = SUPPORTED_LOCALES.map((key) => ({ key, label: t(localeLabelKey[key]) }));
  return (
    <Dropdown
      menu={{
        items,
        selectable: true,
        selectedKeys: [locale],
        onClick: ({ key }) => {
          if (isLocale(key)) setLocale(key);
        },
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} aria-label={t('header.language')}>
        {t(localeLabelKey[locale])}
      </Button>
    </Dropdown>
  );
}
