import type { QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import type { PlatformSettings } from './platform/platformSettings';
import { AppProviders } from './providers/AppProviders';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

export type AppProps = {
  i18n: I18n;
  queryClient: QueryClient;
  router: AppRouter;
  platform?: PlatformSettings;
};

export function App({ i18n, queryClient, router, platform }: AppProps) {
  return (
    <AppProviders i18n={i18n} queryClient={queryClient} platform={platform}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
