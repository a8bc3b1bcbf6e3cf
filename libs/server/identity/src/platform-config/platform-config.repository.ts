import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ConfigCategory, PlatformConfigRow } from './platform-config.dto';

type Row = Record<string, unknown>;
const toRow = (r: Row): PlatformConfigRow => ({
  configKey: r['config_key'] as string,
  configValue: r['config_value'] as string,
  category: r['category'] as ConfigCategory,
  isPublic: r['is_public'] as boolean,
  builtin: r['builtin'] as boolean,
  description: r['description'] as string | null,
  updatedBy: r['updated_by'] as string | null,
  updatedAt: (r['updated_at'] as Date).toISOString(),
});

@Injectable()
export class PlatformConfigRepository {
  constructor(private readonly db: DataSource) {}

  async publicEntries(): Promise<{ configKey: string; configValue: string }[]> {
    const rows = (await this.db.query(
      `SELECT config_key, config_value FROM sys_platform_config WHERE is_public ORDER BY config_key`,
    )) as Row[];
    return rows.map((r) => ({
      configKey: r['config_key'] as string,
      configValue: r['config_value'] as string,
    }));
  }

  async page(
    category: ConfigCategory | undefined,
    page: number,
    size: number,
  ): Promise<{ list: PlatformConfigRow[]; total: number }> {
    const [{ total }] = (await this.db.query(
      `SELECT count(*)::int AS total FROM sys_platform_config WHERE $1::text IS NULL OR category = $1`,
      [category ?? null],
    )) as { total: number }[];
    const rows = (await this.db.query(
      `SELECT * FROM sys_platform_config WHERE $1::text IS NULL OR category = $1
        ORDER BY category, config_key LIMIT $2 OFFSET $3`,
      [category ?? null, size, (page - 1) * size],
    )) as Row[];
    return { list: rows.map(toRow), total };
  }

  async byKey(key: string): Promise<PlatformConfigRow | null> {
    const rows = (await this.db.query(`SELECT * FROM sys_platform_config WHERE config_key = $1`, [
      key,
    ])) as Row[];
    return rows.length === 0 ? null : toRow(rows[0]);
  }

  async byKeys(keys: string[]): Promise<PlatformConfigRow[]> {
    const rows = (await this.db.query(
      `SELECT * FROM sys_platform_config WHERE config_key = ANY($1::text[]) ORDER BY config_key`,
      [keys],
    )) as Row[];
    return rows.map(toRow);
  }

  /** All values or none: one statement. */
  async updateMany(items: { configKey: string; configValue: string }[], updatedBy: string): Promise<void> {
    await this.db.query(
      `UPDATE sys_platform_config c SET config_value = i.config_value, updated_by = $3, updated_at = now()
         FROM unnest($1::text[], $2::text[]) AS i(config_key, config_value)
        WHERE c.config_key = i.config_key`,
      [items.map((i) => i.configKey), items.map((i) => i.configValue), updatedBy],
    );
  }

  async insert(row: Omit<PlatformConfigRow, 'builtin' | 'updatedAt'>): Promise<void> {
    await this.db.query(
      `INSERT INTO sys_platform_config (config_key, config_value, category, is_public, description, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [row.configKey, row.configValue, row.category, row.isPublic, row.description, row.updatedBy],
    );
  }

  async update(
    key: string,
    value: string,
    description: string | null | undefined,
    updatedBy: string,
  ): Promise<void> {
    await this.db.query(
      `UPDATE sys_platform_config SET config_value = $2,
              description = CASE WHEN $3::boolean THEN $4 ELSE description END,
              updated_by = $5, updated_at = now() WHERE config_key = $1`,
      [key, value, description !== undefined, description ?? null, updatedBy],
    );
  }

  async delete(key: string): Promise<void> {
    await this.db.query(`DELETE FROM sys_platform_config WHERE config_key = $1`, [key]);
  }
}
