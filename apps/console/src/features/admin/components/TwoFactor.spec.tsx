import { fireEvent } from '@testing-library/react';
import type { SessionTokens } from '@voltdepot/shared-contracts';
import type { UserExt } from '@voltdepot/console-api-client';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { json, stubApi, type FakeHandler } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { renderInApp } from '../../../test/renderInApp';
import { RequiredTotpEnrolmentDialog, TwoFactorDialog } from './TwoFactor';

const QR = 'data:image/png;base64,iVBORw0KGgo=';
const ENROLMENT = { secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/Voltdepot:admin', qrCode: QR };
const CODES = ['AAAA-1111', 'BBBB-2222', 'CCCC-3333'];

const ext = (totpEnabled: boolean): UserExt => ({
  userId: 1,
  username: 'admin',
  realName: 'Administrator',
  phone: null,
  email: null,
  organizationId: 1,
  organizationName: 'Voltdepot Group',
  dataScopeOrganizationIds: [1],
  lastLoginAt: null,
  totpEnabled,
});

async function show(ui: ReactNode, routes: Record<string, FakeHandler>) {
  const api = stubApi(routes);
  await renderInApp(ui);
  return api;
}

const byTestId = (id: string) => document.querySelector(`[data-testid="${id}"]`) as HTMLElement | null;
const type = (id: string, value: string) =>
  fireEvent.change(byTestId(id) as HTMLInputElement, { target: { value } });

describe('two-factor dialog (user menu)', () => {
  it('turning it on shows the QR code and secret, sends the typed code, then shows the recovery codes', async () => {
    let enabled = false;
    const api = await show(<TwoFactorDialog open onClose={() => undefined} />, {
      'GET /user/getUserExt': () => ext(enabled),
      'POST /auth/totp/enroll': () => ENROLMENT,
      'POST /auth/totp/activate': () => {
        enabled = true;
        return { recoveryCodes: CODES };
      },
    });
    await waitFor(() => expect(byTestId('totp-enrol')).not.toBeNull());
    expect(document.body.textContent).toContain('Two-factor authentication is off');
    fireEvent.click(byTestId('totp-enrol')!);
    await waitFor(() => expect(byTestId('totp-qr')).not.toBeNull());
    expect(byTestId('totp-qr')!.getAttribute('src')).toBe(QR);
    expect(byTestId('totp-secret')!.textContent).toContain(ENROLMENT.secret);

    // A code that is not six digits is refused before anything is sent.
    type('totp-code', '12ab');
    fireEvent.click(byTestId('totp-confirm')!);
    await waitFor(() => expect(document.body.textContent).toContain('The code has 6 digits'));
    expect(api.calls.some((c) => c.path === '/auth/totp/activate')).toBe(false);

    await waitFor(() => expect(byTestId('totp-confirm')!.hasAttribute('disabled')).toBe(false));
    type('totp-code', '123456');
    fireEvent.click(byTestId('totp-confirm')!);
    await waitFor(() => expect(byTestId('totp-recovery-codes')).not.toBeNull());
    const activate = api.calls.find((c) => c.path === '/auth/totp/activate')!;
    expect(activate.method).toBe('POST');
    expect(activate.body).toEqual({ code: '123456' });
    for (const code of CODES) expect(byTestId('totp-recovery-codes')!.textContent).toContain(code);
    expect(byTestId('totp-qr')).toBeNull();
  }, 60_000);

  it('a wrong code keeps the enrolment step and shows no recovery codes', async () => {
    await show(<TwoFactorDialog open onClose={() => undefined} />, {
      'GET /user/getUserExt': () => ext(false),
      'POST /auth/totp/enroll': () => ENROLMENT,
      'POST /auth/totp/activate': () =>
        json({ code: 'AUTH_TOTP_INVALID', message: 'The code is not valid', correlationId: 'c' }, 400),
    });
    await waitFor(() => expect(byTestId('totp-enrol')).not.toBeNull());
    fireEvent.click(byTestId('totp-enrol')!);
    await waitFor(() => expect(byTestId('totp-code')).not.toBeNull());
    type('totp-code', '000000');
    fireEvent.click(byTestId('totp-confirm')!);
    await waitFor(() => expect(byTestId('totp-confirm')!.hasAttribute('disabled')).toBe(false));
    expect(byTestId('totp-qr')).not.toBeNull();
    expect(byTestId('totp-recovery-codes')).toBeNull();
  }, 60_000);

  it('turning it off asks for the password and sends it', async () => {
    let enabled = true;
    const api = await show(<TwoFactorDialog open onClose={() => undefined} />, {
      'GET /user/getUserExt': () => ext(enabled),
      'POST /auth/totp/disable': () => {
        enabled = false;
        return json(undefined, 204);
      },
    });
    await waitFor(() => expect(byTestId('totp-disable')).not.toBeNull());
    fireEvent.click(byTestId('totp-disable')!);
    await waitFor(() => expect(byTestId('totp-disable-password')).not.toBeNull());
    type('totp-disable-password', 'Secret#2025');
    fireEvent.click(byTestId('totp-disable-confirm')!);
    await waitFor(() => expect(byTestId('totp-enrol')).not.toBeNull());
    expect(api.calls.find((c) => c.path === '/auth/totp/disable')!.body).toEqual({
      password: 'Secret#2025',
    });
  }, 60_000);
});

describe('required enrolment at sign-in', () => {
  it('starts with the ticket, shows the QR code, completes with the code, then hands over the session', async () => {
    const session: SessionTokens = {
      accessToken: 'access',
      expires: Date.now() + 3_600_000,
      refreshToken: 'refresh',
      refreshExpires: Date.now() + 86_400_000,
      tokenType: 'Bearer',
    };
    const signedIn = vi.fn();
    const api = await show(
      <RequiredTotpEnrolmentDialog
        enrolmentToken="ticket-1"
        onCancel={() => undefined}
        onSignedIn={signedIn}
      />,
      {
        'POST /auth/totp/enrolment/start': () => ENROLMENT,
        'POST /auth/totp/enrolment/complete': () => ({ recoveryCodes: CODES, session }),
      },
    );
    await waitFor(() => expect(byTestId('totp-qr')).not.toBeNull());
    expect(api.calls.find((c) => c.path === '/auth/totp/enrolment/start')!.body).toEqual({
      enrolmentToken: 'ticket-1',
    });
    expect(byTestId('totp-qr')!.getAttribute('src')).toBe(QR);
    type('totp-code', '654321');
    fireEvent.click(byTestId('totp-confirm')!);
    await waitFor(() => expect(byTestId('totp-recovery-codes')).not.toBeNull());
    expect(api.calls.find((c) => c.path === '/auth/totp/enrolment/complete')!.body).toEqual({
      enrolmentToken: 'ticket-1',
      code: '654321',
    });
    for (const code of CODES) expect(document.body.textContent).toContain(code);
    // The session is handed over only once the codes were seen.
    expect(signedIn).not.toHaveBeenCalled();
    fireEvent.click(byTestId('totp-continue')!);
    expect(signedIn).toHaveBeenCalledWith(session);
  }, 60_000);

  it('a ticket the server refuses closes the dialog', async () => {
    const cancelled = vi.fn();
    await show(
      <RequiredTotpEnrolmentDialog
        enrolmentToken="stale"
        onCancel={cancelled}
        onSignedIn={() => undefined}
      />,
      {
        'POST /auth/totp/enrolment/start': () =>
          json({ code: 'VALIDATION_FAILED', message: 'The ticket expired', correlationId: 'c' }, 400),
      },
    );
    await waitFor(() => expect(cancelled).toHaveBeenCalled());
  }, 60_000);
});
