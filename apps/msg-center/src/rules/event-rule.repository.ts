import { Injectable } from '@nestjs/common';
import type { GridPage } from '@voltdepot/shared-contracts';
import { DataSource } from 'typeorm';
import { Filters, pageOf, PageParams } from '../shared/grid';
import type { EventRuleBody, EventRuleQuery } from './event-rule.dto';

export type EventRuleRow = {
  id: number;
  name: string;
  eventType: string;
  condition: Record<string, unknown>;
  templateId: number | null;
  groupId: number | null;
  channels: number[];
  level: string;
  frequency: string | null;
  enabled: boolean;
  username: string | null;
  createTime: Date;
  updateTime: Date;
};

const SELECT = `id::int AS id, name, event_type AS "eventType", condition, template_id::int AS "templateId",
  group_id::int AS "groupId", channels::int[] AS channels, level, frequency, enabled, username,
  created_at AS "createTime", updated_at AS "updateTime"`;

/** The only file that touches msg_event. */
@Injectable()
export class EventRuleRepository {
  constructor(private readonly db: DataSource) {}

  page(query: EventRuleQuery, page: PageParams): Promise<GridPage<EventRuleRow>> {
    const filters = new Filters()
      .like('name', query.name)
      .eq('event_type', query.eventType)
      .eq('level', query.level);
    return pageOf(this.db, { select: SELECT, from: 'msg_event', filters, orderBy: 'id DESC' }, page);
  }

  async find(id: number): Promise<EventRuleRow | undefined> {
    return (
      (await this.db.query(`SELECT ${SELECT} FROM msg_event WHERE id = $1`, [id])) as EventRuleRow[]
    )[0];
  }

  async enabledFor(eventType: string): Promise<EventRuleRow[]> {
    return (await this.db.query(
      `SELECT ${SELECT} FROM msg_event WHERE enabled AND event_type = $1 ORDER BY id`,
      [eventType],
    )) as EventRuleRow[];
  }

  async insert(body: EventRuleBody, username: string): Promise<number> {
    const rows = (await this.db.query(
      `INSERT INTO msg_event (name, event_type, condition, template_id, group_id, channels, level, frequency, enabled, username)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id::int AS id`,
      this.values(body, username),
    )) as { id: number }[];
    return rows[0].id;
  }

  async update(id: number, body: EventRuleBody, username: string): Promise<void> {
    await this.db.query(
      `UPDATE msg_event SET name = $1, event_type = $2, condition = $3, template_id = $4, group_id = $5, channels = $6,
              level = $7, frequency = $8, enabled = $9, username = $10, updated_at = now()
        WHERE id = $11`,
      [...this.values(body, username), id],
    );
  }

  async delete(id: number): Promise<void> {
    await this.db.query(`DELETE FROM msg_event WHERE id = $1`, [id]);
  }

  private values(b: EventRuleBody, username: string): unknown[] {
    return [
      b.name,
      b.eventType,
      b.condition,
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
