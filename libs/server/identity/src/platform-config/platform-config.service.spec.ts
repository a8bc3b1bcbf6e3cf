import { IdentityException } from '../identity.exception';
import type { IdentityOptions } from '../identity.options';
import type { PlatformConfigRow } from './platform-config.dto';
import type { PlatformConfigRepository } from './platform-config.repository';
import { isIanaTimeZone, PlatformConfigService, VALUE_RULES } from './platform-config.service';

const rule = (key: string) => VALUE_RULES[key]!;

describe('VALUE_RULES of the seeded system and third-party parameters', () => {
  it.each([
    ['requestTimeoutMs', '120000', true],
    ['requestTimeoutMs', '1800000', true],
    ['requestTimeoutMs', '1000', true],
    ['requestTimeoutMs', '999', false],
    ['requestTimeoutMs', '1800001', false],
    ['requestTimeoutMs', '0', false],
    ['requestTimeoutMs', '-5000', false],
    ['requestTimeoutMs', '120000.5', false],
    ['requestTimeoutMs', '1e5', false],
    ['requestTimeoutMs', '0120000', false],
    ['requestTimeoutMs', ' 120000', false],
    ['requestTimeoutMs', '', false],
    ['businessTimeZone', 'Asia/Shanghai', true],
    ['businessTimeZone', 'UTC', true],
    ['businessTimeZone', 'America/Argentina/Buenos_Aires', true],
    ['businessTimeZone', 'Etc/GMT-8', true],
    ['businessTimeZone', 'Asia/Nowhere', false],
    ['businessTimeZone', '+08:00', false],
    ['businessTimeZone', 'GMT+8', false],
    ['businessTimeZone', 'asia shanghai', false],
    ['businessTimeZone', '', false],
    ['thirdParty.amapKey', '', true],
    ['thirdParty.amapKey', '0123456789abcdef0123456789ABCDEF', true],
    ['thirdParty.amapKey', 'key with spaces', false],
    ['thirdParty.amapKey', '<script>', false],
    ['thirdParty.amapKey', 'a'.repeat(65), false],
    ['mapTileUrl', '', true],
    ['mapTileUrl', 'https://tile.example.org/{z}/{x}/{y}.png', true],
    ['mapTileUrl', 'http://10.0.0.5/tiles/{z}/{y}/{x}', true],
    ['mapTileUrl', 'https://tile.example.org/{z}/{x}.png', false],
    ['mapTileUrl', 'javascript:alert(1)//{z}/{x}/{y}', false],
    ['mapTileUrl', 'https://tile.example.org/{z}/{x}/{y} .png', false],
    ['mapTileUrl', `https://tile.example.org/${'a'.repeat(500)}/{z}/{x}/{y}`, false],
    ['thirdParty.cameraPrefix', '', true],
    ['thirdParty.cameraPrefix', 'https://camera.example.com', true],
    ['thirdParty.cameraPrefix', 'http://10.0.0.5:8080/video', true],
    ['thirdParty.cameraPrefix', '/video', true],
    ['thirdParty.cameraPrefix', 'https://camera.example.com/', false],
    ['thirdParty.cameraPrefix', 'ftp://camera.example.com', false],
    ['thirdParty.cameraPrefix', 'javascript:alert(1)', false],
    ['thirdParty.cameraPrefix', '//camera.example.com', false],
    ['thirdParty.cameraPrefix', 'camera.example.com', false],
    ['thirdParty.cameraPrefix', 'https://camera.example.com?x=1', false],
  ])('%s = %j is accepted: %s', (key, value, accepted) => {
    expect(rule(key).test(value)).toBe(accepted);
  });

  it('each rule names what it expects', () => {
    expect(rule('requestTimeoutMs').expected).toBe('a whole number of milliseconds from 1000 to 1800000');
    expect(rule('businessTimeZone').expected).toBe("an IANA time zone such as 'Asia/Shanghai'");
    expect(isIanaTimeZone('Asia/Shanghai')).toBe(true);
  });
});

describe('PlatformConfigService.updateMany', () => {
  const row = (configKey: string, configValue: string): PlatformConfigRow => ({
    configKey,
    configValue,
    category: 'platform',
    isPublic: true,
    builtin: true,
    description: null,
    updatedBy: null,
    updatedAt: '2026-01-01T00:00:00.000Z',
  });
  const stored = new Map([
    ['cityCode', 'fz'],
    ['systemTitle', 'Voltdepot'],
    ['businessTimeZone', 'Asia/Shanghai'],
  ]);
  const repo = {
    byKeys: jest.fn(async (keys: string[]) =>
      keys.filter((k) => stored.has(k)).map((k) => row(k, stored.get(k)!)),
    ),
    updateMany: jest.fn(async () => undefined),
  };
  const service = new PlatformConfigService(
    repo as unknown as PlatformConfigRepository,
    {
      platformConfigKey: 'k',
    } as IdentityOptions,
  );

  beforeEach(() => jest.clearAllMocks());

  const failure = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => {
        throw new Error('expected a refusal');
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(IdentityException);
    const e = error as IdentityException;
    return { status: e.httpStatus, body: { code: e.code, message: e.message, details: e.details } };
  };

  it('writes nothing when one value of the batch is invalid, and names every failing item', async () => {
    const { status, body } = await failure(
      service.updateMany(
        {
          items: [
            { configKey: 'systemTitle', configValue: 'New title' },
            { configKey: 'cityCode', configValue: 'paris' },
            { configKey: 'businessTimeZone', configValue: 'Mars/Olympus' },
          ],
        },
        'admin',
      ),
    );
    expect(status).toBe(422);
    expect(body).toMatchObject({
      code: 'CONFIG_VALUE_INVALID',
      message:
        "Setting 'cityCode' must be 'fz', 'hefei' or 'tm166'; Setting 'businessTimeZone' must be an IANA time zone such as 'Asia/Shanghai'",
      details: [
        { field: 'items.1.configValue', message: "Expected 'fz', 'hefei' or 'tm166'" },
        { field: 'items.2.configValue', message: "Expected an IANA time zone such as 'Asia/Shanghai'" },
      ],
    });
    expect(repo.updateMany).not.toHaveBeenCalled();
  });

  it('writes nothing when a key does not exist (404 naming it)', async () => {
    const { status, body } = await failure(
      service.updateMany(
        {
          items: [
            { configKey: 'systemTitle', configValue: 'New title' },
            { configKey: 'noSuchKey', configValue: 'x' },
          ],
        },
        'admin',
      ),
    );
    expect(status).toBe(404);
    expect(body).toMatchObject({
      code: 'CONFIG_NOT_FOUND',
      message: "Setting 'noSuchKey' does not exist",
      details: [{ field: 'items.1.configKey', message: 'Unknown setting' }],
    });
    expect(repo.updateMany).not.toHaveBeenCalled();
  });

  it('writes all items in one call when every value passes', async () => {
    const items = [
      { configKey: 'systemTitle', configValue: 'New title' },
      { configKey: 'cityCode', configValue: 'hefei' },
    ];
    await service.updateMany({ items }, 'admin');
    expect(repo.updateMany).toHaveBeenCalledTimes(1);
    expect(repo.updateMany).toHaveBeenCalledWith(items, 'admin');
  });
});
