import type { MigrationInterface, QueryRunner } from 'typeorm';

const CRUD = ['query', 'add', 'edit', 'delete'] as const;
const VERBS: Record<string, string> = { query: 'Query', add: 'Add', edit: 'Edit', delete: 'Delete' };

/** Basic-data menus (seeded by the identity migration) that get their grid buttons here. */
const NEW_GRIDS: [menu: string, noun: string][] = [
  ['basic:parkingSpace', 'parking spaces'],
  ['basic:camera', 'cameras'],
  ['basic:alarmCode', 'alarm codes'],
  ['basic:stopCode', 'stop-charging codes'],
  ['basic:maintenancePersonnel', 'maintenance personnel'],
  ['basic:peakTime', 'peak charging times'],
];

/** Every grid with an xlsx export (hosts and vehicles got theirs with the first assets resources). */
const EXPORTS: [menu: string, noun: string][] = [
  ['basic:company', 'companies'],
  ['basic:branch', 'branches'],
  ['basic:fleet', 'fleets'],
  ['basic:line', 'lines'],
  ['basic:station', 'stations'],
  ['basic:gun', 'guns'],
  ['basic:transformer', 'box transformers'],
  ['basic:cardConfig', 'charging cards'],
  ['basic:manufacturer', 'manufacturers'],
  ['basic:operator', 'operators'],
  ['basic:region', 'regions'],
  ['basic:label', 'labels'],
  ...NEW_GRIDS,
];

/** Grids with an xlsx/xls import (vehicles got theirs with the first assets resources). */
const IMPORTS: [menu: string, noun: string][] = [
  ['basic:company', 'companies'],
  ['basic:branch', 'branches'],
  ['basic:fleet', 'fleets'],
  ['basic:line', 'lines'],
  ['basic:cardConfig', 'charging cards'],
  ['basic:manufacturer', 'manufacturers'],
  ['basic:operator', 'operators'],
  ['basic:region', 'regions'],
  ['basic:label', 'labels'],
  ...NEW_GRIDS,
];

const BUTTONS: [menu: string, code: string, name: string][] = [
  ...NEW_GRIDS.flatMap(([menu, noun]) =>
    CRUD.map((verb): [string, string, string] => [menu, `${menu}:${verb}`, `${VERBS[verb]} ${noun}`]),
  ),
  ...EXPORTS.map(([menu, noun]): [string, string, string] => [menu, `${menu}:export`, `Export ${noun}`]),
  ...IMPORTS.map(([menu, noun]): [string, string, string] => [menu, `${menu}:import`, `Import ${noun}`]),
  ['basic:stationFee', 'basic:stationFee:query', 'Query station fee settings'],
  ['basic:stationFee', 'basic:stationFee:edit', 'Edit station fee settings'],
  ['basic:host', 'basic:host:delivery', 'Deliver charging host settings'],
  ['basic:cardConfig', 'basic:cardConfig:make', 'Make charging cards'],
  ['basic:cardConfig', 'basic:cardConfig:reportLoss', 'Report charging cards lost'],
  ['basic:cardConfig', 'basic:cardConfig:releaseLoss', 'Release reported losses'],
  ['basic:cardConfig', 'basic:cardConfig:replace', 'Replace lost charging cards'],
  ['basic:cardConfig', 'basic:cardConfig:swap', 'Swap charging cards'],
  ['basic:cardConfig', 'basic:cardConfig:logout', 'Log out charging cards'],
];
const BUTTON_CODES = BUTTONS.map(([, code]) => code);

/**
 * Maintenance staff (docs/assets.md): read and export every grid; look after the equipment at the
 * stations (host delivery; parking spaces and cameras).
 */
const MAINTAINER_CODES = [
  // The vehicle export came with the first assets resources, when maintainers exported hosts only.
  'basic:vehicle:export',
  ...BUTTON_CODES.filter(
    (code) =>
      code.endsWith(':query') ||
      code.endsWith(':export') ||
      code === 'basic:host:delivery' ||
      ['basic:parkingSpace:', 'basic:camera:'].some((p) => code.startsWith(p)),
  ),
];

/**
 * Buttons of the remaining basic-data grids (parking spaces to peak charging time), xlsx export of every
 * grid and import of the flat ones, station fee settings, host delivery and the charging-card actions.
 * Administrators and operator staff get all of them; maintenance staff what MAINTAINER_CODES lists.
 */
export class AssetsBasicDataResources1763930000100 implements MigrationInterface {
  name = 'AssetsBasicDataResources1763930000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `INSERT INTO sys_resource (parent_id, type, code, name, sort)
       SELECT p.id, 'button', b.code, b.name, 100 + b.sort
         FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS b(menu, code, name, sort)
         JOIN sys_resource p ON p.code = b.menu`,
      [BUTTONS.map(([menu]) => menu), BUTTON_CODES, BUTTONS.map(([, , name]) => name)],
    );
    await q.query(
      `INSERT INTO sys_role_resource (role_id, resource_id)
       SELECT r.id, s.id FROM sys_role r, sys_resource s
        WHERE r.code IN ('admin', 'operator') AND s.code = ANY($1::text[])
       ON CONFLICT DO NOTHING`,
      [BUTTON_CODES],
    );
    await q.query(
      `INSERT INTO sys_role_resource (role_id, resource_id)
       SELECT r.id, s.id FROM sys_role r, sys_resource s
        WHERE r.code = 'maintainer' AND s.code = ANY($1::text[])
       ON CONFLICT DO NOTHING`,
      [MAINTAINER_CODES],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM sys_resource WHERE code = ANY($1::text[])`, [BUTTON_CODES]);
  }
}
