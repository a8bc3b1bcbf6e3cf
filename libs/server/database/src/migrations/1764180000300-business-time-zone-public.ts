import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The console shows every time and builds every default range in the business time zone (issue #24,
 * "Time zones"), so it needs `businessTimeZone` at start-up: the setting joins the public list. A zone
 * name is no secret; the setting stays in the 'system' category, where administrators edit it.
 */
export class BusinessTimeZonePublic1764180000300 implements MigrationInterface {
  name = 'BusinessTimeZonePublic1764180000300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `INSERT INTO sys_platform_config (config_key, config_value, category, is_public, builtin, description)
       VALUES ('businessTimeZone', 'Asia/Shanghai', 'system', true, true, 'Business time zone')
       ON CONFLICT (config_key) DO UPDATE SET is_public = true`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE sys_platform_config SET is_public = false WHERE config_key = 'businessTimeZone'`);
  }
}
