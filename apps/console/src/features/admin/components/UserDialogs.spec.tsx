import { fireEvent } from '@testing-library/react';
import type { UserView } from '@voltdepot/shared-contracts';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../app/providers/AppProviders';
import { createI18n } from '../../../app/providers/i18n';
import { createQueryClient } from '../../../app/providers/queryClient';
import { json, stubApi, type FakeHandler } from '../../../test/fakeApi';
import { memoryStorage } from '../../../test/memoryStorage';
import { render, waitFor } from '../../../test/render';
import { CopyUserDialog, ResetPasswordDialog } from './UserDialogs';

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

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

async function show(ui: ReactNode, routes: Record<string, FakeHandler>) {
  const api = stubApi(routes);
  const i18n = createI18n({ locale: 'en-US', storage: memoryStorage() });
  const rendered = await render(
    <AppProviders i18n={i18n} queryClient={createQueryClient()}>
      {ui}
    </AppProviders>,
  );
  unmount = rendered.unmount;
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
