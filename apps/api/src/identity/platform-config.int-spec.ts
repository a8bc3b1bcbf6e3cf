import {
  decryptPlatformConfig,
  EncryptedPlatformConfig,
  PlatformConfigEntry,
} from '@voltdepot/shared-contracts';
import {
  ADMIN_PASSWORD,
  ApiTestApp,
  bearer,
  DEMO_PASSWORD,
  errorOf,
  startApiTestApp,
} from '../fixtures/api-test-app';

describe('GET /public/noAuth/getPlatformModuleConfigList', () => {
  let t: ApiTestApp;
  beforeAll(async () => {
    t = await startApiTestApp({ PLATFORM_CONFIG_KEY: 'console-shared-passphrase' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const publicList = async (): Promise<PlatformConfigEntry[]> => {
    const res = await t.http().get('/public/noAuth/getPlatformModuleConfigList').expect(200);
    const payload = res.body as EncryptedPlatformConfig;
    expect(payload.alg).toBe('AES-256-GCM');
    expect(res.text).not.toContain('systemTitle');
    return decryptPlatformConfig(payload, 'console-shared-passphrase');
  };

  it('needs no token and returns the encrypted { configKey, configValue } entries the console needs', async () => {
    const entries = await publicList();
    expect(Object.fromEntries(entries.map((e) => [e.configKey, e.configValue]))).toEqual({
      bigScreen: '1',
      // The zone every time in the console is shown in and every default range is built in.
      businessTimeZone: 'Asia/Shanghai',
      cityCode: 'fz',
      logo: '/logo.svg',
      logoTitleMode: '1',
      // The console's base map: AMap web key and XYZ tiles, both unset (the offline map).
      mapTileUrl: '',
      noticeIcon: '1',
      systemList: '[]',
      systemName: 'menu.system.name',
      systemTitle: 'Voltdepot Charging Operations',
      'thirdParty.amapKey': '',
    });
  });

  it('does not decrypt with another passphrase', async () => {
    const payload = (await t.http().get('/public/noAuth/getPlatformModuleConfigList').expect(200)).body;
    await expect(decryptPlatformConfig(payload, 'wrong')).rejects.toThrow();
  });

  it('administrators edit the settings; the public list follows; others are refused', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    await t
      .http()
      .put('/api/platformConfig/cityCode')
      .set(bearer(admin))
      .send({ configValue: 'hefei' })
      .expect(200);
    await t
      .http()
      .put('/api/platformConfig/systemList')
      .set(bearer(admin))
      .send({ configValue: JSON.stringify([{ name: 'Parking', url: 'https://parking.example' }]) })
      .expect(200);
    const entries = Object.fromEntries((await publicList()).map((e) => [e.configKey, e.configValue]));
    expect(entries['cityCode']).toBe('hefei');
    expect(JSON.parse(entries['systemList'])).toEqual([{ name: 'Parking', url: 'https://parking.example' }]);

    const operator = await t.login('operator', DEMO_PASSWORD);
    errorOf(
      (
        await t
          .http()
          .put('/api/platformConfig/cityCode')
          .set(bearer(operator))
          .send({ configValue: 'fz' })
          .expect(403)
      ).body,
      'FORBIDDEN',
    );
  });

  it('the business time zone an administrator sets reaches the console in the public list', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const setZone = (configValue: string) =>
      t
        .http()
        .put('/api/platformConfig/businessTimeZone')
        .set(bearer(admin))
        .send({ configValue })
        .expect(200);
    await setZone('America/Argentina/Buenos_Aires');
    try {
      const entries = Object.fromEntries((await publicList()).map((e) => [e.configKey, e.configValue]));
      expect(entries['businessTimeZone']).toBe('America/Argentina/Buenos_Aires');
    } finally {
      await setZone('Asia/Shanghai');
    }
  });

  it('third-party and system parameters (but the business time zone) are managed but never public', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    await t
      .http()
      .post('/api/platformConfig')
      .set(bearer(admin))
      .send({ configKey: 'thirdParty.smsSign', configValue: 'Voltdepot', category: 'third_party' })
      .expect(201);
    const page = (
      await t
        .http()
        .get('/api/platformConfig/page/1/size/100')
        .query({ category: 'third_party' })
        .set(bearer(admin))
        .expect(200)
    ).body;
    expect(page.list.map((r: { configKey: string }) => r.configKey)).toContain('thirdParty.smsSign');
    expect((await publicList()).map((e) => e.configKey)).not.toContain('thirdParty.smsSign');
    await t.http().delete('/api/platformConfig/thirdParty.smsSign').set(bearer(admin)).expect(204);
  });

  describe('PUT /api/platformConfig (several settings, one transaction)', () => {
    const putMany = async (body: unknown, status: number) =>
      t
        .http()
        .put('/api/platformConfig')
        .set(bearer(await t.login('admin', ADMIN_PASSWORD)))
        .send(body as object)
        .expect(status);
    const values = async (keys: string[]) => {
      const admin = await t.login('admin', ADMIN_PASSWORD);
      const page = (await t.http().get('/api/platformConfig/page/1/size/100').set(bearer(admin)).expect(200))
        .body as { list: { configKey: string; configValue: string }[] };
      return Object.fromEntries(
        page.list.filter((r) => keys.includes(r.configKey)).map((r) => [r.configKey, r.configValue]),
      );
    };

    it('one invalid value: 422 naming every failing item, and none of the others is saved', async () => {
      const before = await values(['systemTitle', 'cityCode', 'businessTimeZone']);
      const res = await putMany(
        {
          items: [
            { configKey: 'systemTitle', configValue: 'Half saved?' },
            { configKey: 'cityCode', configValue: 'paris' },
            { configKey: 'businessTimeZone', configValue: 'Mars/Olympus' },
          ],
        },
        422,
      );
      expect(res.body).toEqual({
        code: 'CONFIG_VALUE_INVALID',
        message:
          "Setting 'cityCode' must be 'fz', 'hefei' or 'tm166'; Setting 'businessTimeZone' must be an IANA time zone such as 'Asia/Shanghai'",
        details: [
          { field: 'items.1.configValue', message: "Expected 'fz', 'hefei' or 'tm166'" },
          { field: 'items.2.configValue', message: "Expected an IANA time zone such as 'Asia/Shanghai'" },
        ],
        correlationId: expect.any(String),
      });
      expect(await values(['systemTitle', 'cityCode', 'businessTimeZone'])).toEqual(before);
    });

    it.each([
      [
        'an unknown key',
        { items: [{ configKey: 'noSuchKey', configValue: 'x' }] },
        404,
        'CONFIG_NOT_FOUND',
        "Setting 'noSuchKey' does not exist",
      ],
      [
        'no items',
        { items: [] },
        400,
        'VALIDATION_FAILED',
        'Validation failed: items: At least one setting must be given',
      ],
      [
        'a key given twice',
        {
          items: [
            { configKey: 'cityCode', configValue: 'fz' },
            { configKey: 'cityCode', configValue: 'hefei' },
          ],
        },
        400,
        'VALIDATION_FAILED',
        "Validation failed: items.1.configKey: 'cityCode' is given more than once",
      ],
      [
        'a value that is no string',
        { items: [{ configKey: 'noticeIcon', configValue: 1 }] },
        400,
        'VALIDATION_FAILED',
        'Validation failed: items.0.configValue: Expected string, received number',
      ],
      [
        'more than 100 items',
        {
          items: Array.from({ length: 101 }, (_, i) => ({ configKey: `key${i}`, configValue: 'x' })),
        },
        400,
        'VALIDATION_FAILED',
        'Validation failed: items: At most 100 settings at a time',
      ],
      [
        'a value over 4000 characters',
        { items: [{ configKey: 'systemTitle', configValue: 'x'.repeat(4001) }] },
        400,
        'VALIDATION_FAILED',
        'Validation failed: items.0.configValue: String must contain at most 4000 character(s)',
      ],
      ['no body', undefined, 400, 'VALIDATION_FAILED', 'Validation failed: (root): Required'],
      [
        'items that is no list',
        { items: { configKey: 'cityCode', configValue: 'fz' } },
        400,
        'VALIDATION_FAILED',
        'Validation failed: items: Expected array, received object',
      ],
    ])('%s', async (_name, body, status, code, message) => {
      const res = await putMany(body, status);
      expect(errorOf(res.body, code).message).toBe(message);
    });

    it('a body beyond the request size limit is refused with 413, not a 500', async () => {
      const items = Array.from({ length: 100 }, (_, i) => ({
        configKey: `key${i}`,
        configValue: 'x'.repeat(4000),
      }));
      const res = await putMany({ items, padding: 'x'.repeat(2_000_000) }, 413);
      expect(errorOf(res.body, 'PAYLOAD_TOO_LARGE').message).toEqual(expect.any(String));
    });

    it('all values valid: all are saved together and the public list follows', async () => {
      const res = await putMany(
        {
          items: [
            { configKey: 'systemTitle', configValue: 'Batch title' },
            { configKey: 'bigScreen', configValue: '0' },
            { configKey: 'requestTimeoutMs', configValue: '1800000' },
          ],
        },
        200,
      );
      expect(
        (res.body as { configKey: string; updatedBy: string }[]).map((r) => [r.configKey, r.updatedBy]),
      ).toEqual([
        ['bigScreen', 'admin'],
        ['requestTimeoutMs', 'admin'],
        ['systemTitle', 'admin'],
      ]);
      const entries = Object.fromEntries((await publicList()).map((e) => [e.configKey, e.configValue]));
      expect(entries).toMatchObject({ systemTitle: 'Batch title', bigScreen: '0' });
      expect(await values(['requestTimeoutMs'])).toEqual({ requestTimeoutMs: '1800000' });
    });

    it('the seeded system parameters are checked one by one too', async () => {
      const admin = await t.login('admin', ADMIN_PASSWORD);
      const res = await t
        .http()
        .put('/api/platformConfig/requestTimeoutMs')
        .set(bearer(admin))
        .send({ configValue: '500' })
        .expect(422);
      expect(res.body).toMatchObject({
        code: 'CONFIG_VALUE_INVALID',
        message: "Setting 'requestTimeoutMs' must be a whole number of milliseconds from 1000 to 1800000",
      });
      await t
        .http()
        .put('/api/platformConfig/businessTimeZone')
        .set(bearer(admin))
        .send({ configValue: 'Europe/Berlin' })
        .expect(200);
      await t
        .http()
        .put('/api/platformConfig/thirdParty.cameraPrefix')
        .set(bearer(admin))
        .send({ configValue: 'https://camera.example.com/' })
        .expect(422);
    });
  });
});
