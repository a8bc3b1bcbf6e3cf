import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A pile's energy register counts its whole life in Wh: a depot DC charger passes 2^31 Wh (2.1 GWh)
 * within a few years. The gateway's transaction and quarantine rows keep the register in 64 bits, as
 * billing already does, so such a pile's starts and stops are stored instead of refused.
 */
export class OcppMeterBigint1764000000000 implements MigrationInterface {
  name = 'OcppMeterBigint1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE ocpp_transaction ALTER COLUMN meter_start_wh TYPE bigint, ALTER COLUMN meter_stop_wh TYPE bigint`,
    );
    await q.query(`ALTER TABLE ocpp_stop_quarantine ALTER COLUMN meter_stop_wh TYPE bigint`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ocpp_stop_quarantine ALTER COLUMN meter_stop_wh TYPE integer`);
    await q.query(
      `ALTER TABLE ocpp_transaction ALTER COLUMN meter_start_wh TYPE integer, ALTER COLUMN meter_stop_wh TYPE integer`,
    );
  }
}
