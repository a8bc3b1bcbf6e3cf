import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export type OrganizationRow = {
  id: number;
  parentId: number | null;
  code: string;
  name: string;
  sort: number;
  path: string;
};

type Row = Record<string, unknown>;
const toRow = (r: Row): OrganizationRow => ({
  id: Number(r['id']),
  parentId: r['parent_id'] === null ? null : Number(r['parent_id']),
  code: r['code'] as string,
  name: r['name'] as string,
  sort: Number(r['sort']),
  path: r['path'] as string,
});

@Injectable()
export class OrganizationRepository {
  constructor(private readonly db: DataSource) {}

  async inScope(pathPatterns: string[]): Promise<OrganizationRow[]> {
    const rows = (await this.db.query(
      `SELECT * FROM sys_organization WHERE path LIKE ANY($1::text[]) ORDER BY sort, id`,
      [pathPatterns],
    )) as Row[];
    return rows.map(toRow);
  }

  async byId(id: number): Promise<OrganizationRow | null> {
    const rows = (await this.db.query(`SELECT * FROM sys_organization WHERE id = $1`, [id])) as Row[];
    return rows.length === 0 ? null : toRow(rows[0]);
  }

  async insert(org: { parentId: number; code: string; name: string; sort: number }): Promise<number> {
    return this.db.transaction(async (tx) => {
      const rows = (await tx.query(
        `INSERT INTO sys_organization (parent_id, code, name, sort, path) VALUES ($1, $2, $3, $4, '') RETURNING id`,
        [org.parentId, org.code, org.name, org.sort],
      )) as { id: string }[];
      const id = Number(rows[0].id);
      await tx.query(
        `UPDATE sys_organization SET path = (SELECT p.path FROM sys_organization p WHERE p.id = $2) || id || '/' WHERE id = $1`,
        [id, org.parentId],
      );
      return id;
    });
  }

  /** Moving a node rewrites the paths of its whole subtree in one statement. */
  async update(
    org: OrganizationRow,
    changes: { code?: string; name?: string; sort?: number; parentId?: number },
    newParentPath?: string,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(
        `UPDATE sys_organization SET code = COALESCE($2, code), name = COALESCE($3, name), sort = COALESCE($4, sort),
                parent_id = COALESCE($5, parent_id), updated_at = now() WHERE id = $1`,
        [org.id, changes.code ?? null, changes.name ?? null, changes.sort ?? null, changes.parentId ?? null],
      );
      if (newParentPath !== undefined) {
        const newPath = `${newParentPath}${org.id}/`;
        await tx.query(
          `UPDATE sys_organization SET path = $2 || substr(path, length($1) + 1) WHERE path LIKE $1 || '%'`,
          [org.path, newPath],
        );
      }
    });
  }

  async hasChildrenOrUsers(id: number): Promise<boolean> {
    const [{ busy }] = (await this.db.query(
      `SELECT EXISTS (SELECT 1 FROM sys_organization WHERE parent_id = $1)
           OR EXISTS (SELECT 1 FROM sys_user WHERE organization_id = $1) AS busy`,
      [id],
    )) as { busy: boolean }[];
    return busy;
  }

  async delete(id: number): Promise<void> {
    await this.db.query(`DELETE FROM sys_organization WHERE id = $1`, [id]);
  }
}
