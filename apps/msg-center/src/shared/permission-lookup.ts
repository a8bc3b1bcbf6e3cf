import type { PermissionLookup } from '@voltdepot/server-core';
import type { DataSource } from 'typeorm';

/**
 * Permission codes of a user through their roles (same rule as the identity area; msg-center shares its
 * database). `null` for a missing or disabled user, which the guard treats as a revoked session.
 */
export class RolePermissionLookup implements PermissionLookup {
  constructor(private readonly db: DataSource) {}

  async permissionsOf(userId: number): Promise<ReadonlySet<string> | null> {
    const rows = (await this.db.query(
      `SELECT u.enabled,
              COALESCE(array_agg(DISTINCT r.code) FILTER (WHERE r.code IS NOT NULL), '{}') AS codes
         FROM sys_user u
         LEFT JOIN sys_user_role ur ON ur.user_id = u.id
         LEFT JOIN sys_role_resource rr ON rr.role_id = ur.role_id
         LEFT JOIN sys_resource r ON r.id = rr.resource_id
        WHERE u.id = $1
        GROUP BY u.id`,
      [userId],
    )) as { enabled: boolean; codes: string[] }[];
    if (rows.length === 0 || !rows[0].enabled) return null;
    return new Set(rows[0].codes);
  }
}
