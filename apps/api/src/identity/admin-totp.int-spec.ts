import type { CaptchaResponse, GridPage, SessionTokens, TotpEnrolment } from '@voltdepot/shared-contracts';
import { AdminTotpPolicy, type LoginLogView, type UserExt } from '@voltdepot/server-identity';
import { authenticator } from 'otplib';
import {
  ADMIN_PASSWORD,
  ApiTestApp,
  bearer,
  DEMO_PASSWORD,
  errorOf,
  startApiTestApp,
} from '../fixtures/api-test-app';

type Ticket = { enrolmentToken: string; expiresAt: number };
type Completed = { recoveryCodes: string[]; session: SessionTokens };

describe('mandatory TOTP for administrators (real PostgreSQL and Redis)', () => {
  let t: ApiTestApp;
  let root: SessionTokens;

  const signIn = async (username: string, password: string, totpCode?: string) => {
    const c = (await t.http().get('/auth/captcha').expect(200)).body as CaptchaResponse;
    return t
      .http()
      .post('/auth/login')
      .send({ username, password, captchaId: c.captchaId, captchaCode: c.testAnswer, totpCode });
  };
  const setRequired = async (value: string, status = 200) =>
    t
      .http()
      .put('/api/platformConfig/adminTotpRequired')
      .set(bearer(root))
      .send({ configValue: value })
      .expect(status);
  const ticketOf = async (username: string, password: string): Promise<Ticket> => {
    const res = await signIn(username, password);
    expect(res.status).toBe(422);
    const error = errorOf(res.body, 'AUTH_TOTP_ENROLMENT_REQUIRED');
    expect(error.message).toBe(
      'Two-factor authentication is mandatory for administrators: set it up to finish signing in',
    );
    expect(res.body).not.toHaveProperty('accessToken');
    return error.details as Ticket;
  };
  const createUser = async (username: string, roleCodes: string[]) => {
    const roles = (await t.http().get('/api/role/all').set(bearer(root)).expect(200)).body as {
      id: number;
      code: string;
    }[];
    await t
      .http()
      .post('/api/user')
      .set(bearer(root))
      .send({
        username,
        password: 'Secret123',
        realName: username,
        organizationId: 1,
        roleIds: roles.filter((r) => roleCodes.includes(r.code)).map((r) => r.id),
      })
      .expect(201);
  };

  beforeAll(async () => {
    t = await startApiTestApp();
    root = await t.login('admin', ADMIN_PASSWORD);
    // `root` enrols first, so turning the setting on never locks the test's own administrator out.
    const enrolment = (await t.http().post('/auth/totp/enroll').set(bearer(root)).expect(200))
      .body as TotpEnrolment;
    await t
      .http()
      .post('/auth/totp/activate')
      .set(bearer(root))
      .send({ code: authenticator.generate(enrolment.secret) })
      .expect(200);
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    await setRequired('0');
  });

  it('is a built-in system parameter, off by default, that takes only 0 or 1', async () => {
    const page = (
      await t
        .http()
        .get('/api/platformConfig/page/1/size/100')
        .query({ category: 'system' })
        .set(bearer(root))
        .expect(200)
    ).body as GridPage<{ configKey: string; configValue: string; builtin: boolean; isPublic: boolean }>;
    expect(page.list.find((c) => c.configKey === 'adminTotpRequired')).toMatchObject({
      configValue: '0',
      builtin: true,
      isPublic: false,
    });
    const refused = await setRequired('yes', 422);
    expect(errorOf(refused.body, 'CONFIG_VALUE_INVALID').message).toBe(
      "Setting 'adminTotpRequired' must be '0' or '1'",
    );
    errorOf(
      (await t.http().delete('/api/platformConfig/adminTotpRequired').set(bearer(root)).expect(422)).body,
      'CONFIG_BUILTIN',
    );
    await createUser('admin.off', ['admin']);
    expect((await signIn('admin.off', 'Secret123')).status).toBe(200);
  });

  it('when on, an administrator without TOTP enrols at sign-in before getting a session', async () => {
    await createUser('admin.new', ['admin']);
    await setRequired('1');
    const ticket = await ticketOf('admin.new', 'Secret123');
    expect(ticket.enrolmentToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(ticket.expiresAt).toBeGreaterThan(Date.now() + 9 * 60_000);

    // The ticket is no session: it opens nothing behind the guard.
    errorOf(
      (await t.http().get('/user/getUserExt').set(bearer(ticket.enrolmentToken)).expect(401)).body,
      'AUTH_TOKEN_INVALID',
    );
    errorOf(
      (await t.http().post('/auth/totp/enrolment/start').send({ enrolmentToken: 'not-a-ticket' }).expect(422))
        .body,
      'AUTH_TOTP_ENROLMENT_INVALID',
    );

    const enrolment = (
      await t
        .http()
        .post('/auth/totp/enrolment/start')
        .send({ enrolmentToken: ticket.enrolmentToken })
        .expect(200)
    ).body as TotpEnrolment;
    expect(enrolment.qrCode).toMatch(/^data:image\/png;base64,/);
    expect(enrolment.otpauthUrl).toContain('Voltdepot:admin.new');

    errorOf(
      (
        await t
          .http()
          .post('/auth/totp/enrolment/complete')
          .send({ enrolmentToken: ticket.enrolmentToken, code: '000000' })
          .expect(422)
      ).body,
      'AUTH_TOTP_INVALID',
    );
    const done = (
      await t
        .http()
        .post('/auth/totp/enrolment/complete')
        .send({ enrolmentToken: ticket.enrolmentToken, code: authenticator.generate(enrolment.secret) })
        .expect(200)
    ).body as Completed;
    expect(done.recoveryCodes).toHaveLength(10);
    expect(done.session.tokenType).toBe('Bearer');
    const ext = (await t.http().get('/user/getUserExt').set(bearer(done.session)).expect(200))
      .body as UserExt;
    expect(ext).toMatchObject({ username: 'admin.new', totpEnabled: true });

    // Used up: the ticket does not start another enrolment or session.
    errorOf(
      (
        await t
          .http()
          .post('/auth/totp/enrolment/complete')
          .send({ enrolmentToken: ticket.enrolmentToken, code: authenticator.generate(enrolment.secret) })
          .expect(422)
      ).body,
      'AUTH_TOTP_ENROLMENT_INVALID',
    );

    // From now on the second factor is asked at sign-in like for any enrolled user.
    errorOf((await signIn('admin.new', 'Secret123')).body, 'AUTH_TOTP_REQUIRED');
    expect((await signIn('admin.new', 'Secret123', done.recoveryCodes[0])).status).toBe(200);

    // And it cannot be switched off while it is mandatory.
    const off = await t
      .http()
      .post('/auth/totp/disable')
      .set(bearer(done.session))
      .send({ password: 'Secret123' })
      .expect(422);
    expect(errorOf(off.body, 'AUTH_TOTP_STATE').message).toBe(
      'Two-factor authentication is mandatory for administrators and cannot be turned off',
    );

    const logins = (
      await t
        .http()
        .get('/api/loginLog/page/1/size/20')
        .query({ username: 'admin.new' })
        .set(bearer(root))
        .expect(200)
    ).body as GridPage<LoginLogView>;
    expect(logins.list.map((l) => [l.success, l.reason])).toEqual(
      expect.arrayContaining([
        [false, 'totp enrolment required'],
        [false, 'totp invalid'],
        [true, 'totp enrolled'],
      ]),
    );
  });

  it('a double-clicked completion turns TOTP on once: the recovery codes shown are the ones that work', async () => {
    await createUser('admin.twice', ['admin']);
    await setRequired('1');
    const ticket = await ticketOf('admin.twice', 'Secret123');
    const enrolment = (
      await t
        .http()
        .post('/auth/totp/enrolment/start')
        .send({ enrolmentToken: ticket.enrolmentToken })
        .expect(200)
    ).body as TotpEnrolment;
    const code = authenticator.generate(enrolment.secret);
    const answers = await Promise.all(
      [1, 2].map(() =>
        t.http().post('/auth/totp/enrolment/complete').send({ enrolmentToken: ticket.enrolmentToken, code }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    const done = answers.find((a) => a.status === 200)!.body as Completed;
    const refused = answers.find((a) => a.status === 422)!.body;
    expect(['AUTH_TOTP_STATE', 'AUTH_TOTP_ENROLMENT_INVALID']).toContain(refused.code);
    // Every code of the winning answer signs in (the loser stored none of its own).
    for (const recovery of done.recoveryCodes.slice(0, 2))
      expect((await signIn('admin.twice', 'Secret123', recovery)).status).toBe(200);
  });

  it('counts as administrator whoever can change access, not only the admin role', async () => {
    const roleId = (
      await t
        .http()
        .post('/api/role')
        .set(bearer(root))
        .send({ code: 'role_assigner', name: 'Role assigner' })
        .expect(201)
    ).body.id as number;
    const tree = JSON.stringify((await t.http().get('/api/resource/tree').set(bearer(root))).body);
    const idOf = (code: string) => Number(new RegExp(`"id":(\\d+),[^{}]*"code":"${code}"`).exec(tree)?.[1]);
    await t
      .http()
      .put(`/api/role/${roleId}/resources`)
      .set(bearer(root))
      .send({ resourceIds: [idOf('sys:user:role')] })
      .expect(200);
    await createUser('assigner', ['role_assigner']);
    await setRequired('1');

    await ticketOf('assigner', 'Secret123');
    // Operator staff read users but change no access: not administrators.
    expect((await signIn('operator', DEMO_PASSWORD)).status).toBe(200);
    expect((await signIn('maintainer', DEMO_PASSWORD)).status).toBe(200);
  });

  it('a session of an administrator without TOTP does not refresh once it is mandatory', async () => {
    await createUser('admin.old', ['admin']);
    const session = (await signIn('admin.old', 'Secret123')).body as SessionTokens;
    await setRequired('1');
    const refused = await t
      .http()
      .post('/auth/refresh')
      .send({ refreshToken: session.refreshToken })
      .expect(401);
    errorOf(refused.body, 'AUTH_REFRESH_INVALID');
    await setRequired('0');
    expect((await signIn('admin.old', 'Secret123')).status).toBe(200);
  });

  it('a production deployment without demo data starts with it on; what an administrator set is kept', async () => {
    const valueOf = async () =>
      (
        (await t.db.dataSource.query(
          `SELECT config_value FROM sys_platform_config WHERE config_key = 'adminTotpRequired'`,
        )) as { config_value: string }[]
      )[0].config_value;
    // As the migration leaves it: '0', never set by anyone.
    await t.db.dataSource.query(
      `UPDATE sys_platform_config SET config_value = '0', updated_by = NULL WHERE config_key = 'adminTotpRequired'`,
    );
    await createUser('admin.prod', ['admin']);
    const [{ id }] = (await t.db.dataSource.query(
      `SELECT id FROM sys_user WHERE username = 'admin.prod'`,
    )) as {
      id: number;
    }[];
    const demo = new AdminTotpPolicy(t.db.dataSource, { adminTotpRequiredByDefault: false });
    await demo.onApplicationBootstrap();
    expect(await valueOf()).toBe('0');
    expect(await demo.requiresTotp(id)).toBe(false);
    const production = new AdminTotpPolicy(t.db.dataSource, { adminTotpRequiredByDefault: true });
    // Mandatory from the first sign-in, even before start-up has written the '1' the settings page shows.
    expect(await production.requiresTotp(id)).toBe(true);
    await production.onApplicationBootstrap();
    expect(await valueOf()).toBe('1');
    await ticketOf('admin.prod', 'Secret123');
    // An administrator turns it off: the next start-up leaves it off.
    await setRequired('0');
    await production.onApplicationBootstrap();
    expect(await valueOf()).toBe('0');
    expect(await production.requiresTotp(id)).toBe(false);
  });

  it('tells an administrator without a second factor (the demo) so, and nobody else', async () => {
    await createUser('admin.plain', ['admin']);
    const infoOf = async (session: SessionTokens) =>
      (await t.http().get('/authority/users/currentuser/info').set(bearer(session)).expect(200)).body as {
        secondFactorMissing: boolean;
      };
    const plain = (await signIn('admin.plain', 'Secret123')).body as SessionTokens;
    expect((await infoOf(plain)).secondFactorMissing).toBe(true);
    // `root` has TOTP; operator staff are no administrators.
    expect((await infoOf(root)).secondFactorMissing).toBe(false);
    const operator = (await signIn('operator', DEMO_PASSWORD)).body as SessionTokens;
    expect((await infoOf(operator)).secondFactorMissing).toBe(false);
  });

  it('five wrong codes end the ticket; the administrator signs in again', async () => {
    await createUser('admin.typo', ['admin']);
    await setRequired('1');
    const ticket = await ticketOf('admin.typo', 'Secret123');
    const enrolment = (
      await t.http().post('/auth/totp/enrolment/start').send({ enrolmentToken: ticket.enrolmentToken })
    ).body as TotpEnrolment;
    for (let i = 0; i < 5; i++) {
      errorOf(
        (
          await t
            .http()
            .post('/auth/totp/enrolment/complete')
            .send({ enrolmentToken: ticket.enrolmentToken, code: '000000' })
            .expect(422)
        ).body,
        'AUTH_TOTP_INVALID',
      );
    }
    const res = await t
      .http()
      .post('/auth/totp/enrolment/complete')
      .send({ enrolmentToken: ticket.enrolmentToken, code: authenticator.generate(enrolment.secret) })
      .expect(422);
    expect(errorOf(res.body, 'AUTH_TOTP_ENROLMENT_INVALID').message).toBe(
      'The two-factor set-up has expired or was already used; sign in again',
    );
  });

  it.each([
    [
      'start without a ticket',
      '/auth/totp/enrolment/start',
      {},
      'enrolmentToken',
      'Enrolment token is required',
    ],
    [
      'start with an unknown field',
      '/auth/totp/enrolment/start',
      { enrolmentToken: 'x', extra: 1 },
      '(root)',
      "Unrecognized key(s) in object: 'extra'",
    ],
    [
      'complete without a code',
      '/auth/totp/enrolment/complete',
      { enrolmentToken: 'x' },
      'code',
      'Code is required',
    ],
    [
      'complete with an empty code',
      '/auth/totp/enrolment/complete',
      { enrolmentToken: 'x', code: ' ' },
      'code',
      'Code is required',
    ],
    [
      'complete with a number',
      '/auth/totp/enrolment/complete',
      { enrolmentToken: 'x', code: 123456 },
      'code',
      /string/i,
    ],
  ])('%s -> 400 naming the field', async (_name, path, body, field, message) => {
    const res = await t.http().post(path).send(body).expect(400);
    const error = errorOf(res.body, 'VALIDATION_FAILED');
    const details = error.details as { field: string; message: string }[];
    expect(details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    const text = details.map((d) => d.message).join(' ');
    if (typeof message === 'string') expect(text).toContain(message);
    else expect(text).toMatch(message);
  });
});
