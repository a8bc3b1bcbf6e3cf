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
import type { CreateConfigDto, UpdateConfigDto } from './platform-config.dto';
import { ConfigCategory, PlatformConfigRepository, PlatformConfigRow } from './platform-config.repository';

/** Rules for the values of the known platform keys; a failing rule names the expected values. */
const VALUE_RULES: Record<string, { test: (v: string) => boolean; expected: string }> = {
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
};

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
      if (isUniqueViolation(error)) {
        throw new IdentityException(
          IdentityErrorCodes.ConfigKeyTaken,
          `Setting '${dto.configKey}' already exists`,
          [{ field: 'configKey', message: 'Already taken' }],
        );
      }
      throw error;
    }
    return (await this.configs.byKey(dto.configKey))!;
  }

  async update(key: string, dto: UpdateConfigDto, by: string): Promise<PlatformConfigRow> {
    await this.get(key);
    const rule = VALUE_RULES[key];
    if (rule !== undefined && !rule.test(dto.configValue)) {
      throw new IdentityException(
        IdentityErrorCodes.ConfigValueInvalid,
        `Setting '${key}' must be ${rule.expected}`,
        [{ field: 'configValue', message: `Expected ${rule.expected}` }],
      );
    }
    await this.configs.update(key, dto.configValue, dto.description, by);
    return this.get(key);
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
