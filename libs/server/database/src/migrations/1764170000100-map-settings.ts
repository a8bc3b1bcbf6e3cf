import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The console's maps read their base map from the public platform settings (issue #24, "Maps without
 * tiles"): `thirdParty.amapKey` becomes public (an AMap web key is meant for browsers: AMap restricts it
 * by the domains it serves, not by keeping it secret), and `mapTileUrl` (any XYZ tile template) is
 * seeded empty beside it. With neither set the console draws its offline map.
 */
export class MapSettings1764170000100 implements MigrationInterface {
  name = 'MapSettings1764170000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE sys_platform_config SET is_public = true WHERE config_key = 'thirdParty.amapKey'`);
    await q.query(
      `INSERT INTO sys_platform_config (config_key, config_value, category, is_public, builtin, description)
       VALUES ('mapTileUrl', '', 'third_party', true, true, 'Map tiles: an XYZ URL with {z}, {x} and {y}')
       ON CONFLICT (config_key) DO UPDATE SET is_public = true`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM sys_platform_config WHERE config_key = 'mapTileUrl' AND config_value = ''`);
    await q.query(`UPDATE sys_platform_config SET is_public = false WHERE config_key = 'thirdParty.amapKey'`);
  }
}
