import type { MigrationInterface, QueryRunner } from 'typeorm';

const BUTTONS: [parent: string, code: string, name: string, sort: number][] = [
  ['operation:occupationOrder', 'occupation_order:export', 'Export occupation fee orders', 2],
  ['operation:reservation', 'reservation:export', 'Export reservations', 2],
];
const CODES = BUTTONS.map(([, code]) => code);

/** The export buttons of the occupation fee order and reservation lists, for administrators and operator staff. */
export class ListExportButtons1763940000100 implements MigrationInterface {
  name = 'ListExportButtons1763940000100';

  async up(q: QueryRunner): Promise<void> {
    for (const [parent, code, name, sort] of BUTTONS) {
      await q.query(
        `INSERT INTO sys_resource (parent_id, type, code, name, sort)
         SELECT id, 'button', $2, $3, $4 FROM sys_resource WHERE code = $1`,
        [parent, code, name, sort],
      );
    }
    await q.query(
      `INSERT INTO sys_role_resource (role_id, resource_id)
       SELECT r.id, s.id FROM sys_role r, sys_resource s
        WHERE r.code IN ('admin', 'operator') AND s.code = ANY($1::text[])
       ON CONFLICT DO NOTHING`,
      [CODES],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM sys_resource WHERE code = ANY($1::text[]) AND type = 'button'`, [CODES]);
  }
}
