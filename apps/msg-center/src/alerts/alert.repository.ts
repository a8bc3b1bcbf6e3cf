import { Injectable } from '@nestjs/common';
import type { GridPage } from '@voltdepot/shared-contracts';
import { DataSource } from 'typeorm';
import { Filters, pageOf, PageParams } from '../shared/grid';
import type { AlertBody, AlertQuery } from './alert.dto';

export type AlertRow = {
  id: number;
  name: string;
  alertGroup: string;
  jobType: string;
  target: string;
  expression: string;
  threshold: number;
  templateId: number | null;
  groupId: number | null;
  channels: number[];
  level: string;
  frequency: string | null;
  status: string;
  enabled: boolean;
  lastValue: number | null;
  lastCheckedAt: Date | null;
  username: string | null;
  createTime: Date;
  updateTime: Date;
};

const SELECT = `id::int AS id, name, alert_group AS "alertGroup", job_type AS "jobType", target, expression, threshold,
  template_id::int AS "templateId", group_id::int AS "groupId", channels::int[] AS channels, level, frequency, status,
  enabled, last_value AS "lastValue", last_checked_at AS "lastCheckedAt", username, created_at AS "createTime",
  updated_at AS "updateTime"`;

/** The only file that touches msg_alert. */
@Injectable()
export class AlertRepository {
  constructor(private readonly db: DataSource) {}

  page(query: AlertQuery, page: PageParams): Promise<GridPage<AlertRow>> {
    const filters = new Filters()
      .like('name', query.name)
      .eq('alert_group', query.alertGroup)
      .eq('job_type', query.jobType)
      .eq('level', query.level);
    return pageOf(this.db, { select: SELECT, from: 'msg_alert', filters, orderBy: 'id DESC' }, page);
  }

  async find(id: number): Promise<AlertRow | undefined> {
    return ((await this.db.query(`SELECT ${SELECT} FROM msg_alert WHERE id = $1`, [id])) as AlertRow[])[0];
  }

  async enabled(jobType?: string): Promise<AlertRow[]> {
    return (await this.db.query(
      `SELECT ${SELECT} FROM msg_alert WHERE enabled AND ($1::text IS NULL OR job_type = $1) ORDER BY id`,
      [jobType ?? null],
    )) as AlertRow[];
  }

  async insert(body: AlertBody, username: string): Promise<number> {
    const rows = (await this.db.query(
      `INSERT INTO msg_alert (name, alert_group, job_type, target, expression, threshold, status, template_id, group_id,
                              channels, level, frequency, enabled, username)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id::int AS id`,
      this.values(body, username),
    )) as { id: number }[];
    return rows[0].id;
  }

  async update(id: number, body: AlertBody, username: string): Promise<void> {
    await this.db.query(
      `UPDATE msg_alert SET name = $1, alert_group = $2, job_type = $3, target = $4, expression = $5, threshold = $6,
              status = $7, template_id = $8, group_id = $9, channels = $10, level = $11, frequency = $12, enabled = $13,
              username = $14, updated_at = now()
        WHERE id = $15`,
      [...this.values(body, username), id],
    );
  }

  async recordCheck(id: number, value: number | null, status: string): Promise<void> {
    await this.db.query(
      `UPDATE msg_alert SET last_value = $2, status = $3, last_checked_at = now() WHERE id = $1`,
      [id, value, status],
    );
  }

  async delete(id: number): Promise<void> {
    await this.db.query(`DELETE FROM msg_alert WHERE id = $1`, [id]);
  }

  private values(b: AlertBody, username: string): unknown[] {
    return [
      b.name,
      b.alertGroup,
      b.jobType,
      b.target,
      b.expression,
      b.threshold,
      b.status,
      b.templateId ?? null,
      b.groupId ?? null,
      b.channels,
      b.level,
      b.frequency ?? null,
      b.enabled,
      username,
    ];
  }
}
