import type { CaptchaResponse, SessionTokens } from '@voltdepot/shared-contracts';
import { decodeJwt } from 'jose';
import { ADMIN_PASSWORD, ApiTestApp, bearer, errorOf, startApiTestApp } from '../fixtures/api-test-app';

describe('sign-in and sessions (real PostgreSQL and Redis)', () => {
  let t: ApiTestApp;

  beforeAll(async () => {
    t = await startApiTestApp({ AUTH_MAX_ACCOUNT_FAILURES: '3', CAPTCHA_TTL_SECONDS: '2' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const captcha = async (): Promise<CaptchaResponse> =>
    (await t.http().get('/auth/captcha').expect(200)).body as CaptchaResponse;

  it('GET /auth/captcha returns an SVG image, an id, an expiry and (test mode only) the answer', async () => {
    const before = Date.now();
    const res = await t.http().get('/auth/captcha').expect(200);
    const body = res.body as CaptchaResponse;
    expect(body.captchaId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.image).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(body.image.split(',')[1], 'base64').toString()).toContain('<svg');
    expect(body.expiresAt).toBeGreaterThanOrEqual(before + 2000);
    expect(body.testAnswer).toMatch(/^\w{4}$/);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('logs in with a correct captcha: { accessToken, expires (epoch ms), refreshToken }', async () => {
    const c = await captcha();
    const before = Date.now();
    const res = await t
      .http()
      .post('/auth/login')
      .send({
        username: 'admin',
        password: ADMIN_PASSWORD,
        captchaId: c.captchaId,
        captchaCode: c.testAnswer!.toUpperCase(),
      })
      .expect(200);
    const tokens = res.body as SessionTokens;
    expect(tokens.tokenType).toBe('Bearer');
    expect(tokens.expires).toBeGreaterThan(before + 1700 * 1000);
    expect(tokens.expires).toBeLessThan(before + 1900 * 1000);
    expect(decodeJwt(tokens.accessToken)).toMatchObject({
      sub: expect.any(String),
      name: 'admin',
      iss: 'voltdepot',
    });
    expect(tokens.refreshToken).toMatch(/^[0-9a-f-]{36}\.[\w-]{43}$/);
    await t.http().get('/authority/users/currentuser/info').set(bearer(tokens)).expect(200);
  });

  it.each([
    ['empty body', {}, ['username', 'password', 'captchaId', 'captchaCode']],
    [
      'short password, empty code',
      {
        username: 'admin',
        password: '12345',
        captchaId: '00000000-0000-4000-8000-000000000000',
        captchaCode: '',
      },
      ['password', 'captchaCode'],
    ],
    [
      'wrong types',
      { username: 7, password: true, captchaId: 'nope', captchaCode: ['x'] },
      ['username', 'password', 'captchaId', 'captchaCode'],
    ],
    [
      'too long',
      {
        username: 'a'.repeat(65),
        password: 'p'.repeat(129),
        captchaId: '00000000-0000-4000-8000-000000000000',
        captchaCode: 'x'.repeat(17),
      },
      ['username', 'password', 'captchaCode'],
    ],
  ])('%s -> 400 naming every failing field', async (_case, body, fields) => {
    const res = await t.http().post('/auth/login').send(body).expect(400);
    const error = errorOf(res.body, 'VALIDATION_FAILED');
    expect((error.details as { field: string }[]).map((d) => d.field)).toEqual(fields);
  });

  it('the field messages of a missing login are the spec’s rules', async () => {
    const res = await t.http().post('/auth/login').send({ password: '123' }).expect(400);
    expect(res.body.details).toEqual([
      { field: 'username', message: 'User name is required' },
      { field: 'password', message: 'Password must have at least 6 characters' },
      { field: 'captchaId', message: 'Verification code id is required' },
      { field: 'captchaCode', message: 'Verification code is required' },
    ]);
  });

  it('a wrong captcha -> 400 AUTH_CAPTCHA_INVALID, and the captcha is used up', async () => {
    const c = await captcha();
    const wrong = await t
      .http()
      .post('/auth/login')
      .send({ username: 'admin', password: ADMIN_PASSWORD, captchaId: c.captchaId, captchaCode: 'zzzz' })
      .expect(400);
    expect(errorOf(wrong.body, 'AUTH_CAPTCHA_INVALID').details).toEqual([
      { field: 'captchaCode', message: 'Verification code is wrong' },
    ]);
    const again = await t
      .http()
      .post('/auth/login')
      .send({
        username: 'admin',
        password: ADMIN_PASSWORD,
        captchaId: c.captchaId,
        captchaCode: c.testAnswer,
      })
      .expect(400);
    expect(errorOf(again.body, 'AUTH_CAPTCHA_INVALID').message).toBe(
      'Verification code has expired or was already used; get a new one',
    );
  });

  it('a captcha is one-time: a successful login uses it up', async () => {
    const c = await captcha();
    const body = {
      username: 'admin',
      password: ADMIN_PASSWORD,
      captchaId: c.captchaId,
      captchaCode: c.testAnswer,
    };
    await t.http().post('/auth/login').send(body).expect(200);
    errorOf((await t.http().post('/auth/login').send(body).expect(400)).body, 'AUTH_CAPTCHA_INVALID');
  });

  it('an expired captcha -> 400 AUTH_CAPTCHA_INVALID', async () => {
    const c = await captcha();
    await new Promise((resolve) => setTimeout(resolve, 2_300));
    const res = await t
      .http()
      .post('/auth/login')
      .send({
        username: 'admin',
        password: ADMIN_PASSWORD,
        captchaId: c.captchaId,
        captchaCode: c.testAnswer,
      })
      .expect(400);
    expect(errorOf(res.body, 'AUTH_CAPTCHA_INVALID').message).toMatch(/expired/);
  });

  it('an unknown user and a wrong password get the same 422 answer', async () => {
    for (const [username, password] of [
      ['nobody', 'whatever1'],
      ['operator', 'wrong-password'],
    ]) {
      const c = await captcha();
      const res = await t
        .http()
        .post('/auth/login')
        .send({ username, password, captchaId: c.captchaId, captchaCode: c.testAnswer })
        .expect(422);
      expect(errorOf(res.body, 'AUTH_INVALID_CREDENTIALS').message).toBe('Wrong user name or password');
    }
  });

  it('locks an account after 3 failures with a clear message, even for the right password', async () => {
    const attempt = async (password: string) => {
      const c = await captcha();
      return t
        .http()
        .post('/auth/login')
        .send({ username: 'maintainer', password, captchaId: c.captchaId, captchaCode: c.testAnswer });
    };
    for (let i = 0; i < 3; i++) expect((await attempt('bad-password')).status).toBe(422);
    const locked = await attempt('Demo@123456');
    expect(locked.status).toBe(429);
    const error = errorOf(locked.body, 'AUTH_ACCOUNT_LOCKED');
    expect(error.message).toBe(
      'Too many failed sign-in attempts: this account is locked, try again in 15 minutes',
    );
    expect(error.details).toEqual({ retryAfterSeconds: expect.any(Number) });
  });

  it('refresh rotates the refresh token; re-using a rotated one revokes the whole family', async () => {
    const first = await t.login('operator', 'Demo@123456');
    const second = (
      await t.http().post('/auth/refresh').send({ refreshToken: first.refreshToken }).expect(200)
    ).body as SessionTokens;
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.refreshToken.split('.')[0]).toBe(first.refreshToken.split('.')[0]);
    await t.http().get('/user/getUserExt').set(bearer(second)).expect(200);

    // The rotated (first) token comes back: the family is revoked, the newest tokens die with it.
    const reuse = await t.http().post('/auth/refresh').send({ refreshToken: first.refreshToken }).expect(401);
    errorOf(reuse.body, 'AUTH_REFRESH_REUSED');
    errorOf(
      (await t.http().post('/auth/refresh').send({ refreshToken: second.refreshToken }).expect(401)).body,
      'AUTH_REFRESH_INVALID',
    );
    errorOf(
      (await t.http().get('/user/getUserExt').set(bearer(second)).expect(401)).body,
      'AUTH_TOKEN_REVOKED',
    );
    errorOf(
      (await t.http().get('/user/getUserExt').set(bearer(first)).expect(401)).body,
      'AUTH_TOKEN_REVOKED',
    );
  });

  it.each([
    ['missing', 400, 'VALIDATION_FAILED', {}],
    ['garbage', 401, 'AUTH_REFRESH_INVALID', { refreshToken: 'garbage' }],
    [
      'unknown-session',
      401,
      'AUTH_REFRESH_INVALID',
      { refreshToken: '00000000-0000-4000-8000-000000000000.abc' },
    ],
    ['wrongly typed', 400, 'VALIDATION_FAILED', { refreshToken: 42 }],
  ])('refresh with a %s token -> %i %s', async (_case, status, code, body) => {
    errorOf((await t.http().post('/auth/refresh').send(body).expect(status)).body, code);
  });

  it('logout revokes the session: access and refresh tokens stop working', async () => {
    const tokens = await t.login('fleet', 'Demo@123456');
    await t.http().get('/user/getUserExt').set(bearer(tokens)).expect(200);
    await t.http().post('/auth/logout').send({ refreshToken: tokens.refreshToken }).expect(204);
    errorOf(
      (await t.http().get('/user/getUserExt').set(bearer(tokens)).expect(401)).body,
      'AUTH_TOKEN_REVOKED',
    );
    errorOf(
      (await t.http().post('/auth/refresh').send({ refreshToken: tokens.refreshToken }).expect(401)).body,
      'AUTH_REFRESH_INVALID',
    );
  });

  it('logout with only the bearer token also revokes', async () => {
    const tokens = await t.login('fleet', 'Demo@123456');
    await t.http().post('/auth/logout').set(bearer(tokens)).expect(204);
    errorOf(
      (await t.http().get('/user/getUserExt').set(bearer(tokens)).expect(401)).body,
      'AUTH_TOKEN_REVOKED',
    );
  });

  it('records successful and failed sign-ins in the login log', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const res = await t
      .http()
      .get('/api/loginLog/page/1/size/50')
      .query({ username: 'maintainer' })
      .set(bearer(admin))
      .expect(200);
    expect(res.body.total).toBeGreaterThanOrEqual(3);
    expect(res.body.list[0]).toMatchObject({
      username: 'maintainer',
      success: false,
      ip: expect.any(String),
    });
  });
});

describe('per-address throttling', () => {
  let t: ApiTestApp;
  beforeAll(async () => {
    t = await startApiTestApp({ AUTH_MAX_ADDRESS_FAILURES: '4', AUTH_MAX_ACCOUNT_FAILURES: '100' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('throttles an address after 4 failures across different accounts, whatever X-Forwarded-For an untrusted peer sends', async () => {
    // TRUST_PROXY is empty here: the header is the client's own claim and changes nothing.
    let forged = 0;
    const attempt = async (username: string, password: string) => {
      const xff = { 'x-forwarded-for': `198.51.100.${++forged}` };
      const c = (await t.http().get('/auth/captcha').set(xff).expect(200)).body as CaptchaResponse;
      return t
        .http()
        .post('/auth/login')
        .set(xff)
        .send({ username, password, captchaId: c.captchaId, captchaCode: c.testAnswer });
    };
    for (const user of ['u1', 'u2', 'u3', 'u4'])
      expect((await attempt(user, 'bad-password')).status).toBe(422);
    const res = await attempt('admin', ADMIN_PASSWORD);
    expect(res.status).toBe(429);
    expect(errorOf(res.body, 'AUTH_ADDRESS_THROTTLED').message).toBe(
      'Too many failed sign-in attempts from your address: try again in 15 minutes',
    );
  });
});

describe('the client address behind the configured proxy (TRUST_PROXY=loopback: the console proxy)', () => {
  let t: ApiTestApp;
  beforeAll(async () => {
    t = await startApiTestApp({
      TRUST_PROXY: 'loopback',
      AUTH_MAX_ADDRESS_FAILURES: '3',
      AUTH_MAX_ACCOUNT_FAILURES: '100',
      CAPTCHA_MAX_PER_ADDRESS: '5',
      CAPTCHA_RATE_WINDOW_SECONDS: '60',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A request as the proxy forwards it for the browser at `client`. */
  const from = (client: string) => ({ 'x-forwarded-for': client });
  const attempt = async (client: string, username: string, password: string) => {
    const c = (await t.http().get('/auth/captcha').set(from(client)).expect(200)).body as CaptchaResponse;
    return t
      .http()
      .post('/auth/login')
      .set(from(client))
      .send({ username, password, captchaId: c.captchaId, captchaCode: c.testAnswer });
  };

  it('locks out the address that failed, not every user of the proxy', async () => {
    for (const user of ['x1', 'x2', 'x3'])
      expect((await attempt('203.0.113.7', user, 'bad-password')).status).toBe(422);
    const throttled = await attempt('203.0.113.7', 'admin', ADMIN_PASSWORD);
    expect(throttled.status).toBe(429);
    expect(throttled.headers['retry-after']).toBe('900');
    errorOf(throttled.body, 'AUTH_ADDRESS_THROTTLED');
    // Another browser behind the same proxy signs in: 20 bad logins from anyone no longer lock out everybody.
    const other = await attempt('203.0.113.8', 'admin', ADMIN_PASSWORD);
    expect(other.status).toBe(200);
    const log = await t
      .http()
      .get('/api/loginLog/page/1/size/50')
      .query({ username: 'x1' })
      .set(bearer(other.body as SessionTokens))
      .expect(200);
    expect(log.body.list[0]).toMatchObject({ username: 'x1', success: false, ip: '203.0.113.7' });
  });

  it('a client sending its own X-Forwarded-For through the proxy is still known by the address the proxy saw', async () => {
    // The proxy appends the peer it saw; the forged entry before it is not believed.
    const res = await t
      .http()
      .get('/auth/captcha')
      .set('x-forwarded-for', '192.0.2.99, 203.0.113.50')
      .expect(200);
    expect(res.body).toEqual(expect.objectContaining({ captchaId: expect.any(String) }));
    for (let i = 0; i < 4; i++)
      await t.http().get('/auth/captcha').set('x-forwarded-for', `192.0.2.${i}, 203.0.113.50`).expect(200);
    await t.http().get('/auth/captcha').set('x-forwarded-for', '192.0.2.200, 203.0.113.50').expect(429);
  });

  it('limits captchas per address: the one beyond the limit is a 429 with Retry-After', async () => {
    for (let i = 0; i < 5; i++) await t.http().get('/auth/captcha').set(from('192.0.2.10')).expect(200);
    const refused = await t.http().get('/auth/captcha').set(from('192.0.2.10')).expect(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body).toEqual({
      code: 'AUTH_CAPTCHA_THROTTLED',
      message: `Too many verification codes requested from your address: try again in ${retryAfter} s`,
      details: { retryAfterSeconds: retryAfter },
      correlationId: expect.any(String),
    });
    await t.http().get('/auth/captcha').set(from('192.0.2.11')).expect(200);
  });
});
