import type { CaptchaResponse, TotpActivation, TotpEnrolment } from '@voltdepot/shared-contracts';
import { authenticator } from 'otplib';
import { ADMIN_PASSWORD, ApiTestApp, bearer, errorOf, startApiTestApp } from '../fixtures/api-test-app';

describe('TOTP second factor', () => {
  let t: ApiTestApp;
  beforeAll(async () => {
    t = await startApiTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const loginWith = async (
    username: string,
    password: string,
    totpCode: string | undefined,
    status: number,
  ) => {
    const c = (await t.http().get('/auth/captcha').expect(200)).body as CaptchaResponse;
    return t
      .http()
      .post('/auth/login')
      .send({ username, password, captchaId: c.captchaId, captchaCode: c.testAnswer, totpCode })
      .expect(status);
  };

  it('enrol -> activate -> sign-in needs a code; codes work once; recovery codes work once; disable', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    await t
      .http()
      .post('/api/user')
      .set(bearer(admin))
      .send({ username: 'two.factor', password: 'Secret123', realName: 'TF', organizationId: 1 })
      .expect(201);
    const user = await t.login('two.factor', 'Secret123');

    errorOf(
      (await t.http().post('/auth/totp/activate').set(bearer(user)).send({ code: '123456' }).expect(422))
        .body,
      'AUTH_TOTP_STATE',
    );
    const enrolment = (await t.http().post('/auth/totp/enroll').set(bearer(user)).expect(200))
      .body as TotpEnrolment;
    expect(enrolment.otpauthUrl).toBe(
      `otpauth://totp/Voltdepot:two.factor?secret=${enrolment.secret}&period=30&digits=6&algorithm=SHA1&issuer=Voltdepot`,
    );
    expect(enrolment.qrCode).toMatch(/^data:image\/png;base64,/);
    errorOf(
      (await t.http().post('/auth/totp/activate').set(bearer(user)).send({ code: '000000' }).expect(422))
        .body,
      'AUTH_TOTP_INVALID',
    );
    const { recoveryCodes } = (
      await t
        .http()
        .post('/auth/totp/activate')
        .set(bearer(user))
        .send({ code: authenticator.generate(enrolment.secret) })
        .expect(200)
    ).body as TotpActivation;
    expect(recoveryCodes).toHaveLength(10);
    expect((await t.http().get('/user/getUserExt').set(bearer(user)).expect(200)).body.totpEnabled).toBe(
      true,
    );

    const missing = await loginWith('two.factor', 'Secret123', undefined, 422);
    expect(errorOf(missing.body, 'AUTH_TOTP_REQUIRED').details).toEqual([
      { field: 'totpCode', message: 'Required for this account' },
    ]);
    errorOf((await loginWith('two.factor', 'Secret123', '000000', 422)).body, 'AUTH_TOTP_INVALID');

    const code = authenticator.generate(enrolment.secret);
    await loginWith('two.factor', 'Secret123', code, 200);
    // The same code a second time is a replay.
    errorOf((await loginWith('two.factor', 'Secret123', code, 422)).body, 'AUTH_TOTP_INVALID');

    await loginWith('two.factor', 'Secret123', recoveryCodes[0], 200);
    errorOf((await loginWith('two.factor', 'Secret123', recoveryCodes[0], 422)).body, 'AUTH_TOTP_INVALID');

    errorOf(
      (
        await t
          .http()
          .post('/auth/totp/disable')
          .set(bearer(user))
          .send({ password: 'wrong-one' })
          .expect(422)
      ).body,
      'AUTH_WRONG_PASSWORD',
    );
    await t.http().post('/auth/totp/disable').set(bearer(user)).send({ password: 'Secret123' }).expect(204);
    await loginWith('two.factor', 'Secret123', undefined, 200);
  });

  it('an administrator can reset a user’s second factor', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const created = (
      await t
        .http()
        .post('/api/user')
        .set(bearer(admin))
        .send({ username: 'lost.phone', password: 'Secret123', realName: 'LP', organizationId: 1 })
        .expect(201)
    ).body as { id: number };
    const user = await t.login('lost.phone', 'Secret123');
    const { secret } = (await t.http().post('/auth/totp/enroll').set(bearer(user)).expect(200))
      .body as TotpEnrolment;
    await t
      .http()
      .post('/auth/totp/activate')
      .set(bearer(user))
      .send({ code: authenticator.generate(secret) })
      .expect(200);
    await loginWith('lost.phone', 'Secret123', undefined, 422);
    await t.http().delete(`/api/user/${created.id}/totp`).set(bearer(admin)).expect(204);
    await loginWith('lost.phone', 'Secret123', undefined, 200);
  });
});
