import { Injectable } from '@nestjs/common';
import type { ResourceType } from './resource.dto';
import { DataSource } from 'typeorm';

export type ResourceRow = {
  id: number;
  parentId: number | null;
  type: ResourceType;
  code: string;
  name: string;
  path: string | null;
  icon: string | null;
  sort: number;
  visible: boolean;
};
export type ResourceFields = Omit<ResourceRow, 'id'>;

type Row = Record<string, unknown>;
const toRow = (r: Row): ResourceRow => ({
  id: Number(r['id']),
  parentId: r['parent_id'] === null ? null : Number(r['parent_id']),
  type: r['type'] as ResourceType,
  code: r['code'] as string,
  name: r['name'] as string,
  path: r['path'] as string | null,
  icon: r['icon'] as string | null,
  sort: Number(r['sort']),
  visible: r['visible'] as boolean,
});

@Injectable()
export class ResourceRepository {
  constructor(private readonly db: DataSource) {}

  async all(): Promise<ResourceRow[]> {
    return ((await this.db.query(`SELECT * FROM sys_resource ORDER BY sort, id`)) as Row[]).map(toRow);
  }

  /** Resources granted to a user through their roles. */
  async ofUser(userId: number): Promise<ResourceRow[]> {
    const rows = (await this.db.query(
      `SELECT DISTINCT r.* FROM sys_resource r
         JOIN sys_role_resource rr ON rr.resource_id = r.id
         JOIN sys_user_role ur ON ur.role_id = rr.role_id
        WHERE ur.user_id = $1 ORDER BY r.sort, r.id`,
      [userId],
    )) as Row[];
    return rows.map(toRow);
  }

  async byId(id: number): Promise<ResourceRow | null> {
    const rows = (await this.db.query(`SELECT * FROM sys_resource WHERE id = $1`, [id])) as Row[];
    return rows.length === 0 ? null : toRow(rows[0]);
  }

  /** Ids of the node and all its ancestors (to detect cycles when moving). */
  async ancestorsOf(id: number): Promise<number[]> {
    const rows = (await this.db.query(
      `WITH RECURSIVE up AS (SELECT id, parent_id FROM sys_resource WHERE id = $1
         UNION ALL SELECT r.id, r.parent_id FROM sys_resource r JOIN up ON r.id = up.parent_id)
       SELECT id FROM up`,
      [id],
    )) as { id: string }[];
    return rows.map((r) => Number(r.id));
  }

  async insert(f: ResourceFields): Promise<number> {
    const rows = (await this.db.query(
      `INSERT INTO sys_resource (parent_id, type, code, name, path, icon, sort, visible)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [f.parentId, f.type, f.code, f.name, f.path, f.icon, f.sort, f.visible],
    )) as { id: string }[];
    return Number(rows[0].id);
  }

  async update(id: number, f: ResourceFields): Promise<void> {
    await this.db.query(
      `UPDATE sys_resource SET parent_id = $2, type = $3, code = $4, name = $5, path = $6, icon = $7, sort = $8,
              visible = $9, updated_at = now() WHERE id = $1`,
      [id, f.parentId, f.type, f.code, f.name, f.path, f.icon, f.sort, f.visible],
    );
  }

  async hasChildren(id: number): Promise<boolean> {
    const [{ any }] = (await this.db.query(
      `SELECT EXISTS (SELECT 1 FROM sys_resource WHERE parent_id = $1) AS any`,
      [id],
    )) as { any: boolean }[];
    return any;
  }

  async delete(id: number): Promise<void> {
    await this.db.query(`DELETE FROM sys_resource WHERE id = $1`, [id]);
  }
}
