import { Injectable } from '@nestjs/common';
import type { GridPage, ReceiverOption } from '@voltdepot/shared-contracts';
import { DataSource } from 'typeorm';
import { Filters, pageOf, PageParams } from '../shared/grid';
import type { GroupBody, GroupQuery } from './group.dto';

export type GroupRow = {
  id: number;
  name: string;
  type: string;
  memberIds: number[];
  description: string | null;
  username: string | null;
  createTime: Date;
  updateTime: Date;
};

const SELECT = `id::int AS id, name, type, member_ids::int[] AS "memberIds", description, username,
  created_at AS "createTime", updated_at AS "updateTime"`;

/** The only file that touches msg_group; resolves groups to users through identity's published views. */
@Injectable()
export class GroupRepository {
  constructor(private readonly db: DataSource) {}

  page(query: GroupQuery, page: PageParams): Promise<GridPage<GroupRow>> {
    const filters = new Filters().like('name', query.name).eq('type', query.type);
    return pageOf(this.db, { select: SELECT, from: 'msg_group', filters, orderBy: 'id DESC' }, page);
  }

  async list(query: GroupQuery): Promise<GroupRow[]> {
    const f = new Filters().like('name', query.name).eq('type', query.type);
    return (await this.db.query(
      `SELECT ${SELECT} FROM msg_group ${f.where} ORDER BY id`,
      f.params,
    )) as GroupRow[];
  }

  async find(id: number): Promise<GroupRow | undefined> {
    return ((await this.db.query(`SELECT ${SELECT} FROM msg_group WHERE id = $1`, [id])) as GroupRow[])[0];
  }

  async nameTaken(name: string, exceptId = 0): Promise<boolean> {
    return (
      (
        (await this.db.query(`SELECT 1 FROM msg_group WHERE name = $1 AND id <> $2`, [
          name,
          exceptId,
        ])) as unknown[]
      ).length > 0
    );
  }

  async insert(body: GroupBody, username: string): Promise<number> {
    const rows = (await this.db.query(
      `INSERT INTO msg_group (name, type, member_ids, description, username) VALUES ($1, $2, $3, $4, $5) RETURNING id::int AS id`,
      [body.name, body.type, body.type === 'NONE' ? [] : body.memberIds, body.description ?? null, username],
    )) as { id: number }[];
    return rows[0].id;
  }

  async update(id: number, body: GroupBody, username: string): Promise<void> {
    await this.db.query(
      `UPDATE msg_group SET name = $2, type = $3, member_ids = $4, description = $5, username = $6, updated_at = now() WHERE id = $1`,
      [
        id,
        body.name,
        body.type,
        body.type === 'NONE' ? [] : body.memberIds,
        body.description ?? null,
        username,
      ],
    );
  }

  async usedByRules(id: number): Promise<number> {
    const rows = (await this.db.query(
      `SELECT (SELECT count(*) FROM msg_event WHERE group_id = $1) + (SELECT count(*) FROM msg_alert WHERE group_id = $1) AS n`,
      [id],
    )) as { n: string }[];
    return Number(rows[0].n);
  }

  async delete(id: number): Promise<void> {
    await this.db.query(`DELETE FROM msg_group WHERE id = $1`, [id]);
  }

  /** Ids among `ids` that do not exist (roles or users). */
  async missingMembers(type: 'ROLE' | 'USER', ids: number[]): Promise<number[]> {
    const view = type === 'ROLE' ? 'identity_role_v' : 'identity_user_contact_v';
    const rows = (await this.db.query(
      `SELECT x::int AS id FROM unnest($1::bigint[]) x WHERE NOT EXISTS (SELECT 1 FROM ${view} t WHERE t.id = x)`,
      [ids],
    )) as { id: number }[];
    return rows.map((r) => r.id);
  }

  async roleOptions(): Promise<ReceiverOption[]> {
    return (await this.db.query(
      `SELECT id::int AS id, name FROM identity_role_v ORDER BY id`,
    )) as ReceiverOption[];
  }

  async userOptions(): Promise<ReceiverOption[]> {
    return (await this.db.query(
      `SELECT id::int AS id, real_name || ' (' || username || ')' AS name FROM identity_user_contact_v WHERE enabled ORDER BY id`,
    )) as ReceiverOption[];
  }

  /** Enabled users a group addresses, with their contact addresses. NONE addresses nobody. */
  async recipients(groupId: number): Promise<Recipient[]> {
    return (await this.db.query(
      `SELECT DISTINCT u.id::int AS "userId", u.username, u.real_name AS "realName", u.phone, u.email
         FROM msg_group g
         JOIN identity_user_contact_v u ON u.enabled AND (
              (g.type = 'USER' AND u.id = ANY(g.member_ids))
           OR (g.type = 'ROLE' AND EXISTS (SELECT 1 FROM identity_user_role_v ur WHERE ur.user_id = u.id AND ur.role_id = ANY(g.member_ids))))
        WHERE g.id = $1
        ORDER BY 1`,
      [groupId],
    )) as Recipient[];
  }
}

export type Recipient = {
  userId: number;
  username: string;
  realName: string;
  phone: string | null;
  email: string | null;
};
