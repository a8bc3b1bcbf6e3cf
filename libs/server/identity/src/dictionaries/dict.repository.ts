import { Injectable } from '@nestjs/common';
import type { DictKind } from './dict.dto';
import { DataSource } from 'typeorm';

export type DictRow = {
  id: number;
  parentId: number | null;
  kind: DictKind;
  code: string;
  name: string;
  value: string | null;
  sort: number;
  enabled: boolean;
};
export type DictFields = Omit<DictRow, 'id'>;

type Row = Record<string, unknown>;
const toRow = (r: Row): DictRow => ({
  id: Number(r['id']),
  parentId: r['parent_id'] === null ? null : Number(r['parent_id']),
  kind: r['kind'] as DictKind,
  code: r['code'] as string,
  name: r['name'] as string,
  value: r['value'] as string | null,
  sort: Number(r['sort']),
  enabled: r['enabled'] as boolean,
});

@Injectable()
export class DictRepository {
  constructor(private readonly db: DataSource) {}

  /** Every type with its items, or one type (by code) with its items. */
  async tree(typeCode?: string): Promise<DictRow[]> {
    const rows = (await this.db.query(
      `SELECT d.* FROM sys_dict d
        WHERE $1::text IS NULL
           OR (d.kind = 'type' AND d.code = $1)
           OR d.parent_id IN (SELECT t.id FROM sys_dict t WHERE t.kind = 'type' AND t.code = $1)
        ORDER BY d.sort, d.id`,
      [typeCode ?? null],
    )) as Row[];
    return rows.map(toRow);
  }

  async byId(id: number): Promise<DictRow | null> {
    const rows = (await this.db.query(`SELECT * FROM sys_dict WHERE id = $1`, [id])) as Row[];
    return rows.length === 0 ? null : toRow(rows[0]);
  }

  async insert(f: DictFields): Promise<number> {
    const rows = (await this.db.query(
      `INSERT INTO sys_dict (parent_id, kind, code, name, value, sort, enabled)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [f.parentId, f.kind, f.code, f.name, f.value, f.sort, f.enabled],
    )) as { id: string }[];
    return Number(rows[0].id);
  }

  async update(id: number, f: DictFields): Promise<void> {
    await this.db.query(
      `UPDATE sys_dict SET code = $2, name = $3, value = $4, sort = $5, enabled = $6, updated_at = now() WHERE id = $1`,
      [id, f.code, f.name, f.value, f.sort, f.enabled],
    );
  }

  async hasChildren(id: number): Promise<boolean> {
    const [{ any }] = (await this.db.query(
      `SELECT EXISTS (SELECT 1 FROM sys_dict WHERE parent_id = $1) AS any`,
      [id],
    )) as { any: boolean }[];
    return any;
  }

  async delete(id: number): Promise<void> {
    await this.db.query(`DELETE FROM sys_dict WHERE id = $1`, [id]);
  }
}
