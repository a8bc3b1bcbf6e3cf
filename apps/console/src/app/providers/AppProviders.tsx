import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider } from 'antd';
import antdEnUS from 'antd/locale/en_US';
import antdZhCN from 'antd/locale/zh_CN';
import type { i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { Locale } from '../../locales';
import { useLocale } from './useLocale';

const antdLocales = { 'zh-CN': antdZhCN, 'en-US': antdEnUS } satisfies Record<Locale, unknown>;

export type AppProvidersProps = {
  i18n: I18n;
  queryClient: QueryClient;
  children: ReactNode;
};

/** i18n, react-query and antd (locale following the i18n language; App for context-aware messages). */
export function AppProviders({ i18n, queryClient, children }: AppProvidersProps) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <AntdProviders>{children}</AntdProviders>
      </QueryClientProvider>
    </I18nextProvider>
  );
}

function AntdProviders({ children }: { children: ReactNode }) {
  const { locale } = useLocale();
  return (
    <ConfigProvider locale={antdLocales[locale]}>
      <AntdApp>{children}</AntdApp>
    </ConfigProvider>
  );
}
