import { unique } from './asset-bodies';
import type { Sql } from './asset-rows';

/**
 * Users and roles written straight into the identity tables, for tests that need a caller the seed
 * does not have (a role with exactly some permissions, a user of some roles).
 */

/** Gives role `roleCode` the permissions (resource codes) it lacks; a permission it has stays. */
export async function grantPermissions(db: Sql, roleCode: string, permissionCodes: string[]): Promise<void> {
  await db.query(
    `INSERT INTO sys_role_resource (role_id, resource_id)
     SELECT r.id, s.id FROM sys_role r, sys_resource s WHERE r.code = $1 AND s.code = ANY($2::text[])
     ON CONFLICT DO NOTHING`,
    [roleCode, permissionCodes],
  );
}

/** A new role holding exactly these permissions; returns its id. */
export async function insertRole(db: Sql, code: string, permissionCodes: string[] = []): Promise<number> {
  const rows = (await db.query(`INSERT INTO sys_role (code, name) VALUES ($1, $1) RETURNING id`, [code])) as {
    id: string;
  }[];
  await grantPermissions(db, code, permissionCodes);
  return Number(rows[0].id);
}

/**
 * A user of the root organisation (or `organization`) holding `roles` (codes), with an unusable
 * password: for services that trust a session token rather than signing in.
 */
export async function insertUser(
  db: Sql,
  roles: string[],
  o: { username?: string; organization?: string } = {},
): Promise<{ id: number; username: string }> {
  const username = o.username ?? unique('u');
  const rows = (await db.query(
    `INSERT INTO sys_user (username, password_hash, real_name, organization_id)
     SELECT $1, 'x', $1, id FROM sys_organization WHERE code = $2 RETURNING id`,
    [username, o.organization ?? 'ROOT'],
  )) as { id: string }[];
  const id = Number(rows[0].id);
  if (roles.length > 0) {
    await db.query(
      `INSERT INTO sys_user_role (user_id, role_id) SELECT $1, id FROM sys_role WHERE code = ANY($2::text[])`,
      [id, roles],
    );
  }
  return { id, username };
}
