import { fireEvent } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionStore } from '../../../request';
import { demoCaptcha, json, signedInApi, stubApi } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { renderConsole } from '../../../test/renderConsole';

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
  sessionStore.clear();
  document.body.innerHTML = '';
});

const NOW = Date.now();
const TOKENS = {
  accessToken: 'a1',
  expires: NOW + 1_800_000,
  refreshToken: 'sid.r1',
  refreshExpires: NOW + 9e8,
  tokenType: 'Bearer',
};

async function login(locale: 'en-US' | 'zh-CN', loginAnswer: () => unknown = () => TOKENS, from?: string) {
  let captchas = 0;
  const api = stubApi(
    signedInApi(undefined, undefined, {
      'GET /auth/captcha': () => demoCaptcha(++captchas),
      'POST /auth/login': loginAnswer,
    }),
  );
  const result = await renderConsole(from ?? '/login', { session: null, locale });
  unmount = result.unmount;
  await waitFor(() =>
    expect(result.container.querySelector('[data-testid="captcha-refresh"] img')).not.toBeNull(),
  );
  const field = (label: string) =>
    result.container.querySelector(`input[aria-label="${label}"]`) as HTMLInputElement;
  const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
  const submit = () =>
    fireEvent.click(result.container.querySelector('[data-testid="login-submit"]') as HTMLButtonElement);
  return { ...result, ...api, type, submit, captchas: () => captchas };
}

describe('login page (spec §5)', () => {
  it.each([
    [
      'en-US',
      [
        'Please enter the correct user name',
        'The password must be at least 6 characters',
        'The verification code cannot be empty',
      ],
    ],
    ['zh-CN', ['请输入正确的用户名', '密码不能少于6位', '验证码不能为空']],
  ] as const)('%s: names every missing field', async (locale, messages) => {
    const { submit, container, calls } = await login(locale);
    submit();
    for (const message of messages) await waitFor(() => expect(container.textContent).toContain(message));
    expect(calls.some((call) => call.path === '/auth/login')).toBe(false);
  });

  it('refuses a password shorter than 6 characters', async () => {
    const { type, submit, container } = await login('en-US');
    type('User name', 'admin');
    type('Password', '12345');
    type('Verification code', 'abcd');
    submit();
    await waitFor(() =>
      expect(container.textContent).toContain('The password must be at least 6 characters'),
    );
  });

  it('signs in, stores the session with its refresh token and goes where the user was going', async () => {
    const { type, submit, router, calls } = await login('en-US', () => TOKENS, '/welcome');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    type('User name', ' admin ');
    type('Password', 'Admin@123456');
    type('Verification code', 'x7Kp');
    submit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/welcome'));
    expect(sessionStore.get()).toEqual({
      accessToken: 'a1',
      expires: TOKENS.expires,
      refreshToken: 'sid.r1',
    });
    const body = calls.find((call) => call.path === '/auth/login')?.body;
    expect(body).toEqual({
      username: 'admin',
      password: 'Admin@123456',
      captchaId: demoCaptcha(1).captchaId,
      captchaCode: 'x7Kp',
    });
  });

  it('shows the refusal (its code in the user language) and fetches a new code after a failed attempt', async () => {
    const { type, submit, router, captchas } = await login('en-US', () =>
      json({ code: 'AUTH_CAPTCHA_INVALID', message: 'The verification code is wrong or expired' }, 400),
    );
    type('User name', 'admin');
    type('Password', 'Admin@123456');
    type('Verification code', 'zzzz');
    submit();
    await waitFor(() =>
      expect(document.body.textContent).toContain('The verification code is wrong or has expired'),
    );
    await waitFor(() => expect(captchas()).toBe(2));
    expect(router.state.location.pathname).toBe('/login');
    expect(sessionStore.get()).toBeNull();
  });

  it('signs in on Enter in the last field, once however often it is pressed', async () => {
    const { type, container, router, calls } = await login('en-US');
    type('User name', 'admin');
    type('Password', 'Admin@123456');
    type('Verification code', 'x7Kp');
    const code = container.querySelector('input[aria-label="Verification code"]') as HTMLInputElement;
    fireEvent.keyDown(code, { key: 'Enter', keyCode: 13 });
    fireEvent.keyDown(code, { key: 'Enter', keyCode: 13 });
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(calls.filter((call) => call.path === '/auth/login')).toHaveLength(1);
  });

  it('fetches a new image when the captcha is clicked', async () => {
    const { container, captchas } = await login('en-US');
    fireEvent.click(container.querySelector('[data-testid="captcha-refresh"]') as HTMLElement);
    await waitFor(() => expect(captchas()).toBe(2));
  });

  it('asks for the second factor when the account has TOTP, then signs in with it', async () => {
    let attempts = 0;
    const { type, submit, container, router, calls, captchas } = await login('en-US', () =>
      ++attempts === 1
        ? json({ code: 'AUTH_TOTP_REQUIRED', message: 'Enter the code of your authenticator app' }, 422)
        : TOKENS,
    );
    expect(container.querySelector('[data-testid="login-totp"]')).toBeNull();
    type('User name', 'admin');
    type('Password', 'Admin@123456');
    type('Verification code', 'x7Kp');
    submit();
    await waitFor(() => expect(container.querySelector('[data-testid="login-totp"]')).not.toBeNull());
    await waitFor(() => expect(captchas()).toBe(2));
    const pastClickGuard = () => new Promise((resolve) => setTimeout(resolve, 600)); // 500 ms guard
    await pastClickGuard();
    submit(); // the new field is required
    await waitFor(() =>
      expect(container.textContent).toContain('Enter the authenticator code or a recovery code'),
    );
    type('Authenticator code', ' 123456 ');
    type('Verification code', 'k9Zq');
    await pastClickGuard();
    submit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    const bodies = calls.filter((call) => call.path === '/auth/login').map((call) => call.body);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual({
      username: 'admin',
      password: 'Admin@123456',
      captchaId: demoCaptcha(2).captchaId,
      captchaCode: 'k9Zq',
      totpCode: '123456',
    });
  });
});
