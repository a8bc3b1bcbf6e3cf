import type { GridPage, TotpEnrolment } from '@voltdepot/shared-contracts';
import type { UserView } from '@voltdepot/server-identity';
import { authenticator } from 'otplib';
import { ADMIN_PASSWORD, ApiTestApp, bearer, startApiTestApp } from '../fixtures/api-test-app';

type Method = 'get' | 'post' | 'put' | 'delete';
type Expected = { status: number; code: string; message: string; details?: unknown };
type Case = [name: string, method: Method, path: string, body: object | undefined, expected: Expected];

const invalid = (field: string, message: string): Expected => ({
  status: 400,
  code: 'VALIDATION_FAILED',
  message: `Validation failed: ${field}: ${message}`,
  details: [{ field, message }],
});

/** Table-driven failures: for each endpoint the bad inputs and the exact error each must get. */
describe('failure tables: TOTP, login log filters, unknown ids', () => {
  let t: ApiTestApp;
  let adminToken: string;
  let userToken: string;
  let userId: number;

  beforeAll(async () => {
    t = await startApiTestApp();
    adminToken = (await t.login('admin', ADMIN_PASSWORD)).accessToken;
    const created = await t
      .http()
      .post('/api/user')
      .set(bearer(adminToken))
      .send({ username: 'fail.totp', password: 'Secret123', realName: 'F', organizationId: 1 })
      .expect(201);
    userId = (created.body as UserView).id;
    userToken = (await t.login('fail.totp', 'Secret123')).accessToken;
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = async ([, method, path, body, expected]: Case, token: string) => {
    let req = t.http()[method](path).set(bearer(token));
    if (body !== undefined) req = req.send(body);
    const res = await req;
    expect({ status: res.status, body: res.body }).toEqual({
      status: expected.status,
      body: {
        code: expected.code,
        message: expected.message,
        ...(expected.details === undefined ? {} : { details: expected.details }),
        correlationId: expect.any(String),
      },
    });
  };

  const activateRefusals: Case[] = [
    ['no code', 'post', '/auth/totp/activate', {}, invalid('code', 'Code is required')],
    ['a blank code', 'post', '/auth/totp/activate', { code: '   ' }, invalid('code', 'Code is required')],
    [
      'a code that is no string',
      'post',
      '/auth/totp/activate',
      { code: 123456 },
      invalid('code', 'Expected string, received number'),
    ],
    [
      'a code over 32 characters',
      'post',
      '/auth/totp/activate',
      { code: '1'.repeat(33) },
      invalid('code', 'String must contain at most 32 character(s)'),
    ],
    [
      'an unknown field',
      'post',
      '/auth/totp/activate',
      { code: '123456', secret: 'x' },
      invalid('(root)', "Unrecognized key(s) in object: 'secret'"),
    ],
  ];

  describe('before enrolment', () => {
    it.each(activateRefusals)('POST /auth/totp/activate with %s', async (...c) => send(c, userToken));

    it('POST /auth/totp/activate with a code but no enrolment in progress -> 422', async () =>
      send(
        [
          'no enrolment',
          'post',
          '/auth/totp/activate',
          { code: '123456' },
          {
            status: 422,
            code: 'AUTH_TOTP_STATE',
            message: 'No enrolment in progress (or it expired); start again',
          },
        ],
        userToken,
      ));
  });

  describe('enrolment started', () => {
    let enrolment: TotpEnrolment;
    beforeAll(async () => {
      enrolment = (await t.http().post('/auth/totp/enroll').set(bearer(userToken)).expect(200))
        .body as TotpEnrolment;
    });

    const wrongCode: Expected = {
      status: 422,
      code: 'AUTH_TOTP_INVALID',
      message: 'The authentication code is wrong or was already used',
      details: [{ field: 'totpCode', message: 'Wrong or already used code' }],
    };
    it.each<Case>([
      ...activateRefusals,
      ['a wrong code', 'post', '/auth/totp/activate', { code: '000000' }, wrongCode],
      ['a code of letters', 'post', '/auth/totp/activate', { code: 'abcdef' }, wrongCode],
    ])('POST /auth/totp/activate with %s', async (...c) => send(c, userToken));

    it('a refused activation leaves the factor off; the right code then turns it on', async () => {
      const before = (await t.http().get(`/api/user/${userId}`).set(bearer(adminToken)).expect(200))
        .body as UserView;
      expect(before.totpEnabled).toBe(false);
      await t
        .http()
        .post('/auth/totp/activate')
        .set(bearer(userToken))
        .send({ code: authenticator.generate(enrolment.secret) })
        .expect(200);
    });
  });

  describe('factor on', () => {
    it.each<Case>([
      [
        'enrolling again',
        'post',
        '/auth/totp/enroll',
        undefined,
        {
          status: 422,
          code: 'AUTH_TOTP_STATE',
          message: 'Two-factor authentication is already on; disable it first',
        },
      ],
      [
        'disable without a password',
        'post',
        '/auth/totp/disable',
        {},
        invalid('password', 'Password is required'),
      ],
      [
        'disable with an empty password',
        'post',
        '/auth/totp/disable',
        { password: '' },
        invalid('password', 'Password is required'),
      ],
      [
        'disable with a password that is no string',
        'post',
        '/auth/totp/disable',
        { password: 12345678 },
        invalid('password', 'Expected string, received number'),
      ],
      [
        'disable with a wrong password',
        'post',
        '/auth/totp/disable',
        { password: 'Wrong1234' },
        {
          status: 422,
          code: 'AUTH_WRONG_PASSWORD',
          message: 'Current password is wrong',
          details: [{ field: 'password', message: 'Current password is wrong' }],
        },
      ],
    ])('%s', async (...c) => send(c, userToken));

    it('the users grid shows who has the factor (totpEnabled); an administrator’s reset clears it', async () => {
      const page = (
        await t
          .http()
          .get('/api/user/page/1/size/10')
          .query({ username: 'fail.totp' })
          .set(bearer(adminToken))
          .expect(200)
      ).body as GridPage<UserView>;
      expect(page.list.map((u) => [u.username, u.totpEnabled])).toEqual([['fail.totp', true]]);
      await t.http().delete(`/api/user/${userId}/totp`).set(bearer(adminToken)).expect(204);
      const after = (await t.http().get(`/api/user/${userId}`).set(bearer(adminToken)).expect(200))
        .body as UserView;
      expect(after.totpEnabled).toBe(false);
    });
  });

  const LOGIN_LOG = '/api/loginLog/page/1/size/10';
  it.each<Case>([
    [
      'success=maybe',
      'get',
      `${LOGIN_LOG}?success=maybe`,
      undefined,
      invalid('success', "Invalid enum value. Expected 'true' | 'false' | '1' | '0' | '', received 'maybe'"),
    ],
    [
      'success given twice',
      'get',
      `${LOGIN_LOG}?success=true&success=false`,
      undefined,
      invalid('success', "Expected 'true' | 'false' | '1' | '0' | '', received array"),
    ],
    [
      'start=yesterday',
      'get',
      `${LOGIN_LOG}?start=yesterday`,
      undefined,
      invalid('start', 'Expected a date-time (YYYY-MM-DD HH:mm:ss)'),
    ],
    [
      'end=2026-13-45',
      'get',
      `${LOGIN_LOG}?end=2026-13-45`,
      undefined,
      invalid('end', 'Expected a date-time (YYYY-MM-DD HH:mm:ss)'),
    ],
    [
      'end before start',
      'get',
      `${LOGIN_LOG}?start=2026-02-01%2000:00:00&end=2026-01-01%2000:00:00`,
      undefined,
      invalid('end', 'Must not be before start'),
    ],
    [
      'a user name over 64 characters',
      'get',
      `${LOGIN_LOG}?username=${'a'.repeat(65)}`,
      undefined,
      invalid('username', 'String must contain at most 64 character(s)'),
    ],
    [
      'page 0',
      'get',
      '/api/loginLog/page/0/size/10',
      undefined,
      invalid('page', 'Number must be greater than or equal to 1'),
    ],
    [
      'page abc',
      'get',
      '/api/loginLog/page/abc/size/10',
      undefined,
      invalid('page', 'must be a whole number written in decimal digits'),
    ],
    [
      'size 0',
      'get',
      '/api/loginLog/page/1/size/0',
      undefined,
      invalid('size', 'Number must be greater than or equal to 1'),
    ],
    [
      'size 501',
      'get',
      '/api/loginLog/page/1/size/501',
      undefined,
      invalid('size', 'Number must be less than or equal to 500'),
    ],
  ])('GET /api/loginLog/page with %s', async (...c) => send(c, adminToken));

  it('a period in order is served', async () => {
    await t
      .http()
      .get(`${LOGIN_LOG}?start=2026-01-01%2000:00:00&end=2026-01-01%2000:00:00`)
      .set(bearer(adminToken))
      .expect(200);
  });

  const notWholeNumber = invalid('id', 'must be a whole number written in decimal digits');
  const notPositive = invalid('id', 'Number must be greater than or equal to 1');
  it.each<Case>([
    [
      'an unknown user',
      'delete',
      '/api/user/999999/totp',
      undefined,
      { status: 404, code: 'USER_NOT_FOUND', message: 'User 999999 does not exist' },
    ],
    ['a user id abc', 'delete', '/api/user/abc/totp', undefined, notWholeNumber],
    ['a user id 0', 'delete', '/api/user/0/totp', undefined, notPositive],
    [
      'an unknown role (resources)',
      'get',
      '/api/role/999999/resources',
      undefined,
      { status: 404, code: 'ROLE_NOT_FOUND', message: 'Role 999999 does not exist' },
    ],
    ['a role id abc (resources)', 'get', '/api/role/abc/resources', undefined, notWholeNumber],
    ['a role id 0 (resources)', 'get', '/api/role/0/resources', undefined, notPositive],
    [
      'an unknown role (organisations)',
      'get',
      '/api/role/999999/organizations',
      undefined,
      { status: 404, code: 'ROLE_NOT_FOUND', message: 'Role 999999 does not exist' },
    ],
    ['a role id -1 (organisations)', 'get', '/api/role/-1/organizations', undefined, notPositive],
    ['a role id 1.5 (organisations)', 'get', '/api/role/1.5/organizations', undefined, notWholeNumber],
  ])('%s: %s %s', async (...c) => send(c, adminToken));
});
