import type { QueryClient } from '@tanstack/react-query';
import { apiPath } from '@voltdepot/console-api-client';
import type { EncryptedPlatformConfig } from '@voltdepot/shared-contracts';
import type { i18n as I18n } from 'i18next';
import { DEFAULT_LOCALE, isLocale } from '../locales';
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
  document.documentElement.lang = i18n.language;
  // Every call says which language the user reads, and error codes are shown in it.
  bindRequestRuntime({ language: () => (isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE) });
  const platform = await loadPlatformSettings({
    fetchList: () => request.get<EncryptedPlatformConfig>(apiPath('PublicPlatformConfigController_list')),
    passphrase: import.meta.env.VITE_PLATFORM_CONFIG_KEY || DEFAULT_PLATFORM_CONFIG_PASSPHRASE,
    onError: (error) => console.error('Platform settings could not be loaded; using the defaults.', error),
  });
  return { i18n, queryClient: createQueryClient(), platform };
}
