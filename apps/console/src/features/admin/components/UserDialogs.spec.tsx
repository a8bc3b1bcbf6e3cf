import { fireEvent } from '@testing-library/react';
import type { UserView } from '@voltdepot/console-api-client';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { json, stubApi, type FakeHandler } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { renderInApp } from '../../../test/renderInApp';
import { ADMIN_PERMISSIONS } from '../permissions';
import { adminQueryKeys } from '../queryKeys';
import { CopyUserDialog, ResetPasswordDialog, UserRolesDialog } from './UserDialogs';

const FLEET: UserView = {
  id: 2,
  username: 'fleet',
  realName: 'Fleet',
  phone: null,
  email: null,
  organizationId: 1,
  organizationName: 'Voltdepot Group',
  enabled: true,
  totpEnabled: false,
  roleIds: [4],
  createdAt: '2025-03-01T08:00:00.000Z',
  updatedAt: '2025-03-01T08:00:00.000Z',
};

async function show(ui: ReactNode, routes: Record<string, FakeHandler>) {
  const api = stubApi(routes);
  await renderInApp(ui);
  await waitFor(() => expect(document.querySelector('.ant-modal input')).not.toBeNull());
  return api;
}

const type = (name: string, value: string) =>
  fireEvent.change(document.querySelector(`.ant-modal input#${name}`) as HTMLInputElement, {
    target: { value },
  });
const ok = () => fireEvent.click(document.querySelector('.ant-modal-footer .ant-btn-primary') as HTMLElement);

describe('copy user', () => {
  it('sends the new account’s name, real name and password for the copied user', async () => {
    const saved = vi.fn();
    const api = await show(<CopyUserDialog user={FLEET} onClose={() => undefined} onSaved={saved} />, {
      'POST /api/user/2/copy': (req) => ({ ...FLEET, id: 9, ...(req.body as object) }),
    });
    expect(document.body.textContent).toContain('Fleet');
    type('username', 'fleet2');
    type('realName', 'Fleet Two');
    type('password', 'Copy#2025pass');
    type('confirmPassword', 'Copy#2025pass');
    ok();
    await waitFor(() => expect(saved).toHaveBeenCalled());
    const call = api.calls.find((c) => c.path === '/api/user/2/copy')!;
    expect(call.method).toBe('POST');
    expect(call.body).toEqual({ username: 'fleet2', realName: 'Fleet Two', password: 'Copy#2025pass' });
  }, 60_000);

  it('passwords that differ are refused before anything is sent', async () => {
    const api = await show(
      <CopyUserDialog user={FLEET} onClose={() => undefined} onSaved={() => undefined} />,
      {
        'POST /api/user/2/copy': () => FLEET,
      },
    );
    type('username', 'fleet3');
    type('realName', 'Fleet Three');
    type('password', 'Copy#2025pass');
    type('confirmPassword', 'Other#2025pass');
    ok();
    await waitFor(() => expect(document.querySelector('.ant-form-item-explain-error')).not.toBeNull());
    expect(api.calls.some((c) => c.path === '/api/user/2/copy')).toBe(false);
  }, 60_000);

  it('a taken user name keeps the dialog open (the server’s message is shown by the request layer)', async () => {
    const saved = vi.fn();
    const api = await show(<CopyUserDialog user={FLEET} onClose={() => undefined} onSaved={saved} />, {
      'POST /api/user/2/copy': () =>
        json({ code: 'USER_USERNAME_TAKEN', message: 'User name taken', correlationId: 'c' }, 409),
    });
    type('username', 'admin');
    type('realName', 'Admin Two');
    type('password', 'Copy#2025pass');
    type('confirmPassword', 'Copy#2025pass');
    ok();
    await waitFor(() => expect(api.calls.some((c) => c.path === '/api/user/2/copy')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(saved).not.toHaveBeenCalled();
    expect(document.querySelector('.ant-modal input#username')).not.toBeNull();
  }, 60_000);
});

describe('reset password', () => {
  it('sends the new password for the user and closes', async () => {
    const closed = vi.fn();
    const api = await show(<ResetPasswordDialog user={FLEET} onClose={closed} />, {
      'POST /api/user/2/resetPassword': () => json(undefined, 204),
    });
    type('password', 'Reset#2025pass');
    type('confirmPassword', 'Reset#2025pass');
    ok();
    await waitFor(() => expect(closed).toHaveBeenCalled());
    const call = api.calls.find((c) => c.path === '/api/user/2/resetPassword')!;
    expect(call.method).toBe('POST');
    expect(call.body).toEqual({ password: 'Reset#2025pass' });
  }, 60_000);

  it('a weak password is refused before anything is sent', async () => {
    const api = await show(<ResetPasswordDialog user={FLEET} onClose={() => undefined} />, {});
    type('password', 'short');
    type('confirmPassword', 'short');
    ok();
    await waitFor(() => expect(document.querySelector('.ant-form-item-explain-error')).not.toBeNull());
    expect(api.calls.some((c) => c.path === '/api/user/2/resetPassword')).toBe(false);
  }, 60_000);
});

describe('user roles', () => {
  it('a tick survives a later answer for the user’s roles, and the save sends what the boxes show', async () => {
    // The first answer waits until the test lets it go; the second says the user has no role any more.
    let release: () => void = () => undefined;
    const first = new Promise<void>((resolve) => (release = resolve));
    const answers = [async () => (await first, { roleIds: [4] }), () => ({ roleIds: [] })];
    const api = stubApi({
      'GET /api/role/all': () => [
        { id: 2, code: 'operator', name: 'Operator staff' },
        { id: 4, code: 'fleet_manager', name: 'Fleet manager' },
      ],
      'GET /api/user/2/roles': () => (answers.shift() ?? (() => ({ roleIds: [] })))(),
      'PUT /api/user/2/roles': (req) => req.body,
    });
    const saved = vi.fn();
    const { queryClient } = await renderInApp(
      <UserRolesDialog user={FLEET} onClose={() => undefined} onSaved={saved} />,
      { permissions: [ADMIN_PERMISSIONS.user.role] },
    );
    const save = () => document.querySelector('[data-testid="user-roles-save"]') as HTMLButtonElement;
    await waitFor(() => expect(save()).not.toBeNull());
    // Before the user's roles are known: no boxes to tick, nothing to save.
    expect(document.querySelector('[data-testid="user-role-operator"]')).toBeNull();
    expect(save().disabled).toBe(true);

    release();
    await waitFor(() => expect(document.querySelector('[data-testid="user-role-operator"]')).not.toBeNull());
    const box = (code: string) =>
      document
        .querySelector(`[data-testid="user-role-${code}"]`)!
        .closest('label')!
        .querySelector('input') as HTMLInputElement;
    expect(box('fleet_manager').checked).toBe(true);
    fireEvent.click(box('operator'));
    expect(box('operator').checked).toBe(true);

    // The roles are asked again (the list was reloaded meanwhile) and the answer differs: the ticks stay.
    await queryClient.invalidateQueries({ queryKey: adminQueryKeys.userRoles(2) });
    await waitFor(() => expect(api.calls.filter((c) => c.path === '/api/user/2/roles').length).toBe(2));
    expect(box('operator').checked).toBe(true);
    expect(box('fleet_manager').checked).toBe(true);

    fireEvent.click(save());
    await waitFor(() => expect(saved).toHaveBeenCalled());
    const put = api.calls.find((c) => c.method === 'PUT')!;
    expect((put.body as { roleIds: number[] }).roleIds.slice().sort()).toEqual([2, 4]);
  }, 60_000);
});
