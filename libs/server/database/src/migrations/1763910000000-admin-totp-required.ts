import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * System parameter `adminTotpRequired` ('0' off, '1' on): when on, administrators (users who can
 * change users, roles, resources or settings) must have TOTP; one without it enrols at sign-in before
 * getting a session. Off by default, so existing sign-ins keep working until an administrator turns it on.
 */
export class AdminTotpRequired1763910000000 implements MigrationInterface {
  name = 'AdminTotpRequired1763910000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `INSERT INTO sys_platform_config (config_key, config_value, category, is_public, builtin, description)
       VALUES ('adminTotpRequired', '0', 'system', false, true,
               '1 makes two-factor authentication (TOTP) mandatory for administrators, 0 leaves it optional')
       ON CONFLICT (config_key) DO NOTHING`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM sys_platform_config WHERE config_key = 'adminTotpRequired'`);
  }
}
