import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The import buttons of the grids that were export-only until their sheets learnt to import. */
const BUTTONS: [menu: string, code: string, name: string][] = [
  ['basic:station', 'basic:station:import', 'Import stations'],
  ['basic:host', 'basic:host:import', 'Import charging hosts'],
  ['basic:gun', 'basic:gun:import', 'Import guns'],
  ['basic:transformer', 'basic:transformer:import', 'Import box transformers'],
];
const CODES = BUTTONS.map(([, code]) => code);

/**
 * xlsx/xls import of stations, charging hosts, guns and box transformers (`<menu>:import`). Administrators
 * and operator staff get the buttons, and so do maintenance staff, who already add this equipment one
 * by one (1763850000100-assets-resources).
 */
export class EquipmentImportButtons1763974000000 implements MigrationInterface {
  name = 'EquipmentImportButtons1763974000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `INSERT INTO sys_resource (parent_id, type, code, name, sort)
       SELECT p.id, 'button', b.code, b.name, 200 + b.sort
         FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS b(menu, code, name, sort)
         JOIN sys_resource p ON p.code = b.menu`,
      [BUTTONS.map(([menu]) => menu), CODES, BUTTONS.map(([, , name]) => name)],
    );
    await q.query(
      `INSERT INTO sys_role_resource (role_id, resource_id)
       SELECT r.id, s.id FROM sys_role r, sys_resource s
        WHERE r.code IN ('admin', 'operator', 'maintainer') AND s.code = ANY($1::text[])
       ON CONFLICT DO NOTHING`,
      [CODES],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM sys_resource WHERE code = ANY($1::text[]) AND type = 'button'`, [CODES]);
  }
}
