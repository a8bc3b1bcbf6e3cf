import type { QueryClient } from '@tanstack/react-query';
import { apiPath, type ApiResponse } from '@voltdepot/console-api-client';
import type { i18n as I18n } from 'i18next';
import { apiBaseUrl, bindRequestRuntime, request, sessionStore } from '../request';
import { loadPlatformSettings, type PlatformSettings } from './platform/platformSettings';
import { createI18n } from './providers/i18n';
import { createQueryClient } from './providers/queryClient';
import { createSessionRefresher } from './session/sessionRefresher';

/** The api's default PLATFORM_CONFIG_KEY, used when the build has no VITE_PLATFORM_CONFIG_KEY. */
export const DEFAULT_PLATFORM_CONFIG_PASSPHRASE = 'voltdepot-platform-config';

export type ConsoleBoot = { i18n: I18n; queryClient: QueryClient; platform: PlatformSettings };

/**
 * What both pages (the console and the big screen) do before their first render: bind the token
 * refresh to the request layer, start i18n, and load the public platform settings (spec §7).
 */
export async function bootstrapConsole(): Promise<ConsoleBoot> {
  bindRequestRuntime({
    refreshToken: createSessionRefresher({ baseUrl: apiBaseUrl, session: sessionStore }),
  });
  const i18n = createI18n();
  // Also the request layer's language until AppProviders binds the i18n instance (the settings call below).
  document.documentElement.lang = i18n.language;
  const platform = await loadPlatformSettings({
    fetchList: () =>
      request.get<ApiResponse<'PublicPlatformConfigController_list'>>(
        apiPath('PublicPlatformConfigController_list'),
      ),
    passphrase: import.meta.env.VITE_PLATFORM_CONFIG_KEY || DEFAULT_PLATFORM_CONFIG_PASSPHRASE,
    onError: (error) => console.error('Platform settings could not be loaded; using the defaults.', error),
  });
  return { i18n, queryClient: createQueryClient(), platform };
}
