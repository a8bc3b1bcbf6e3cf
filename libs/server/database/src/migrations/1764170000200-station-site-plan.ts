import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A station's site plan (issue #24, "Maps without tiles"): one of its pictures, marked, at most one per
 * station, shown by the station monitor beside and over the map. It does not count among the nine
 * pictures a station may have.
 */
export class StationSitePlan1764170000200 implements MigrationInterface {
  name = 'StationSitePlan1764170000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE station_picture ADD COLUMN site_plan boolean NOT NULL DEFAULT false`);
    await q.query(
      `CREATE UNIQUE INDEX station_picture_site_plan_uq ON station_picture (station_id) WHERE site_plan`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM station_picture WHERE site_plan`);
    await q.query(`ALTER TABLE station_picture DROP COLUMN site_plan`);
  }
}
