import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The answer the gateway gave each pile's last BootNotification. OCPP 1.6 lets a pile that is not
 * Accepted send nothing but BootNotification, and a pile sends BootNotification only when it (re)boots,
 * not when it reconnects: the status must outlive the connection, and a gateway restart.
 * Piles active in the registry before this table existed were Accepted at their last boot, so they
 * start as Accepted (they keep sending without a reboot).
 */
export class OcppPileBoot1763880000000 implements MigrationInterface {
  name = 'OcppPileBoot1763880000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ocpp_pile_boot (
        charge_point_id     text        PRIMARY KEY,
        registration_status text        NOT NULL CHECK (registration_status IN ('Accepted', 'Pending', 'Rejected')),
        vendor              text,
        model               text,
        firmware_version    text,
        serial_number       text,
        booted_at           timestamptz NOT NULL
      )`);
    await q.query(`
      INSERT INTO ocpp_pile_boot (charge_point_id, registration_status, booted_at)
      SELECT charge_point_id, 'Accepted', now() FROM pile_registry WHERE state = 'active'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ocpp_pile_boot`);
  }
}
