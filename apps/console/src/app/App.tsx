import type { QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import { AppProviders } from './providers/AppProviders';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

export type AppProps = { i18n: I18n; queryClient: QueryClient; router: AppRouter };

export function App({ i18n, queryClient, router }: AppProps) {
  return (
    <AppProviders i18n={i18n} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
