import type { MigrationInterface, QueryRunner } from 'typeorm';

const CRUD = ['query', 'add', 'edit', 'delete'] as const;
const VERBS: Record<string, string> = { query: 'Query', add: 'Add', edit: 'Edit', delete: 'Delete' };

/** Basic-data menus (seeded by the identity migration) and the nouns of their buttons. */
const MENUS: [menu: string, noun: string][] = [
  ['basic:company', 'companies'],
  ['basic:branch', 'branches'],
  ['basic:fleet', 'fleets'],
  ['basic:line', 'lines'],
  ['basic:station', 'stations'],
  ['basic:host', 'charging hosts'],
  ['basic:gun', 'guns'],
  ['basic:transformer', 'box transformers'],
  ['basic:vehicle', 'vehicles'],
  ['basic:cardConfig', 'charging cards'],
  ['basic:manufacturer', 'manufacturers'],
  ['basic:operator', 'operators'],
  ['basic:region', 'regions'],
  ['basic:label', 'labels'],
];

const EXTRA_BUTTONS: [menu: string, code: string, name: string][] = [
  ['basic:host', 'basic:host:enable', 'Enable or disable charging hosts'],
  ['basic:host', 'basic:host:unknown', 'Unknown charging hosts'],
  ['basic:host', 'basic:host:export', 'Export charging hosts'],
  ['basic:vehicle', 'basic:vehicle:export', 'Export vehicles'],
  ['basic:vehicle', 'basic:vehicle:import', 'Import vehicles'],
];

const BUTTONS: [menu: string, code: string, name: string][] = [
  ...MENUS.flatMap(([menu, noun]) =>
    CRUD.map((verb): [string, string, string] => [menu, `${menu}:${verb}`, `${VERBS[verb]} ${noun}`]),
  ),
  ...EXTRA_BUTTONS,
];
const BUTTON_CODES = BUTTONS.map(([, code]) => code);

/** Maintenance staff read all basic data and look after the equipment: stations, hosts, guns, transformers. */
const MAINTAINER_CODES = [
  'basic:branch',
  ...BUTTON_CODES.filter(
    (code) =>
      code.endsWith(':query') ||
      ['basic:station:', 'basic:host:', 'basic:gun:', 'basic:transformer:'].some((p) => code.startsWith(p)),
  ),
];

/**
 * Permission buttons of the charging-assets api under the basic-data menus, plus a branches menu.
 * Administrators and operator staff get all of them; maintenance staff what MAINTAINER_CODES lists.
 */
export class AssetsResources1763850000100 implements MigrationInterface {
  name = 'AssetsResources1763850000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `INSERT INTO sys_resource (parent_id, type, code, name, path, sort)
       SELECT id, 'menu', 'basic:branch', 'Branches', '/basic/branch', 100 FROM sys_resource WHERE code = 'basic'`,
    );
    await q.query(
      `INSERT INTO sys_resource (parent_id, type, code, name, sort)
       SELECT p.id, 'button', b.code, b.name, b.sort
         FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS b(menu, code, name, sort)
         JOIN sys_resource p ON p.code = b.menu`,
      [BUTTONS.map(([menu]) => menu), BUTTON_CODES, BUTTONS.map(([, , name]) => name)],
    );
    await q.query(
      `INSERT INTO sys_role_resource (role_id, resource_id)
       SELECT r.id, s.id FROM sys_role r, sys_resource s
        WHERE r.code IN ('admin', 'operator') AND s.code = ANY($1::text[])
       ON CONFLICT DO NOTHING`,
      [['basic:branch', ...BUTTON_CODES]],
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
    await q.query(`DELETE FROM sys_resource WHERE code = 'basic:branch'`);
  }
}
