import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The system parameter that makes TOTP mandatory for administrators ('1' on, '0' off). */
export const ADMIN_TOTP_REQUIRED_KEY = 'adminTotpRequired';

/**
 * Who counts as an administrator for the mandatory second factor: holders of the built-in `admin` role
 * and anyone whose permissions change who may do what (users, their roles and passwords, roles and
 * their menus and data, resources, platform settings). Any of these can make themselves or others
 * all-powerful, so they get the same protection as the administrator role.
 */
export const ADMIN_PERMISSION_CODES = [
  'sys:user:add',
  'sys:user:edit',
  'sys:user:enable',
  'sys:user:resetPassword',
  'sys:user:copy',
  'sys:user:role',
  'sys:role:add',
  'sys:role:edit',
  'sys:role:menuAuth',
  'sys:role:dataAuth',
  'sys:resource:add',
  'sys:resource:edit',
  'sys:config:edit',
] as const;

@Injectable()
export class AdminTotpPolicy {
  constructor(private readonly db: DataSource) {}

  /** True when the setting is on and the user is an administrator (read fresh: changes apply at once). */
  async requiresTotp(userId: number): Promise<boolean> {
    const rows = (await this.db.query(
      `SELECT EXISTS (
                SELECT 1 FROM sys_platform_config c WHERE c.config_key = $2 AND c.config_value = '1'
              )
          AND EXISTS (
                SELECT 1 FROM sys_user_role ur JOIN sys_role r ON r.id = ur.role_id
                 WHERE ur.user_id = $1
                   AND (r.code = 'admin' OR EXISTS (
                         SELECT 1 FROM sys_role_resource rr JOIN sys_resource s ON s.id = rr.resource_id
                          WHERE rr.role_id = r.id AND s.code = ANY($3::text[])))
              ) AS required`,
      [userId, ADMIN_TOTP_REQUIRED_KEY, ADMIN_PERMISSION_CODES],
    )) as { required: boolean }[];
    return rows[0]?.required === true;
  }
}
