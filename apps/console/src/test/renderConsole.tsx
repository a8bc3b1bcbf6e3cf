import { createMemoryRouter } from 'react-router-dom';
import { App } from '../app/App';
import { DEFAULT_PLATFORM_SETTINGS, type PlatformSettings } from '../app/platform/platformSettings';
import { createI18n } from '../app/providers/i18n';
import { createQueryClient } from '../app/providers/queryClient';
import { buildRoutes } from '../app/router/buildRoutes';
import type { FeatureRoutes } from '../app/router/knownRoutes';
import type { Locale } from '../locales';
import { sessionStore, type SessionToken } from '../request';
import { memoryStorage } from './memoryStorage';
import { render, type Rendered } from './render';

export const VALID_SESSION: SessionToken = {
  accessToken: 'access-1',
  expires: Date.now() + 3_600_000,
  refreshToken: 'sid.refresh-1',
};

export type RenderConsoleOptions = {
  features?: FeatureRoutes;
  locale?: Locale;
  /** Stored before rendering; null signs out. Default: a valid session. */
  session?: SessionToken | null;
  platform?: Partial<PlatformSettings>;
};

/** The whole console (routes, layout, guards) at `path`, on a memory router. */
export async function renderConsole(path: string, options: RenderConsoleOptions = {}) {
  const session = options.session === undefined ? VALID_SESSION : options.session;
  if (session) sessionStore.set(session);
  else sessionStore.clear();
  const router = createMemoryRouter(buildRoutes(options.features), { initialEntries: [path] });
  const i18n = createI18n({ locale: options.locale ?? 'en-US', storage: memoryStorage() });
  const rendered: Rendered = await render(
    <App
      i18n={i18n}
      queryClient={createQueryClient()}
      router={router}
      platform={{ ...DEFAULT_PLATFORM_SETTINGS, ...options.platform }}
    />,
  );
  return { router, i18n, container: rendered.container, unmount: rendered.unmount };
}
