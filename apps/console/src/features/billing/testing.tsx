import { PermissionProvider } from '@voltdepot/console-ui';
import { App } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { AppProviders } from '../../app/providers/AppProviders';
import { createI18n } from '../../app/providers/i18n';
import { createQueryClient } from '../../app/providers/queryClient';
import type { Locale } from '../../locales';
import { bindRequestRuntime } from '../../request';
import { memoryStorage } from '../../test/memoryStorage';
import { render } from '../../test/render';
import { BILLING_PERMISSIONS } from './permissions';

/** Every code of the billing screens (what the seeded administrator holds). */
export const ALL_BILLING_PERMISSIONS = Object.values(BILLING_PERMISSIONS);

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

/** A component of this feature inside the app's providers (i18n, react-query, antd App, permissions, router). */
export function renderInApp(
  ui: ReactNode,
  options: { locale?: Locale; permissions?: string[]; url?: string } = {},
) {
  const i18n = createI18n({ locale: options.locale ?? 'en-US', storage: memoryStorage() });
  return render(
    <AppProviders i18n={i18n} queryClient={createQueryClient()}>
      <RequestMessages />
      <MemoryRouter initialEntries={options.url ? [options.url] : undefined}>
        <PermissionProvider permissions={options.permissions ?? ALL_BILLING_PERMISSIONS}>
          {ui}
        </PermissionProvider>
      </MemoryRouter>
    </AppProviders>,
  );
}

/** The dictionary items the billing screens read, as GET /api/dict/type/{code} answers them. */
export function dictionaryRoutes(): Record<string, () => unknown> {
  const items = (code: string, values: [string, string][]) =>
    values.map(([value, name], i) => ({
      id: i + 1,
      parentId: 100,
      kind: 'item',
      code: `${code}_${value}`,
      name,
      value,
      sort: i,
      enabled: true,
      children: [],
    }));
  return {
    'GET /api/dict/type/charging_period_type': () =>
      items('charging_period_type', [
        ['valley', 'Valley'],
        ['normal', 'Normal'],
        ['peak', 'Peak'],
        ['sharp', 'Sharp'],
        ['deepValley', 'Deep valley'],
      ]),
    'GET /api/dict/type/pay_status': () =>
      items('pay_status', [
        ['0', 'Unpaid'],
        ['1', 'Paid'],
        ['3', 'Abnormal'],
      ]),
    'GET /api/dict/type/order_status': () =>
      items('order_status', [
        ['unpaid', 'Unpaid'],
        ['paid', 'Paid'],
        ['refund', 'Refund'],
        ['abnormal', 'Abnormal'],
        ['unsettled', 'Unsettled'],
      ]),
    'GET /api/dict/type/approval_status': () =>
      items('approval_status', [
        ['pending', 'Pending'],
        ['audited', 'Audited'],
        ['rejected', 'Rejected'],
      ]),
    'GET /api/dict/type/client_type': () =>
      items('client_type', [
        ['1', 'Personal'],
        ['2', 'Group'],
        ['3', 'Group external card'],
      ]),
    'GET /api/dict/type/start_type': () =>
      items('start_type', [
        ['0', 'Until full'],
        ['1', 'By time'],
        ['2', 'By percent'],
        ['3', 'By amount'],
        ['4', 'By energy'],
      ]),
  };
}

/**
 * jsdom has no canvas; echarts (drawn as SVG here) still measures label text on a 2D context. A context
 * that measures text by length is enough for it, and keeps "not implemented" noise out of the output.
 */
export function measureTextOnCanvas(): () => void {
  const original = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function getContext() {
    return { font: '12px sans-serif', measureText: (text: string) => ({ width: text.length * 7 }) };
  } as unknown as typeof original;
  return () => {
    HTMLCanvasElement.prototype.getContext = original;
  };
}
