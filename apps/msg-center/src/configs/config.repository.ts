import { Injectable } from '@nestjs/common';
import type { GridPage } from '@voltdepot/shared-contracts';
import { DataSource } from 'typeorm';
import { Filters, pageOf, PageParams } from '../shared/grid';
import type { ConfigBody, ConfigQuery } from './config.dto';

export type ConfigRow = {
  id: number;
  configName: string;
  fullName: string;
  channel: string;
  provider: string | null;
  settings: Record<string, unknown>;
  status: string;
  username: string | null;
  createTime: Date;
  updateTime: Date;
};

const SELECT = `id::int AS id, config_name AS "configName", full_name AS "fullName", channel, provider, settings,
  status, username, created_at AS "createTime", updated_at AS "updateTime"`;

function filtersOf(query: ConfigQuery): Filters {
  return new Filters()
    .like('config_name', query.configName)
    .like('full_name', query.fullName)
    .eq('channel', query.channel);
}

/** The only file that touches msg_config. */
@Injectable()
export class ConfigRepository {
  constructor(private readonly db: DataSource) {}

  page(query: ConfigQuery, page: PageParams): Promise<GridPage<ConfigRow>> {
    return pageOf(
      this.db,
      { select: SELECT, from: 'msg_config', filters: filtersOf(query), orderBy: 'id DESC' },
      page,
    );
  }

  async list(query: ConfigQuery): Promise<ConfigRow[]> {
    const f = filtersOf(query);
    return (await this.db.query(
      `SELECT ${SELECT} FROM msg_config ${f.where} ORDER BY id`,
      f.params,
    )) as ConfigRow[];
  }

  async find(id: number): Promise<ConfigRow | undefined> {
    const rows = (await this.db.query(`SELECT ${SELECT} FROM msg_config WHERE id = $1`, [id])) as ConfigRow[];
    return rows[0];
  }

  async nameTaken(name: string, exceptId?: number): Promise<boolean> {
    const rows = (await this.db.query(`SELECT 1 FROM msg_config WHERE config_name = $1 AND id <> $2`, [
      name,
      exceptId ?? 0,
    ])) as unknown[];
    return rows.length > 0;
  }

  async insert(body: ConfigBody, username: string): Promise<number> {
    const rows = (await this.db.query(
      `INSERT INTO msg_config (config_name, full_name, channel, provider, settings, status, username)
       VALUES ($1, $2, $3, $4, $5, COALESCE($6, 'DEFAULT'), $7) RETURNING id::int AS id`,
      [
        body.configName,
        body.fullName,
        body.channel,
        body.provider ?? null,
        body.settings,
        body.status ?? null,
        username,
      ],
    )) as { id: number }[];
    return rows[0].id;
  }

  async update(id: number, body: ConfigBody, username: string): Promise<void> {
    await this.db.query(
      `UPDATE msg_config SET config_name = $2, full_name = $3, channel = $4, provider = $5, settings = $6,
              status = COALESCE($7, status), username = $8, updated_at = now()
        WHERE id = $1`,
      [
        id,
        body.configName,
        body.fullName,
        body.channel,
        body.provider ?? null,
        body.settings,
        body.status ?? null,
        username,
      ],
    );
  }

  async usedByTemplates(id: number): Promise<number> {
    const rows = (await this.db.query(`SELECT count(*)::int AS n FROM msg_template WHERE config_id = $1`, [
      id,
    ])) as {
      n: number;
    }[];
    return rows[0].n;
  }

  async delete(id: number): Promise<void> {
    await this.db.query(`DELETE FROM msg_config WHERE id = $1`, [id]);
  }
}
