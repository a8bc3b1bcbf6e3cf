import type { MigrationInterface, QueryRunner } from 'typeorm';

const CODE = 'pile:command';

/** The permission to send OCPP commands to a pile (gateway HTTP), granted to administrators and operator staff. */
export class PileCommandResource1763860000000 implements MigrationInterface {
  name = 'PileCommandResource1763860000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `INSERT INTO sys_resource (parent_id, type, code, name, sort)
       SELECT id, 'button', $1, 'Send commands to piles', 100 FROM sys_resource WHERE code = 'operation'`,
      [CODE],
    );
    await q.query(
      `INSERT INTO sys_role_resource (role_id, resource_id)
       SELECT r.id, s.id FROM sys_role r, sys_resource s
        WHERE r.code IN ('admin', 'operator') AND s.code = $1
       ON CONFLICT DO NOTHING`,
      [CODE],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM sys_resource WHERE code = $1`, [CODE]);
  }
}
