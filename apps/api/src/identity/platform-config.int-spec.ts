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
      cityCode: 'fz',
      logo: '/logo.svg',
      logoTitleMode: '1',
      noticeIcon: '1',
      systemList: '[]',
      systemName: 'menu.system.name',
      systemTitle: 'Voltdepot Charging Operations',
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

  it('third-party and system parameters are managed but never public', async () => {
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
});
