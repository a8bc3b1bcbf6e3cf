import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider, type ThemeConfig } from 'antd';
import antdEnUS from 'antd/locale/en_US';
import antdZhCN from 'antd/locale/zh_CN';
import type { i18n as I18n } from 'i18next';
import { useLayoutEffect, useMemo, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { bindRequestRuntime } from '../../request';
import type { Locale } from '../../locales';
import { PlatformSettingsProvider, usePlatformSettings } from '../platform/PlatformSettingsContext';
import { DEFAULT_PLATFORM_SETTINGS, themeColorOf, type PlatformSettings } from '../platform/platformSettings';
import { applyDayjsLocale } from './dayjsLocale';
import { localeOf } from './i18n';
import { useLocale } from './useLocale';

const antdLocales = { 'zh-CN': antdZhCN, 'en-US': antdEnUS } satisfies Record<Locale, unknown>;

export type AppProvidersProps = {
  i18n: I18n;
  queryClient: QueryClient;
  /** The public platform settings loaded before the first render. */
  platform?: PlatformSettings;
  /** Extra antd theme (the big screen uses the dark algorithm). */
  theme?: ThemeConfig;
  children: ReactNode;
};

/**
 * i18n, react-query, platform settings and antd (antd's and dayjs's locale following i18n, colour
 * following the city code).
 */
export function AppProviders({
  i18n,
  queryClient,
  platform = DEFAULT_PLATFORM_SETTINGS,
  theme,
  children,
}: AppProvidersProps) {
  // Layout effect: bound before any child's effect sends a request (Accept-Language, error texts).
  useLayoutEffect(() => bindRequestRuntime({ language: () => localeOf(i18n) }), [i18n]);
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <PlatformSettingsProvider settings={platform}>
          <AntdProviders theme={theme}>{children}</AntdProviders>
        </PlatformSettingsProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}

function AntdProviders({ children, theme }: { children: ReactNode; theme: ThemeConfig | undefined }) {
  const { locale } = useLocale();
  const { cityCode } = usePlatformSettings();
  // Before the children render, so their dates (DatePicker month and weekday names) use it.
  applyDayjsLocale(locale);
  const merged = useMemo<ThemeConfig>(
    () => ({ ...theme, token: { colorPrimary: themeColorOf(cityCode), ...theme?.token } }),
    [theme, cityCode],
  );
  return (
    <ConfigProvider locale={antdLocales[locale]} theme={merged}>
      <AntdApp>{children}</AntdApp>
    </ConfigProvider>
  );
}
