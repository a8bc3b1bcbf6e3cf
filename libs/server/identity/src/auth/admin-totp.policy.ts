import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { IDENTITY_OPTIONS, IdentityOptions } from '../identity.options';

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

/** Who holds the `admin` role or any of ADMIN_PERMISSION_CODES through a role (SQL: `$1` user id, `$2` codes). */
const IS_ADMINISTRATOR = `EXISTS (
  SELECT 1 FROM sys_user_role ur JOIN sys_role r ON r.id = ur.role_id
   WHERE ur.user_id = $1
     AND (r.code = 'admin' OR EXISTS (
           SELECT 1 FROM sys_role_resource rr JOIN sys_resource s ON s.id = rr.resource_id
            WHERE rr.role_id = r.id AND s.code = ANY($2::text[]))))`;

@Injectable()
export class AdminTotpPolicy implements OnApplicationBootstrap {
  private readonly logger = new Logger('AdminTotpPolicy');

  constructor(
    private readonly db: DataSource,
    @Inject(IDENTITY_OPTIONS) private readonly options: Pick<IdentityOptions, 'adminTotpRequiredByDefault'>,
  ) {}

  /**
   * A production deployment without demo data has the second factor mandatory for administrators
   * unless an administrator has set `adminTotpRequired` (updated_by): `requiresTotp` reads it so at
   * every sign-in, and this writes the '1' the settings page then shows. Best effort, idempotent (every
   * replica may run it), never holding up start-up.
   */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.options.adminTotpRequiredByDefault) return;
    for (let attempt = 0; attempt < 20 && !this.db.isInitialized; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    try {
      await this.db.query(
        `UPDATE sys_platform_config SET config_value = '1', updated_at = now()
          WHERE config_key = $1 AND config_value <> '1' AND updated_by IS NULL`,
        [ADMIN_TOTP_REQUIRED_KEY],
      );
    } catch (error) {
      this.logger.warn(`adminTotpRequired not shown as on yet: ${(error as Error).message}`);
    }
  }

  /**
   * True when the setting is on (or, in a deployment where it is on by default, never set) and the user
   * is an administrator. Read fresh: changes apply at once.
   */
  async requiresTotp(userId: number): Promise<boolean> {
    const rows = (await this.db.query(
      `SELECT EXISTS (
                SELECT 1 FROM sys_platform_config c
                 WHERE c.config_key = $3 AND (c.config_value = '1' OR ($4 AND c.updated_by IS NULL))
              ) AND ${IS_ADMINISTRATOR} AS required`,
      [userId, ADMIN_PERMISSION_CODES, ADMIN_TOTP_REQUIRED_KEY, this.options.adminTotpRequiredByDefault],
    )) as { required: boolean }[];
    return rows[0]?.required === true;
  }

  /** Whether the user is an administrator in the sense of the mandatory second factor. */
  async isAdministrator(userId: number): Promise<boolean> {
    const rows = (await this.db.query(`SELECT ${IS_ADMINISTRATOR} AS admin`, [
      userId,
      ADMIN_PERMISSION_CODES,
    ])) as { admin: boolean }[];
    return rows[0]?.admin === true;
  }
}
