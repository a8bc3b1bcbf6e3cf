import { fireEvent } from '@testing-library/react';
import type { LoginLogView, OperationLogView } from '@voltdepot/console-api-client';
import type { TFunction } from 'i18next';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { filtersOf } from '../../../app/grid/useGrid';
import { stubApi, type FakeRequest } from '../../../test/fakeApi';
import { withBrowserTimeZone } from '../../../test/browserTimeZone';
import { waitFor } from '../../../test/render';
import { renderInApp } from '../../../test/renderInApp';
import { loginLogColumns, operationLogColumns } from '../columns';
import { LOG_FILTERS } from '../hooks/useLogGrid';
import { LOG_PERMISSIONS } from '../permissions';
import { LogsPage } from './LogsPage';

vi.setConfig({ testTimeout: 60_000 });
withBrowserTimeZone('UTC');

const operation = (id: number): OperationLogView => ({
  id,
  userId: 1,
  username: 'admin',
  method: 'POST',
  path: `/api/station/${id}`,
  route: null,
  status: 201,
  success: true,
  ip: '127.0.0.1',
  userAgent: null,
  durationMs: 12,
  correlationId: null,
  createdAt: '2026-03-01T00:00:00Z',
});
const login = (id: number): LoginLogView => ({
  id,
  userId: 1,
  username: 'operator',
  success: false,
  reason: 'AUTH_INVALID_CREDENTIALS',
  ip: null,
  userAgent: null,
  createdAt: '2026-03-01T00:00:00Z',
});

async function openPage() {
  const api = stubApi({
    'GET /api/operationLog/page/1/size/10': () => ({ list: [operation(1), operation(2)], total: 2 }),
    'GET /api/loginLog/page/1/size/10': () => ({ list: [login(7)], total: 1 }),
  });
  await renderInApp(<LogsPage />, {
    permissions: [LOG_PERMISSIONS.menu, LOG_PERMISSIONS.operation, LOG_PERMISSIONS.login],
  });
  return api;
}

const input = (placeholder: string) =>
  document.querySelector(`.ant-pro-table-search input[placeholder="${placeholder}"]`) as HTMLInputElement;
const queryButton = () => document.querySelector('[data-testid="log-query"]') as HTMLElement;
const lastPage = (calls: FakeRequest[], prefix: string) =>
  calls.filter((c) => c.path.startsWith(prefix)).at(-1)!;

async function choose(label: string, option: string) {
  const item = [...document.querySelectorAll('.ant-pro-table-search .ant-form-item')].find(
    (el) => el.querySelector('label')?.textContent === label,
  )!;
  fireEvent.mouseDown(item.querySelector('.ant-select-selector')!);
  await waitFor(() =>
    expect(document.querySelector(`.ant-select-item-option[title="${option}"]`)).not.toBeNull(),
  );
  fireEvent.click(document.querySelector(`.ant-select-item-option[title="${option}"]`)!);
}

describe('logs screen (ProTable)', () => {
  it('operation log: searches by user name, method, path and result', async () => {
    const api = await openPage();
    await waitFor(() => expect(document.querySelectorAll('.ant-table-row')).toHaveLength(2));
    const first = lastPage(api.calls, '/api/operationLog/');
    expect([...first.query.keys()]).toEqual([]);
    expect(document.body.textContent).toContain('/api/station/1');

    fireEvent.change(input('User name'), { target: { value: ' admin ' } });
    fireEvent.change(input('Enter a path'), { target: { value: '/api/station' } });
    await choose('Method', 'DELETE');
    await choose('Result', 'Failed');
    await act(async () => queryButton().click());
    await waitFor(() =>
      expect(Object.fromEntries(lastPage(api.calls, '/api/operationLog/').query)).toEqual({
        username: 'admin',
        path: '/api/station',
        method: 'DELETE',
        success: 'false',
      }),
    );
  });

  it('shows times in the business time zone, not the browser zone (UTC here), and says which', async () => {
    await openPage();
    await waitFor(() => expect(document.querySelectorAll('.ant-table-row')).toHaveLength(2));
    const cells = [...document.querySelectorAll('.ant-table-row td')].map((td) => td.textContent);
    // 2026-03-01T00:00:00Z is 08:00 in Asia/Shanghai.
    expect(cells).toContain('2026-03-01 08:00:00');
    expect(cells).not.toContain('2026-03-01 00:00:00');
    const hints = [...document.querySelectorAll('[data-testid="time-zone-hint"]')];
    expect(hints.map((h) => h.textContent)).toEqual(expect.arrayContaining(['UTC+8', 'Business time UTC+8']));
    expect(hints[0].getAttribute('aria-label')).toContain('Asia/Shanghai');
  });

  it('login log: searches by user name and result only', async () => {
    const api = await openPage();
    await waitFor(() => expect(document.querySelector('[role="tab"]')).not.toBeNull());
    const tab = [...document.querySelectorAll('[role="tab"]')].find((el) => el.textContent === 'Login log')!;
    await act(async () => fireEvent.click(tab));
    await waitFor(() =>
      expect(document.querySelector('[data-testid="log-table-login"] .ant-table-row')).not.toBeNull(),
    );
    expect(document.body.textContent).toContain('operator');
    expect(input('Enter a path')).toBeNull();
    fireEvent.change(input('User name'), { target: { value: 'operator' } });
    await choose('Result', 'Succeeded');
    await act(async () => queryButton().click());
    await waitFor(() =>
      expect(Object.fromEntries(lastPage(api.calls, '/api/loginLog/').query)).toEqual({
        username: 'operator',
        success: 'true',
      }),
    );
  });

  it('the period becomes start and end, which both logs send (and login drops method and path)', () => {
    const t = ((key: string) => key) as unknown as TFunction;
    for (const columns of [operationLogColumns(t), loginLogColumns(t)]) {
      const period = columns.find((c) => c.key === 'period')!;
      expect(period.hideInTable).toBe(true);
      const transform = (period.search as { transform: (v: unknown) => unknown }).transform;
      // Picked in business time, sent as instants with its offset (the browser here is in UTC).
      expect(transform(['2026-03-01 00:00:00', '2026-03-01 23:59:59'])).toEqual({
        start: '2026-03-01T00:00:00+08:00',
        end: '2026-03-01T23:59:59+08:00',
      });
    }
    const form = {
      start: '2026-03-01 00:00:00',
      end: '2026-03-02 00:00:00',
      method: 'POST',
      path: '/x',
      current: 1,
    };
    expect(filtersOf(form, LOG_FILTERS.operation)).toEqual({
      start: '2026-03-01 00:00:00',
      end: '2026-03-02 00:00:00',
      method: 'POST',
      path: '/x',
    });
    expect(filtersOf(form, LOG_FILTERS.login)).toEqual({
      start: '2026-03-01 00:00:00',
      end: '2026-03-02 00:00:00',
    });
  });
});
