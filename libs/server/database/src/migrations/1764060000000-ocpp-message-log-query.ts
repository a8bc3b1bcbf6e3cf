import type { MigrationInterface, QueryRunner } from 'typeorm';

const CODE = 'ocpp:messageLog:query';

/**
 * The OCPP message log query (gateway HTTP, `ocpp:messageLog:query`), granted to administrators,
 * operator staff and maintenance staff (who look after the piles), and the latest firmware and
 * diagnostics progress of each pile (FirmwareStatusNotification, DiagnosticsStatusNotification).
 */
export class OcppMessageLogQuery1764060000000 implements MigrationInterface {
  name = 'OcppMessageLogQuery1764060000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `INSERT INTO sys_resource (parent_id, type, code, name, sort)
       SELECT id, 'button', $1, 'Query OCPP message log', 101 FROM sys_resource WHERE code = 'operation'`,
      [CODE],
    );
    await q.query(
      `INSERT INTO sys_role_resource (role_id, resource_id)
       SELECT r.id, s.id FROM sys_role r, sys_resource s
        WHERE r.code IN ('admin', 'operator', 'maintainer') AND s.code = $1
       ON CONFLICT DO NOTHING`,
      [CODE],
    );
    await q.query(`
      CREATE TABLE ocpp_pile_firmware_status (
        charge_point_id text        NOT NULL,
        kind            text        NOT NULL CHECK (kind IN ('diagnostics', 'firmware')),
        status          text        NOT NULL,
        status_at       timestamptz NOT NULL,
        updated_at      timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (charge_point_id, kind)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ocpp_pile_firmware_status`);
    await q.query(`DELETE FROM sys_resource WHERE code = $1`, [CODE]);
  }
}
