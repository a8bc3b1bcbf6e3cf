import type { MigrationInterface, QueryRunner } from 'typeorm';

const VERBS: [verb: string, name: string][] = [
  ['add', 'Add'],
  ['edit', 'Edit'],
  ['delete', 'Delete'],
];

/** Message-centre menus (seeded by the identity migration) and the nouns of their buttons. */
const MENUS: [menu: string, noun: string][] = [
  ['msg:config', 'message configs'],
  ['msg:template', 'message templates'],
  ['msg:group', 'receiver groups'],
  ['msg:event', 'event rules'],
  ['msg:alerts', 'alerts'],
];

const BUTTONS: [menu: string, code: string, name: string][] = MENUS.flatMap(([menu, noun]) =>
  VERBS.map(([verb, name]): [string, string, string] => [menu, `${menu}:${verb}`, `${name} ${noun}`]),
);
const BUTTON_CODES = BUTTONS.map(([, code]) => code);

/**
 * The add, edit and delete buttons of the message-centre screens. Every role that holds a screen's menu
 * (the administrator and operator staff in the seed) gets its buttons, so nothing they could do before
 * is taken away.
 */
export class MsgResources1763950000000 implements MigrationInterface {
  name = 'MsgResources1763950000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `INSERT INTO sys_resource (parent_id, type, code, name, sort)
       SELECT p.id, 'button', b.code, b.name, b.sort
         FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS b(menu, code, name, sort)
         JOIN sys_resource p ON p.code = b.menu`,
      [BUTTONS.map(([menu]) => menu), BUTTON_CODES, BUTTONS.map(([, , name]) => name)],
    );
    await q.query(
      `INSERT INTO sys_role_resource (role_id, resource_id)
       SELECT rr.role_id, b.id
         FROM sys_resource b
         JOIN sys_resource m ON m.id = b.parent_id
         JOIN sys_role_resource rr ON rr.resource_id = m.id
        WHERE b.code = ANY($1::text[])
       ON CONFLICT DO NOTHING`,
      [BUTTON_CODES],
    );
    // The administrator has every button even where the menu grant was changed after the seed.
    await q.query(
      `INSERT INTO sys_role_resource (role_id, resource_id)
       SELECT r.id, s.id FROM sys_role r, sys_resource s
        WHERE r.code = 'admin' AND s.code = ANY($1::text[])
       ON CONFLICT DO NOTHING`,
      [BUTTON_CODES],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM sys_resource WHERE code = ANY($1::text[])`, [BUTTON_CODES]);
  }
}
