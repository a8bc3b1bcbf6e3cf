import type { MigrationInterface, QueryRunner } from 'typeorm';

const COLUMNS = `id, organization_id, station_id, name, number, charge_point_id, device_status, protocol_version,
  start_mode`;

/**
 * The assets area publishes each host's maximum and rated power (W) with its other readable columns:
 * settlement holds a session whose meter rose faster than its pile can deliver (docs/billing.md).
 * Columns are only added at the end, so every reader of the view is unaffected.
 */
export class PilePowerView1764130000100 implements MigrationInterface {
  name = 'PilePowerView1764130000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE OR REPLACE VIEW assets_pile_v AS SELECT ${COLUMNS}, max_power_w, rated_power_w FROM charging_pile`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP VIEW assets_pile_v`);
    await q.query(`CREATE VIEW assets_pile_v AS SELECT ${COLUMNS} FROM charging_pile`);
  }
}
