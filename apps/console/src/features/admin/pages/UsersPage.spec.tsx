import { fireEvent } from '@testing-library/react';
import type { UserView } from '@voltdepot/console-api-client';
import { describe, expect, it } from 'vitest';
import { json, stubApi, type FakeHandler } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { renderInApp } from '../../../test/renderInApp';
import { ADMIN_PERMISSIONS } from '../permissions';
import { UsersPage } from './UsersPage';

const ALL = Object.values(ADMIN_PERMISSIONS).flatMap((screen) => Object.values(screen));

const user = (over: Partial<UserView>): UserView => ({
  id: 1,
  username: 'admin',
  realName: 'Administrator',
  phone: null,
  email: null,
  organizationId: 1,
  organizationName: 'Voltdepot Group',
  enabled: true,
  totpEnabled: false,
  roleIds: [1],
  createdAt: '2025-03-01T08:00:00.000Z',
  updatedAt: '2025-03-01T08:00:00.000Z',
  ...over,
});

const ROUTES: Record<string, FakeHandler> = {
  'GET /api/user/page/1/size/10': () => ({
    list: [
      user({}),
      user({ id: 2, username: 'fleet', realName: 'Fleet', roleIds: [4], enabled: false, totpEnabled: true }),
    ],
    total: 2,
  }),
  'GET /api/role/all': () => [
    {
      id: 1,
      code: 'admin',
      name: 'Administrator',
      description: null,
      builtin: true,
      createdAt: '',
      updatedAt: '',
    },
    {
      id: 4,
      code: 'fleet_manager',
      name: 'Fleet manager',
      description: null,
      builtin: true,
      createdAt: '',
      updatedAt: '',
    },
  ],
  'GET /api/organization/tree': () => [
    { id: 1, parentId: null, code: 'ROOT', name: 'Voltdepot Group', sort: 0, children: [] },
  ],
};

async function show(
  permissions: string[],
  routes: Record<string, FakeHandler> = {},
  locale: 'zh-CN' | 'en-US' = 'en-US',
) {
  const api = stubApi({ ...ROUTES, ...routes });
  await renderInApp(<UsersPage />, { permissions, locale });
  await waitFor(() => expect(document.body.textContent).toContain('fleet'));
  return api;
}

const testIds = () =>
  [...document.querySelectorAll('[data-testid]')].map((e) => e.getAttribute('data-testid'));

describe('users page', () => {
  it('an administrator gets every button; role names come from the role list', async () => {
    await show(ALL);
    await waitFor(() => expect(document.body.textContent).toContain('Fleet manager'));
    expect(testIds()).toEqual(
      expect.arrayContaining([
        'user-add',
        'user-import',
        'user-export',
        'user-roles-fleet',
        'user-enabled-fleet',
      ]),
    );
    expect(document.body.textContent).toContain('Voltdepot Group');
  }, 60_000);

  it('shows built-in roles in Chinese while their names are the seeded ones, and a changed name as written', async () => {
    await show(
      ALL,
      {
        'GET /api/role/all': () => [
          {
            id: 1,
            code: 'admin',
            name: 'Administrator',
            description: null,
            builtin: true,
            createdAt: '',
            updatedAt: '',
          },
          {
            id: 4,
            code: 'fleet_manager',
            name: '公交车队',
            description: null,
            builtin: true,
            createdAt: '',
            updatedAt: '',
          },
        ],
      },
      'zh-CN',
    );
    const tags = () => [...document.querySelectorAll('td .ant-tag')].map((tag) => tag.textContent);
    await waitFor(() => expect(tags()).toEqual(expect.arrayContaining(['管理员', '公交车队'])));
    expect(tags()).not.toContain('Administrator');
  }, 60_000);

  it('a reader sees the list without add, import, role or enable controls (and no role list call)', async () => {
    const api = await show(['sys:user', 'sys:user:query']);
    const ids = testIds();
    expect(ids).toContain('user-export');
    for (const hidden of [
      'user-add',
      'user-import',
      'user-roles-fleet',
      'user-enabled-fleet',
      'user-edit-fleet',
    ])
      expect(ids).not.toContain(hidden);
    expect(document.body.textContent).toContain('Disabled');
    expect(api.calls.map((c) => c.path)).not.toContain('/api/role/all');
  }, 60_000);

  it('the import dialog lists the rejected rows with row, column and problem', async () => {
    const api = await show(ALL, {
      'POST /api/user/import': () =>
        json(
          {
            code: 'SPREADSHEET_IMPORT_REJECTED',
            message: '1 row(s) have errors; nothing was imported',
            correlationId: 'c1',
            details: {
              mode: 'all',
              total: 2,
              imported: 0,
              failed: 1,
              errors: [{ row: 3, column: 'E', header: 'Email', field: 'email', message: 'Invalid email' }],
            },
          },
          422,
        ),
    });
    fireEvent.click(document.querySelector('[data-testid="user-import"]') as HTMLElement);
    await waitFor(() => expect(document.querySelector('[data-testid="user-import-file"]')).not.toBeNull());
    const input = document.querySelector('.ant-modal input[type="file"]') as HTMLInputElement;
    const file = new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'users.xlsx');
    fireEvent.change(input, { target: { files: [file] } });
    await waitFor(() => expect(document.body.textContent).toContain('users.xlsx'));
    fireEvent.click(document.querySelector('[data-testid="user-import-start"]') as HTMLElement);
    await waitFor(() => expect(document.querySelector('[data-testid="user-import-errors"]')).not.toBeNull());
    const table = document.querySelector('[data-testid="user-import-errors"]')!.textContent;
    expect(table).toContain('3');
    expect(table).toContain('E · Email');
    expect(table).toContain('Invalid email');
    expect(document.body.textContent).toContain('1 of 2 rows have errors; nothing was imported');
    // Imports are all or nothing: no mode to choose, none sent.
    expect(document.body.textContent).not.toContain('Import the correct rows');
    expect(document.querySelector('[data-testid="user-import-all-or-nothing"]')?.textContent).toBe(
      'All or nothing: if one row has an error, nothing is imported',
    );
    const call = api.calls.find((c) => c.path === '/api/user/import')!;
    expect(call.query.has('mode')).toBe(false);
    expect(call.query.get('lang')).toBe('en-US');
    expect(call.query.get('progressId')).toMatch(/^[0-9a-f-]{36}$/);
    expect(call.body).toBeInstanceOf(FormData);
  }, 90_000);

  it('the grid shows who has two-factor on; Reset TOTP is offered only for those users', async () => {
    await show(ALL);
    await waitFor(() => expect(document.querySelector('[data-testid="user-totp-fleet"]')).not.toBeNull());
    expect(document.querySelector('[data-testid="user-totp-fleet"]')!.textContent).toBe('On');
    expect(document.querySelector('[data-testid="user-totp-admin"]')!.textContent).toBe('Off');
    const menuOf = async (username: string) => {
      fireEvent.click(document.querySelector(`[data-testid="user-more-${username}"]`) as HTMLElement);
      await waitFor(() => expect(document.querySelectorAll('.ant-dropdown-menu').length).toBeGreaterThan(0));
      const menus = [
        ...document.querySelectorAll('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu'),
      ];
      return menus.at(-1)!.textContent ?? '';
    };
    const fleetMenu = await menuOf('fleet');
    expect(fleetMenu).toContain('Reset password');
    expect(fleetMenu).toContain('Reset two-factor');
    fireEvent.click(document.querySelector('[data-testid="user-more-fleet"]') as HTMLElement);
    const adminMenu = await menuOf('admin');
    expect(adminMenu).toContain('Reset password');
    expect(adminMenu).not.toContain('Reset two-factor');
  }, 60_000);
});
