import { Inject, Injectable } from '@nestjs/common';
import {
  CITY_CODES,
  EncryptedPlatformConfig,
  GridPage,
  IdentityErrorCodes,
  LOGO_TITLE_MODES,
  PlatformConfigKeys as K,
} from '@voltdepot/shared-contracts';
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { IDENTITY_OPTIONS, IdentityOptions } from '../identity.options';
import { ADMIN_TOTP_REQUIRED_KEY } from '../auth/admin-totp.policy';
import { IdentityException } from '../identity.exception';
import { isUniqueViolation } from '../shared/sql';
import type {
  BatchUpdateConfigDto,
  ConfigCategory,
  CreateConfigDto,
  PlatformConfigRow,
  UpdateConfigDto,
} from './platform-config.dto';
import { PlatformConfigRepository } from './platform-config.repository';

/**
 * Seeded system and third-party parameters (migration 1763820000000-identity). Who reads them:
 * `requestTimeoutMs` the console's request layer (time-out of one API call), `businessTimeZone` the
 * day boundaries of billing and reports and the zone the console shows times in (public since
 * 1764180000300), `thirdParty.amapKey` the console's map (AMap web key),
 * `thirdParty.cameraPrefix` the base of the camera service calls (`{camera prefix}/api/camera/...`),
 * `mapTileUrl` the console's map tiles (an XYZ template; it wins over the AMap key; neither: the
 * console's offline map).
 */
export const SystemParameterKeys = {
  RequestTimeoutMs: 'requestTimeoutMs',
  BusinessTimeZone: 'businessTimeZone',
  AmapKey: 'thirdParty.amapKey',
  MapTileUrl: 'mapTileUrl',
  CameraPrefix: 'thirdParty.cameraPrefix',
} as const;

/** Spec: 120000 ms in most areas, 1,800,000 ms (30 minutes) in one; below a second nothing works. */
export const REQUEST_TIMEOUT_RANGE_MS = { min: 1000, max: 1_800_000 } as const;

/** An IANA zone name (`Asia/Shanghai`, `UTC`), not an offset (`+08:00`) nor an abbreviation Intl also takes. */
export function isIanaTimeZone(value: string): boolean {
  if (!/^(?:[A-Za-z][A-Za-z0-9_+-]*)(?:\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** Empty (not configured), or an http(s) URL or an absolute path, without a trailing slash. */
function isCameraPrefix(value: string): boolean {
  if (value === '') return true;
  if (value.endsWith('/') || /\s/.test(value)) return false;
  if (value.startsWith('/')) return !value.startsWith('//');
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.search === '' && url.hash === '';
  } catch {
    return false;
  }
}

/** An XYZ tile template the browser can load: http(s), {z} {x} {y}, no spaces. */
function isTileTemplate(value: string): boolean {
  if (value.length > 512 || /\s/.test(value) || !['{z}', '{x}', '{y}'].every((p) => value.includes(p)))
    return false;
  try {
    const url = new URL(value.replace(/[{}]/g, ''));
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Rules for the values of the known platform keys; a failing rule names the expected values. */
export const VALUE_RULES: Record<string, { test: (v: string) => boolean; expected: string }> = {
  [K.LogoTitleMode]: {
    test: (v) => (LOGO_TITLE_MODES as readonly string[]).includes(v),
    expected: "'1', '2' or '3'",
  },
  [K.CityCode]: {
    test: (v) => (CITY_CODES as readonly string[]).includes(v),
    expected: "'fz', 'hefei' or 'tm166'",
  },
  [K.NoticeIcon]: { test: (v) => v === '0' || v === '1', expected: "'0' or '1'" },
  [K.BigScreen]: { test: (v) => v === '0' || v === '1', expected: "'0' or '1'" },
  [ADMIN_TOTP_REQUIRED_KEY]: { test: (v) => v === '0' || v === '1', expected: "'0' or '1'" },
  [K.SystemName]: { test: (v) => v.trim().length > 0 && v.length <= 64, expected: '1 to 64 characters' },
  [K.SystemTitle]: { test: (v) => v.trim().length > 0 && v.length <= 64, expected: '1 to 64 characters' },
  [K.SystemList]: {
    test: (v) => {
      try {
        const list = JSON.parse(v) as unknown;
        return (
          Array.isArray(list) &&
          list.every(
            (s) =>
              typeof s === 'object' && s !== null && typeof s.name === 'string' && typeof s.url === 'string',
          )
        );
      } catch {
        return false;
      }
    },
    expected: 'a JSON array of { "name": string, "url": string }',
  },
  [SystemParameterKeys.RequestTimeoutMs]: {
    test: (v) =>
      /^[1-9][0-9]*$/.test(v) &&
      Number(v) >= REQUEST_TIMEOUT_RANGE_MS.min &&
      Number(v) <= REQUEST_TIMEOUT_RANGE_MS.max,
    expected: `a whole number of milliseconds from ${REQUEST_TIMEOUT_RANGE_MS.min} to ${REQUEST_TIMEOUT_RANGE_MS.max}`,
  },
  [SystemParameterKeys.BusinessTimeZone]: {
    test: isIanaTimeZone,
    expected: "an IANA time zone such as 'Asia/Shanghai'",
  },
  [SystemParameterKeys.AmapKey]: {
    test: (v) => /^[A-Za-z0-9]{0,64}$/.test(v),
    expected: 'empty or up to 64 letters and digits',
  },
  [SystemParameterKeys.MapTileUrl]: {
    test: (v) => v === '' || isTileTemplate(v),
    expected: 'empty or an http(s) URL of at most 512 characters with {z}, {x} and {y}',
  },
  [SystemParameterKeys.CameraPrefix]: {
    test: isCameraPrefix,
    expected: "empty, an http(s) URL or a path starting with '/', without a trailing '/'",
  },
};

function keyTaken(key: string): IdentityException {
  return new IdentityException(IdentityErrorCodes.ConfigKeyTaken, `Setting '${key}' already exists`, [
    { field: 'configKey', message: 'Already taken' },
  ]);
}

function valueIssue(key: string, value: string): string | null {
  const rule = VALUE_RULES[key];
  return rule !== undefined && !rule.test(value) ? rule.expected : null;
}

@Injectable()
export class PlatformConfigService {
  private readonly key: Buffer;

  constructor(
    private readonly configs: PlatformConfigRepository,
    @Inject(IDENTITY_OPTIONS) options: IdentityOptions,
  ) {
    this.key = createHash('sha256').update(options.platformConfigKey).digest();
  }

  /** AES-256-GCM over the JSON list; see EncryptedPlatformConfig for why this is obfuscation only. */
  async encryptedPublicList(): Promise<EncryptedPlatformConfig> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const plain = Buffer.from(JSON.stringify(await this.configs.publicEntries()));
    const data = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return { alg: 'AES-256-GCM', iv: iv.toString('base64'), data: data.toString('base64') };
  }

  page(
    category: ConfigCategory | undefined,
    page: number,
    size: number,
  ): Promise<GridPage<PlatformConfigRow>> {
    return this.configs.page(category, page, size);
  }

  async create(dto: CreateConfigDto, by: string): Promise<PlatformConfigRow> {
    // A taken key is the conflict to report; a known key's value rule applies only to a new row.
    if ((await this.configs.byKey(dto.configKey)) !== null) throw keyTaken(dto.configKey);
    this.checkValue(dto.configKey, dto.configValue);
    try {
      await this.configs.insert({
        configKey: dto.configKey,
        configValue: dto.configValue,
        category: dto.category,
        isPublic: false,
        description: dto.description ?? null,
        updatedBy: by,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw keyTaken(dto.configKey);
      throw error;
    }
    return (await this.configs.byKey(dto.configKey))!;
  }

  async update(key: string, dto: UpdateConfigDto, by: string): Promise<PlatformConfigRow> {
    await this.get(key);
    this.checkValue(key, dto.configValue);
    await this.configs.update(key, dto.configValue, dto.description, by);
    return this.get(key);
  }

  /**
   * Saves several settings at once (the platform settings form): every key must exist and every value
   * pass its rule before anything is written, then all are written in one transaction.
   */
  async updateMany(dto: BatchUpdateConfigDto, by: string): Promise<PlatformConfigRow[]> {
    const keys = dto.items.map((item) => item.configKey);
    const existing = new Set((await this.configs.byKeys(keys)).map((row) => row.configKey));
    const unknown = dto.items.flatMap((item, i) => (existing.has(item.configKey) ? [] : [{ item, i }]));
    if (unknown.length > 0) {
      throw new IdentityException(
        IdentityErrorCodes.ConfigNotFound,
        `Setting ${unknown.map(({ item }) => `'${item.configKey}'`).join(', ')} does not exist`,
        unknown.map(({ i }) => ({ field: `items.${i}.configKey`, message: 'Unknown setting' })),
      );
    }
    const invalid = dto.items.flatMap((item, i) => {
      const expected = valueIssue(item.configKey, item.configValue);
      return expected === null ? [] : [{ item, i, expected }];
    });
    if (invalid.length > 0) {
      throw new IdentityException(
        IdentityErrorCodes.ConfigValueInvalid,
        invalid.map(({ item, expected }) => `Setting '${item.configKey}' must be ${expected}`).join('; '),
        invalid.map(({ i, expected }) => ({
          field: `items.${i}.configValue`,
          message: `Expected ${expected}`,
        })),
      );
    }
    await this.configs.updateMany(dto.items, by);
    return this.configs.byKeys(keys);
  }

  private checkValue(key: string, value: string): void {
    const expected = valueIssue(key, value);
    if (expected !== null) {
      throw new IdentityException(
        IdentityErrorCodes.ConfigValueInvalid,
        `Setting '${key}' must be ${expected}`,
        [{ field: 'configValue', message: `Expected ${expected}` }],
      );
    }
  }

  async remove(key: string): Promise<void> {
    const row = await this.get(key);
    if (row.builtin) {
      throw new IdentityException(
        IdentityErrorCodes.ConfigBuiltin,
        `Built-in setting '${key}' cannot be deleted`,
      );
    }
    await this.configs.delete(key);
  }

  private async get(key: string): Promise<PlatformConfigRow> {
    const row = await this.configs.byKey(key);
    if (row === null)
      throw new IdentityException(IdentityErrorCodes.ConfigNotFound, `Setting '${key}' does not exist`);
    return row;
  }
}
