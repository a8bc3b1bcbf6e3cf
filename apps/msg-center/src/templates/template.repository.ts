import { Injectable } from '@nestjs/common';
import type { GridPage } from '@voltdepot/shared-contracts';
import { DataSource } from 'typeorm';
import { Filters, pageOf, PageParams } from '../shared/grid';
import type { TemplateBody, TemplateQuery } from './template.dto';

export type TemplateRow = {
  id: number;
  configId: number;
  templateName: string;
  configName: string;
  fullName: string;
  channel: string;
  content: string | null;
  msgKey: string | null;
  type: string;
  parameters: Record<string, string>;
  username: string | null;
  editable: boolean;
  createTime: Date;
  updateTime: Date;
};

const SELECT = `t.id::int AS id, t.config_id::int AS "configId", t.template_name AS "templateName",
  c.config_name AS "configName", c.full_name AS "fullName", c.channel, t.content, t.msg_key AS "msgKey", t.type,
  t.parameters, t.username, t.editable, t.created_at AS "createTime", t.updated_at AS "updateTime"`;
const FROM = 'msg_template t JOIN msg_config c ON c.id = t.config_id';

/** The only file that touches msg_template. */
@Injectable()
export class TemplateRepository {
  constructor(private readonly db: DataSource) {}

  page(query: TemplateQuery, page: PageParams): Promise<GridPage<TemplateRow>> {
    const filters = new Filters()
      .like('c.config_name', query.configName)
      .like('t.template_name', query.templateName)
      .eq('t.type', query.type)
      .eq('t.config_id', query.configId);
    return pageOf(this.db, { select: SELECT, from: FROM, filters, orderBy: 't.id DESC' }, page);
  }

  async byConfig(configId: number): Promise<TemplateRow[]> {
    return (await this.db.query(`SELECT ${SELECT} FROM ${FROM} WHERE t.config_id = $1 ORDER BY t.id`, [
      configId,
    ])) as TemplateRow[];
  }

  async find(id: number): Promise<TemplateRow | undefined> {
    const rows = (await this.db.query(`SELECT ${SELECT} FROM ${FROM} WHERE t.id = $1`, [
      id,
    ])) as TemplateRow[];
    return rows[0];
  }

  async insert(body: TemplateBody & { content: string | null }, username: string): Promise<number> {
    const rows = (await this.db.query(
      `INSERT INTO msg_template (config_id, template_name, content, msg_key, type, parameters, username, editable)
       VALUES ($1, $2, $3, $4, $5, $6, $7, COALESCE($8, true)) RETURNING id::int AS id`,
      [
        body.configId,
        body.templateName,
        body.content,
        body.msgKey ?? null,
        body.type,
        body.parameters,
        username,
        body.editable ?? null,
      ],
    )) as { id: number }[];
    return rows[0].id;
  }

  async update(id: number, body: TemplateBody & { content: string | null }, username: string): Promise<void> {
    await this.db.query(
      `UPDATE msg_template SET config_id = $2, template_name = $3, content = $4, msg_key = $5, type = $6,
              parameters = $7, username = $8, editable = COALESCE($9, editable), updated_at = now()
        WHERE id = $1`,
      [
        id,
        body.configId,
        body.templateName,
        body.content,
        body.msgKey ?? null,
        body.type,
        body.parameters,
        username,
        body.editable ?? null,
      ],
    );
  }

  async usedByRules(id: number): Promise<number> {
    const rows = (await this.db.query(
      `SELECT (SELECT count(*) FROM msg_event WHERE template_id = $1) + (SELECT count(*) FROM msg_alert WHERE template_id = $1) AS n`,
      [id],
    )) as { n: string }[];
    return Number(rows[0].n);
  }

  async delete(id: number): Promise<void> {
    await this.db.query(`DELETE FROM msg_template WHERE id = $1`, [id]);
  }
}
