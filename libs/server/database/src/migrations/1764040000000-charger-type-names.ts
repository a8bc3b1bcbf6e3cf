import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The charger types (business-areas §9: codes 0 to 8 and 255; "nine kinds including direct,
 * communication, wireless, charge-and-discharge") get names instead of "Charger type N". The spec
 * names four kinds; the other names are ours (docs/assets.md). The console shows them translated.
 */
const NAMES: [string, string][] = [
  ['0', 'Direct current (DC)'],
  ['1', 'Alternating current (AC)'],
  ['2', 'AC/DC combined'],
  ['3', 'Wireless'],
  ['4', 'Charge-and-discharge (V2G)'],
  ['5', 'Battery swap'],
  ['6', 'Charging stack (shared power)'],
  ['7', 'Mobile charging'],
  ['8', 'PV, storage and charging'],
  ['255', 'Other'],
];

export class ChargerTypeNames1764040000000 implements MigrationInterface {
  name = 'ChargerTypeNames1764040000000';

  async up(q: QueryRunner): Promise<void> {
    for (const [code, name] of NAMES) await rename(q, code, name);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [code] of NAMES) await rename(q, code, `Charger type ${code}`);
  }
}

/** Renames the item only where it still has a seeded name: an administrator's own name is kept. */
async function rename(q: QueryRunner, code: string, name: string): Promise<void> {
  await q.query(
    `UPDATE sys_dict i SET name = $2, updated_at = now()
       FROM sys_dict t
      WHERE t.kind = 'type' AND t.code = 'charger_type' AND i.parent_id = t.id AND i.code = $1
        AND (i.name LIKE 'Charger type %' OR i.name IN (SELECT n FROM unnest($3::text[]) n))`,
    [code, name, NAMES.map(([, n]) => n).concat('Other')],
  );
}
