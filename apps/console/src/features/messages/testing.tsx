import { PermissionProvider } from '@voltdepot/console-ui';
import { App } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { bindRequestRuntime } from '../../request';
import { AppProviders } from '../../app/providers/AppProviders';
import { createI18n } from '../../app/providers/i18n';
import { createQueryClient } from '../../app/providers/queryClient';
import type { Locale } from '../../locales';
import { memoryStorage } from '../../test/memoryStorage';
import { render } from '../../test/render';
import { MSG_PERMISSIONS } from './permissions';

/** Every code of the message-centre screens (what the seeded administrator holds). */
export const ALL_MSG_PERMISSIONS = Object.values(MSG_PERMISSIONS).flatMap((screen) => Object.values(screen));

/** Error answers shown through this app's antd message API (as RequestRuntimeBinder does in the app). */
function RequestMessages() {
  const { message } = App.useApp();
  useEffect(
    () =>
      bindRequestRuntime({
        notify: {
          error: (content, seconds) => void message.error(content, seconds),
          warning: (content, seconds) => void message.warning(content, seconds),
        },
      }),
    [message],
  );
  return null;
}

/** A component of this feature inside the app's providers (i18n, react-query, antd App, permissions). */
export function renderInApp(ui: ReactNode, options: { locale?: Locale; permissions?: string[] } = {}) {
  const i18n = createI18n({ locale: options.locale ?? 'en-US', storage: memoryStorage() });
  return render(
    <AppProviders i18n={i18n} queryClient={createQueryClient()}>
      <RequestMessages />
      <PermissionProvider permissions={options.permissions ?? ALL_MSG_PERMISSIONS}>{ui}</PermissionProvider>
    </AppProviders>,
  );
}
