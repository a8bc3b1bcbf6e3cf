import type { StompConfig } from '@stomp/stompjs';
import { PermissionProvider } from '@voltdepot/console-ui';
import type { MonitorGunView, MonitorPileView } from '@voltdepot/shared-contracts';
import { App } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { pushRuntime, type StompLike } from '../../app/notice/pushClient';
import { AppProviders } from '../../app/providers/AppProviders';
import { createI18n } from '../../app/providers/i18n';
import { createQueryClient } from '../../app/providers/queryClient';
import type { Locale } from '../../locales';
import { bindRequestRuntime } from '../../request';
import { memoryStorage } from '../../test/memoryStorage';
import { render } from '../../test/render';
import { MONITORING_PERMISSIONS } from './permissions';

export const ALL_MONITORING_PERMISSIONS = Object.values(MONITORING_PERMISSIONS);

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

/** A component of this feature inside the app's providers (i18n, react-query, antd App, permissions, router). */
export function renderInApp(
  ui: ReactNode,
  options: { locale?: Locale; permissions?: string[]; path?: string } = {},
) {
  const i18n = createI18n({ locale: options.locale ?? 'en-US', storage: memoryStorage() });
  return render(
    <AppProviders i18n={i18n} queryClient={createQueryClient()}>
      <RequestMessages />
      <MemoryRouter initialEntries={[options.path ?? '/']}>
        <PermissionProvider permissions={options.permissions ?? ALL_MONITORING_PERMISSIONS}>
          {ui}
        </PermissionProvider>
      </MemoryRouter>
    </AppProviders>,
  );
}

/** A STOMP client that records its configuration and subscriptions, and lets a test play the broker. */
export type FakeStomp = {
  configs: StompConfig[];
  subscriptions: { destination: string; deliver: (body: string) => void }[];
  deactivated: number;
  /** The broker accepted the connection (again). */
  connect(): void;
};

export function fakeStomp(): FakeStomp {
  const fake: FakeStomp = {
    configs: [],
    subscriptions: [],
    deactivated: 0,
    connect: () => fake.configs.at(-1)?.onConnect?.({} as never),
  };
  pushRuntime.createClient = (config): StompLike => {
    fake.configs.push(config);
    return {
      activate: () => undefined,
      deactivate: () => {
        fake.deactivated++;
        return Promise.resolve();
      },
      subscribe: (destination, callback) => {
        fake.subscriptions.push({
          destination,
          deliver: (body) => callback({ body } as never),
        });
        return { id: destination, unsubscribe: () => undefined };
      },
    };
  };
  return fake;
}

export function aGun(overrides: Partial<MonitorGunView> = {}): MonitorGunView {
  return {
    gunId: 11,
    name: 'Gun 1',
    connectorId: 1,
    status: 'idle',
    ocppStatus: 'Available',
    errorCode: 'NoError',
    info: null,
    since: '2025-03-01T08:00:00.000Z',
    transactionId: null,
    idTag: null,
    sessionStartedAt: null,
    powerW: null,
    energyWh: null,
    soc: null,
    sampledAt: null,
    vehicle: null,
    ...overrides,
  };
}

export function aPile(overrides: Partial<MonitorPileView> = {}): MonitorPileView {
  return {
    pileId: 5,
    chargePointId: 'CP-1',
    name: 'Pile 1',
    number: 'P1',
    stationId: 3,
    stationName: 'North Yard',
    deviceStatus: 50,
    online: true,
    onlineSince: '2025-03-01T07:00:00.000Z',
    lastSeenAt: '2025-03-01T08:00:00.000Z',
    vendor: 'Voltdepot',
    model: 'DC-240',
    firmwareVersion: '1.0',
    ocppStatus: 'Available',
    guns: [aGun(), aGun({ gunId: 12, name: 'Gun 2', connectorId: 2 })],
    ...overrides,
  };
}
