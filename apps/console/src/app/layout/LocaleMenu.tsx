import { GlobalOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { isLocale, SUPPORTED_LOCALES, type Locale } from '../../locales';
import { useLocale } from '../providers/useLocale';

const labelKey = { 'zh-CN': 'locale.zhCN', 'en-US': 'locale.enUS' } as const satisfies Record<Locale, string>;

/** Header menu that switches the console language at runtime (remembered in localStorage). */
export function LocaleMenu() {
  const { t } = useTranslation();
  const { locale, setLocale } = useLocale();
  const items: MenuProps['items'] = SUPPORTED_LOCALES.map((key) => ({ key, label: t(labelKey[key]) }));
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
        {t(labelKey[locale])}
      </Button>
    </Dropdown>
  );
}
