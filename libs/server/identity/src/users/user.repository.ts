import { Injectable } from '@nestjs/common';
import type { GridPage } from '@voltdepot/shared-contracts';
import type { UserView } from './user.dto';
import { DataSource, EntityManager } from 'typeorm';
import { escapeLike } from '../logs/log.repository';
import type { DataScope } from '../shared/data-scope';
import { iso } from '../shared/sql';
import type { UserSheetRow } from './user-sheet';

export type UserRecord = {
  id: number;
  username: string;
  passwordHash: string;
  realName: string;
  phone: string | null;
  email: string | null;
  organizationId: number;
  organizationName: string;
  organizationPath: string;
  enabled: boolean;
  lastLoginAt: string | null;
  totpEnabled: boolean;
  /** Encrypted (see TotpService). */
  totpSecret: string | null;
};

export type UserFilter = { username?: string; realName?: string; organizationId?: number; enabled?: boolean };

export type NewUser = {
  username: string;
  passwordHash: string;
  realName: string;
  phone: string | null;
  email: string | null;
  organizationId: number;
  enabled: boolean;
};

const SELECT_USER = `
  SELECT u.id, u.username, u.password_hash, u.real_name, u.phone, u.email, u.organization_id, u.enabled,
         u.last_login_at, u.totp_enabled, u.totp_secret, u.created_at, u.updated_at, o.name AS organization_name, o.path AS organization_path,
         COALESCE((SELECT array_agg(ur.role_id ORDER BY ur.role_id) FROM sys_user_role ur WHERE ur.user_id = u.id), '{}') AS role_ids
    FROM sys_user u JOIN sys_organization o ON o.id = u.organization_id`;

type Row = Record<string, unknown>;

function toRecord(r: Row): UserRecord {
  return {
    id: Number(r['id']),
    username: r['username'] as string,
    passwordHash: r['password_hash'] as string,
    realName: r['real_name'] as string,
    phone: r['phone'] as string | null,
    email: r['email'] as string | null,
    organizationId: Number(r['organization_id']),
    organizationName: r['organization_name'] as string,
    organizationPath: r['organization_path'] as string,
    enabled: r['enabled'] as boolean,
    lastLoginAt: iso(r['last_login_at'] as Date | null),
    totpEnabled: r['totp_enabled'] as boolean,
    totpSecret: r['totp_secret'] as string | null,
  };
}

function toView(r: Row): UserView {
  return {
    id: Number(r['id']),
    username: r['username'] as string,
    realName: r['real_name'] as string,
    phone: r['phone'] as string | null,
    email: r['email'] as string | null,
    organizationId: Number(r['organization_id']),
    organizationName: r['organization_name'] as string,
    enabled: r['enabled'] as boolean,
    totpEnabled: r['totp_enabled'] as boolean,
    roleIds: (r['role_ids'] as string[]).map(Number),
    createdAt: iso(r['created_at'] as Date)!,
    updatedAt: iso(r['updated_at'] as Date)!,
  };
}

@Injectable()
export class UserRepository {
  constructor(private readonly db: DataSource) {}

  async findByUsername(username: string): Promise<UserRecord | null> {
    const rows = (await this.db.query(`${SELECT_USER} WHERE lower(u.username) = lower($1)`, [
      username,
    ])) as Row[];
    return rows.length === 0 ? null : toRecord(rows[0]);
  }

  async findById(id: number): Promise<UserRecord | null> {
    const rows = (await this.db.query(`${SELECT_USER} WHERE u.id = $1`, [id])) as Row[];
    return rows.length === 0 ? null : toRecord(rows[0]);
  }

  async viewById(id: number, scope: DataScope): Promise<UserView | null> {
    const rows = (await this.db.query(`${SELECT_USER} WHERE u.id = $1 AND o.path LIKE ANY($2::text[])`, [
      id,
      scope.pathPatterns,
    ])) as Row[];
    return rows.length === 0 ? null : toView(rows[0]);
  }

  async page(scope: DataScope, filter: UserFilter, page: number, size: number): Promise<GridPage<UserView>> {
    const { clause, params } = filterClause(scope, filter);
    const [{ total }] = (await this.db.query(
      `SELECT count(*)::int AS total FROM sys_user u JOIN sys_organization o ON o.id = u.organization_id WHERE ${clause}`,
      params,
    )) as { total: number }[];
    const rows = (await this.db.query(
      `${SELECT_USER} WHERE ${clause} ORDER BY u.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, size, (page - 1) * size],
    )) as Row[];
    return { list: rows.map(toView), total };
  }

  async insert(user: NewUser, roleIds: number[]): Promise<number> {
    return this.db.transaction(async (tx) => {
      const rows = (await tx.query(
        `INSERT INTO sys_user (username, password_hash, real_name, phone, email, organization_id, enabled, password_changed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, now()) RETURNING id`,
        [
          user.username,
          user.passwordHash,
          user.realName,
          user.phone,
          user.email,
          user.organizationId,
          user.enabled,
        ],
      )) as { id: string }[];
      const id = Number(rows[0].id);
      await replaceRoles(tx, id, roleIds);
      return id;
    });
  }

  async update(
    id: number,
    changes: {
      realName?: string;
      phone?: string | null;
      email?: string | null;
      organizationId?: number;
      enabled?: boolean;
    },
    roleIds?: number[],
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(
        `UPDATE sys_user SET
           real_name = COALESCE($2, real_name),
           phone = CASE WHEN $3::boolean THEN $4 ELSE phone END,
           email = CASE WHEN $5::boolean THEN $6 ELSE email END,
           organization_id = COALESCE($7, organization_id),
           enabled = COALESCE($8, enabled),
           updated_at = now()
         WHERE id = $1`,
        [
          id,
          changes.realName ?? null,
          changes.phone !== undefined,
          changes.phone ?? null,
          changes.email !== undefined,
          changes.email ?? null,
          changes.organizationId ?? null,
          changes.enabled ?? null,
        ],
      );
      if (roleIds !== undefined) await replaceRoles(tx, id, roleIds);
    });
  }

  /** One batch of the export (keyset by id), with the codes an import reads back. */
  async exportBatch(
    scope: DataScope,
    filter: UserFilter,
    afterId: number,
    limit: number,
  ): Promise<UserSheetRow[]> {
    const { clause, params } = filterClause(scope, filter);
    const rows = (await this.db.query(
      `SELECT u.id, u.username, u.real_name, u.phone, u.email, u.enabled, u.last_login_at, u.created_at,
              o.code AS organization_code, o.name AS organization_name,
              COALESCE((SELECT array_agg(r.code ORDER BY r.code) FROM sys_user_role ur JOIN sys_role r ON r.id = ur.role_id
                         WHERE ur.user_id = u.id), '{}') AS role_codes
         FROM sys_user u JOIN sys_organization o ON o.id = u.organization_id
        WHERE ${clause} AND u.id > $${params.length + 1}
        ORDER BY u.id LIMIT $${params.length + 2}`,
      [...params, afterId, limit],
    )) as Row[];
    return rows.map((r) => ({
      id: Number(r['id']),
      username: r['username'] as string,
      realName: r['real_name'] as string,
      phone: r['phone'] as string | null,
      email: r['email'] as string | null,
      organizationCode: r['organization_code'] as string,
      organizationName: r['organization_name'] as string,
      roleCodes: r['role_codes'] as string[],
      enabled: r['enabled'] as boolean,
      lastLoginAt: r['last_login_at'] as Date | null,
      createdAt: r['created_at'] as Date,
    }));
  }

  /** Organisation ids by code, of the organisations inside the scope. */
  async organizationsInScope(scope: DataScope): Promise<Map<string, number>> {
    const rows = (await this.db.query(
      `SELECT id, code FROM sys_organization WHERE path LIKE ANY($1::text[])`,
      [scope.pathPatterns],
    )) as { id: string; code: string }[];
    return new Map(rows.map((r) => [r.code.toLowerCase(), Number(r.id)]));
  }

  async roleIdsByCode(): Promise<Map<string, number>> {
    const rows = (await this.db.query(`SELECT id, code FROM sys_role`)) as { id: string; code: string }[];
    return new Map(rows.map((r) => [r.code.toLowerCase(), Number(r.id)]));
  }

  /** The given user names (lower case) that already exist. */
  async takenUsernames(usernames: string[]): Promise<Set<string>> {
    const rows = (await this.db.query(
      `SELECT lower(username) AS username FROM sys_user WHERE lower(username) = ANY($1::text[])`,
      [usernames.map((u) => u.toLowerCase())],
    )) as { username: string }[];
    return new Set(rows.map((r) => r.username));
  }

  /** Inserts users with their roles in one transaction: all of them or none. */
  async insertMany(users: { user: NewUser; roleIds: number[] }[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const { user, roleIds } of users) {
        const rows = (await tx.query(
          `INSERT INTO sys_user (username, password_hash, real_name, phone, email, organization_id, enabled, password_changed_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, now()) RETURNING id`,
          [
            user.username,
            user.passwordHash,
            user.realName,
            user.phone,
            user.email,
            user.organizationId,
            user.enabled,
          ],
        )) as { id: string }[];
        await replaceRoles(tx, Number(rows[0].id), roleIds);
      }
    });
  }

  async setPassword(id: number, passwordHash: string): Promise<void> {
    await this.db.query(
      `UPDATE sys_user SET password_hash = $2, password_changed_at = now(), updated_at = now() WHERE id = $1`,
      [id, passwordHash],
    );
  }

  async touchLastLogin(id: number): Promise<void> {
    await this.db.query(`UPDATE sys_user SET last_login_at = now() WHERE id = $1`, [id]);
  }

  async setTotp(id: number, encryptedSecret: string | null, recoveryCodeHashes: string[]): Promise<void> {
    await this.db.query(
      `UPDATE sys_user SET totp_secret = $2::text, totp_enabled = $2::text IS NOT NULL, totp_recovery_codes = $3::text[], updated_at = now()
        WHERE id = $1`,
      [id, encryptedSecret, recoveryCodeHashes],
    );
  }

  /** Removes a recovery code if the user has it; true when it was there (each code works once). */
  async consumeRecoveryCode(id: number, codeHash: string): Promise<boolean> {
    const [, affected] = (await this.db.query(
      `UPDATE sys_user SET totp_recovery_codes = array_remove(totp_recovery_codes, $2)
        WHERE id = $1 AND $2 = ANY (totp_recovery_codes) RETURNING id`,
      [id, codeHash],
    )) as [unknown[], number];
    return affected > 0;
  }

  async delete(id: number): Promise<void> {
    await this.db.query(`DELETE FROM sys_user WHERE id = $1`, [id]);
  }

  async roleIdsOf(id: number): Promise<number[]> {
    const rows = (await this.db.query(
      `SELECT role_id FROM sys_user_role WHERE user_id = $1 ORDER BY role_id`,
      [id],
    )) as { role_id: string }[];
    return rows.map((r) => Number(r.role_id));
  }

  async setRoles(id: number, roleIds: number[]): Promise<void> {
    await this.db.transaction((tx) => replaceRoles(tx, id, roleIds));
  }

  async rolesOf(id: number): Promise<{ id: number; code: string; name: string }[]> {
    const rows = (await this.db.query(
      `SELECT r.id, r.code, r.name FROM sys_role r JOIN sys_user_role ur ON ur.role_id = r.id WHERE ur.user_id = $1 ORDER BY r.id`,
      [id],
    )) as { id: string; code: string; name: string }[];
    return rows.map((r) => ({ id: Number(r.id), code: r.code, name: r.name }));
  }

  async existingRoleIds(ids: number[]): Promise<number[]> {
    const rows = (await this.db.query(`SELECT id FROM sys_role WHERE id = ANY($1::bigint[])`, [ids])) as {
      id: string;
    }[];
    return rows.map((r) => Number(r.id));
  }
}

/** The WHERE clause of the list and the export: the scope and the filters (params $1..$n). */
function filterClause(scope: DataScope, filter: UserFilter): { clause: string; params: unknown[] } {
  const where = ['o.path LIKE ANY($1::text[])'];
  const params: unknown[] = [scope.pathPatterns];
  if (filter.username !== undefined) {
    params.push(`%${escapeLike(filter.username)}%`);
    where.push(`u.username ILIKE $${params.length}`);
  }
  if (filter.realName !== undefined) {
    params.push(`%${escapeLike(filter.realName)}%`);
    where.push(`u.real_name ILIKE $${params.length}`);
  }
  if (filter.enabled !== undefined) {
    params.push(filter.enabled);
    where.push(`u.enabled = $${params.length}`);
  }
  if (filter.organizationId !== undefined) {
    params.push(filter.organizationId);
    where.push(`o.path LIKE (SELECT f.path || '%' FROM sys_organization f WHERE f.id = $${params.length})`);
  }
  return { clause: where.join(' AND '), params };
}

async function replaceRoles(tx: EntityManager, userId: number, roleIds: number[]): Promise<void> {
  await tx.query(`DELETE FROM sys_user_role WHERE user_id = $1`, [userId]);
  if (roleIds.length > 0) {
    await tx.query(
      `INSERT INTO sys_user_role (user_id, role_id) SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING`,
      [userId, roleIds],
    );
  }
}
