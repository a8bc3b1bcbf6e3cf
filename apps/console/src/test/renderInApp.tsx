import type { QueryClient } from '@tanstack/react-query';
import { PermissionProvider } from '@voltdepot/console-ui';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { AppProviders } from '../app/providers/AppProviders';
import { createI18n } from '../app/providers/i18n';
import { createQueryClient } from '../app/providers/queryClient';
import { RequestRuntimeBinder } from '../app/providers/RequestRuntimeBinder';
import { ADMIN_PERMISSIONS } from '../features/admin/permissions';
import { BASIC_MENUS, gridButtons, HOST_BUTTONS, PRICE_PLAN_BUTTONS } from '../features/assets/permissions';
import { BILLING_PERMISSIONS } from '../features/billing/permissions';
import { ICCARD_PERMISSIONS } from '../features/iccard/permissions';
import { LOG_PERMISSIONS } from '../features/logs/permissions';
import { MSG_PERMISSIONS } from '../features/messages/permissions';
import { MONITORING_PERMISSIONS } from '../features/monitoring/permissions';
import type { Locale } from '../locales';
import { memoryStorage } from './memoryStorage';
import { render, type Rendered } from './render';

/** Every string in a (nested) table of resource codes. */
export function codesOf(table: unknown): string[] {
  if (typeof table === 'string') return [table];
  if (typeof table !== 'object' || table === null) return [];
  return Object.values(table).flatMap(codesOf);
}

/** Every code of every screen (what the seeded administrator holds). */
export const ALL_PERMISSIONS: readonly string[] = [
  ...new Set([
    ...codesOf(ADMIN_PERMISSIONS),
    ...codesOf(BILLING_PERMISSIONS),
    ...codesOf(ICCARD_PERMISSIONS),
    ...codesOf(LOG_PERMISSIONS),
    ...codesOf(MSG_PERMISSIONS),
    ...codesOf(MONITORING_PERMISSIONS),
    ...Object.values(BASIC_MENUS).flatMap((menu) => [menu, ...codesOf(gridButtons(menu))]),
    ...codesOf(HOST_BUTTONS),
    ...codesOf(PRICE_PLAN_BUTTONS),
  ]),
];

export type RenderInAppOptions = {
  locale?: Locale;
  /** The signed-in user's resource codes (default: every code, ALL_PERMISSIONS). */
  permissions?: readonly string[];
  /** The address the memory router starts at (default '/'). */
  url?: string;
  /** A client the test keeps (to seed or invalidate queries). */
  queryClient?: QueryClient;
};

export type RenderedInApp = Rendered & { queryClient: QueryClient };

/**
 * The one harness of the console's component tests: `ui` inside the app's providers (i18n, react-query,
 * platform settings, antd App), a memory router, the request layer bound as the app binds it (its
 * messages through antd, its navigation through the router) and the user's permissions. What it renders
 * is unmounted after each test (setup.ts).
 */
export async function renderInApp(ui: ReactNode, options: RenderInAppOptions = {}): Promise<RenderedInApp> {
  const i18n = createI18n({ locale: options.locale ?? 'en-US', storage: memoryStorage() });
  const queryClient = options.queryClient ?? createQueryClient();
  const rendered = await render(
    <AppProviders i18n={i18n} queryClient={queryClient}>
      <MemoryRouter initialEntries={[options.url ?? '/']}>
        <RequestRuntimeBinder />
        <PermissionProvider permissions={options.permissions ?? ALL_PERMISSIONS}>{ui}</PermissionProvider>
      </MemoryRouter>
    </AppProviders>,
  );
  return { ...rendered, queryClient };
}
