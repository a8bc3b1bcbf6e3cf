import type { MigrationInterface, QueryRunner } from 'typeorm';

/** New buttons, each granted to the roles holding the button it extends (`holders`). */
const BUTTONS: [menu: string, code: string, name: string, holders: string][] = [
  ['basic:stationFee', 'basic:stationFee:export', 'Export station fee settings', 'basic:stationFee:query'],
  ['basic:stationFee', 'basic:stationFee:import', 'Import station fee settings', 'basic:stationFee:edit'],
  ['basic:host', 'basic:host:unknown:export', 'Export unknown charging hosts', 'basic:host:unknown'],
];
const CODES = BUTTONS.map(([, code]) => code);

/**
 * xlsx export of the station fee settings and of the unknown-pile list, and the station fee settings'
 * import (it changes existing stations). Whoever reads a list may export it; whoever edits the fee
 * settings may import them.
 */
export class StationFeeUnknownPileSheets1764050000000 implements MigrationInterface {
  name = 'StationFeeUnknownPileSheets1764050000000';

  async up(q: QueryRunner): Promise<void> {
    for (const [index, [menu, code, name, holders]] of BUTTONS.entries()) {
      await q.query(
        `INSERT INTO sys_resource (parent_id, type, code, name, sort)
         SELECT id, 'button', $2, $3, $4 FROM sys_resource WHERE code = $1`,
        [menu, code, name, 300 + index],
      );
      await q.query(
        `INSERT INTO sys_role_resource (role_id, resource_id)
         SELECT rr.role_id, s.id
           FROM sys_role_resource rr
           JOIN sys_resource held ON held.id = rr.resource_id AND held.code = $1
           JOIN sys_resource s ON s.code = $2
         ON CONFLICT DO NOTHING`,
        [holders, code],
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM sys_resource WHERE code = ANY($1::text[]) AND type = 'button'`, [CODES]);
  }
}
