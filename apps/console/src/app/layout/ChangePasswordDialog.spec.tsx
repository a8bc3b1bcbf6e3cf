import { fireEvent } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { json, stubApi, type FakeHandler } from '../../test/fakeApi';
import { waitFor } from '../../test/render';
import { renderInApp } from '../../test/renderInApp';
import { ChangePasswordDialog } from './ChangePasswordDialog';

async function show(routes: Record<string, FakeHandler>, onClose: () => void = () => undefined) {
  const api = stubApi(routes);
  await renderInApp(<ChangePasswordDialog open onClose={onClose} />);
  await waitFor(() => expect(document.querySelector('.ant-modal input#oldPassword')).not.toBeNull());
  return api;
}

const type = (name: string, value: string) =>
  fireEvent.change(document.querySelector(`.ant-modal input#${name}`) as HTMLInputElement, {
    target: { value },
  });
const ok = () => fireEvent.click(document.querySelector('[data-testid="password-ok"]') as HTMLElement);

describe('change password dialog', () => {
  it('sends the current and the new password, then closes', async () => {
    const closed = vi.fn();
    const api = await show({ 'PUT /user/password': () => json(undefined, 204) }, closed);
    type('oldPassword', 'Old#2025pass');
    type('newPassword', 'New#2025pass');
    type('confirmPassword', 'New#2025pass');
    ok();
    await waitFor(() => expect(closed).toHaveBeenCalled());
    const call = api.calls.find((c) => c.path === '/user/password')!;
    expect(call.method).toBe('PUT');
    expect(call.body).toEqual({ oldPassword: 'Old#2025pass', newPassword: 'New#2025pass' });
  }, 60_000);

  it('a confirmation that differs is refused before anything is sent', async () => {
    const api = await show({});
    type('oldPassword', 'Old#2025pass');
    type('newPassword', 'New#2025pass');
    type('confirmPassword', 'Other#2025pass');
    ok();
    await waitFor(() => expect(document.body.textContent).toContain('The two passwords do not match'));
    expect(api.calls.some((c) => c.path === '/user/password')).toBe(false);
  }, 60_000);

  it('a wrong current password keeps the dialog open', async () => {
    const closed = vi.fn();
    const api = await show(
      {
        'PUT /user/password': () =>
          json({ code: 'AUTH_PASSWORD_INCORRECT', message: 'Wrong password', correlationId: 'c' }, 422),
      },
      closed,
    );
    type('oldPassword', 'Wrong#2025pass');
    type('newPassword', 'New#2025pass');
    type('confirmPassword', 'New#2025pass');
    ok();
    await waitFor(() => expect(api.calls.some((c) => c.path === '/user/password')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closed).not.toHaveBeenCalled();
    expect(document.querySelector('.ant-modal input#oldPassword')).not.toBeNull();
  }, 60_000);
});
