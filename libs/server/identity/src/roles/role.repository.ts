import { Injectable } from '@nestjs/common';
import type { GridPage } from '@voltdepot/shared-contracts';
import type { RoleView } from './role.dto';
import { DataSource } from 'typeorm';
import { escapeLike } from '../logs/log.repository';
import { iso } from '../shared/sql';

type Row = Record<string, unknown>;

function toView(r: Row): RoleView {
  return {
    id: Number(r['id']),
    code: r['code'] as string,
    name: r['name'] as string,
    description: r['description'] as string | null,
    builtin: r['builtin'] as boolean,
    createdAt: iso(r['created_at'] as Date)!,
    updatedAt: iso(r['updated_at'] as Date)!,
  };
}

@Injectable()
export class RoleRepository {
  constructor(private readonly db: DataSource) {}

  async page(
    filter: { code?: string; name?: string },
    page: number,
    size: number,
  ): Promise<GridPage<RoleView>> {
    const where = ['true'];
    const params: unknown[] = [];
    if (filter.code !== undefined) {
      params.push(`%${escapeLike(filter.code)}%`);
      where.push(`code ILIKE $${params.length}`);
    }
    if (filter.name !== undefined) {
      params.push(`%${escapeLike(filter.name)}%`);
      where.push(`name ILIKE $${params.length}`);
    }
    const clause = where.join(' AND ');
    const [{ total }] = (await this.db.query(
      `SELECT count(*)::int AS total FROM sys_role WHERE ${clause}`,
      params,
    )) as {
      total: number;
    }[];
    const rows = (await this.db.query(
      `SELECT * FROM sys_role WHERE ${clause} ORDER BY id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, size, (page - 1) * size],
    )) as Row[];
    return { list: rows.map(toView), total };
  }

  async all(): Promise<RoleView[]> {
    return ((await this.db.query(`SELECT * FROM sys_role ORDER BY id`)) as Row[]).map(toView);
  }

  async byId(id: number): Promise<RoleView | null> {
    const rows = (await this.db.query(`SELECT * FROM sys_role WHERE id = $1`, [id])) as Row[];
    return rows.length === 0 ? null : toView(rows[0]);
  }

  async insert(role: { code: string; name: string; description: string | null }): Promise<number> {
    const rows = (await this.db.query(
      `INSERT INTO sys_role (code, name, description) VALUES ($1, $2, $3) RETURNING id`,
      [role.code, role.name, role.description],
    )) as { id: string }[];
    return Number(rows[0].id);
  }

  async update(
    id: number,
    changes: { code?: string; name?: string; description?: string | null },
  ): Promise<void> {
    await this.db.query(
      `UPDATE sys_role SET code = COALESCE($2, code), name = COALESCE($3, name),
              description = CASE WHEN $4::boolean THEN $5 ELSE description END, updated_at = now()
        WHERE id = $1`,
      [
        id,
        changes.code ?? null,
        changes.name ?? null,
        changes.description !== undefined,
        changes.description ?? null,
      ],
    );
  }

  async userCount(id: number): Promise<number> {
    const [{ n }] = (await this.db.query(`SELECT count(*)::int AS n FROM sys_user_role WHERE role_id = $1`, [
      id,
    ])) as {
      n: number;
    }[];
    return n;
  }

  async delete(id: number): Promise<void> {
    await this.db.query(`DELETE FROM sys_role WHERE id = $1`, [id]);
  }

  async resourceIds(id: number): Promise<number[]> {
    const rows = (await this.db.query(
      `SELECT resource_id FROM sys_role_resource WHERE role_id = $1 ORDER BY resource_id`,
      [id],
    )) as { resource_id: string }[];
    return rows.map((r) => Number(r.resource_id));
  }

  async existingResourceIds(ids: number[]): Promise<number[]> {
    const rows = (await this.db.query(`SELECT id FROM sys_resource WHERE id = ANY($1::bigint[])`, [ids])) as {
      id: string;
    }[];
    return rows.map((r) => Number(r.id));
  }

  async setResources(id: number, resourceIds: number[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(`DELETE FROM sys_role_resource WHERE role_id = $1`, [id]);
      await tx.query(`INSERT INTO sys_role_resource (role_id, resource_id) SELECT $1, unnest($2::bigint[])`, [
        id,
        resourceIds,
      ]);
    });
  }

  async organizationIds(id: number): Promise<number[]> {
    const rows = (await this.db.query(
      `SELECT organization_id FROM sys_role_organization WHERE role_id = $1 ORDER BY organization_id`,
      [id],
    )) as { organization_id: string }[];
    return rows.map((r) => Number(r.organization_id));
  }

  async setOrganizations(id: number, organizationIds: number[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(`DELETE FROM sys_role_organization WHERE role_id = $1`, [id]);
      await tx.query(
        `INSERT INTO sys_role_organization (role_id, organization_id) SELECT $1, unnest($2::bigint[])`,
        [id, organizationIds],
      );
    });
  }
}
