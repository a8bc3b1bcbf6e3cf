/**
 * Each table has one owning area, and SQL of one area names no other area's table: it reads what the
 * owner publishes (docs/decisions/0001-table-ownership.md, scripts/table-ownership.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  checkFile,
  duplicateOwners,
  migrationRelations,
  ROOT,
  roleOf,
  sourceFiles,
  TABLE_OWNER,
} from './lib/table-ownership-check';
import {
  KEPT_EXCEPTIONS,
  type KeptException,
  OWNED_TABLES,
  PUBLISHED_FUNCTIONS,
  PUBLISHED_VIEWS,
  type Area,
} from './table-ownership';

const ADR = 'docs/decisions/0001-table-ownership.md';
const sorted = (names: Iterable<string>) => [...names].sort();
/** `msg-center` -> `msg_center_`: the prefix of what the area publishes. */
const prefixOf = (area: Area) => `${area.replace(/-/g, '_')}_`;

describe('table ownership', () => {
  const migrations = migrationRelations();

  it('gives every table the migrations create exactly one owner, and owns no table they do not create', () => {
    expect(duplicateOwners()).toEqual([]);
    expect(sorted(TABLE_OWNER.keys())).toEqual(sorted(migrations.tables));
  });

  it('lists every view the migrations create as published, named after its owner', () => {
    expect(sorted(Object.keys(PUBLISHED_VIEWS))).toEqual(sorted(migrations.views));
    for (const [view, { owner }] of Object.entries(PUBLISHED_VIEWS))
      expect(`${view} ${view.startsWith(prefixOf(owner)) && view.endsWith('_v')}`).toBe(`${view} true`);
    for (const [fn, { owner }] of Object.entries(PUBLISHED_FUNCTIONS))
      expect(`${fn} ${migrations.functions.has(fn) && fn.startsWith(prefixOf(owner))}`).toBe(`${fn} true`);
  });

  describe('over the tree', () => {
    const files = sourceFiles();
    const verdicts = files.map((file) => checkFile(file, readFileSync(join(ROOT, file), 'utf8')));

    it('finds the sources of every area', () => {
      // A broken walk or directory table would let everything pass.
      for (const dir of ['apps/msg-center/src', 'libs/server/billing/src', 'apps/ocpp-gateway/src'])
        expect(files.some((f) => f.startsWith(dir))).toBe(true);
    });

    it('puts every source file in an area, or says why it has none', () => {
      expect(files.filter((f) => roleOf(f) === undefined)).toEqual([]);
    });

    it("names no other area's table in SQL, and writes no other area's view", () => {
      expect(verdicts.flatMap((v) => v.violations)).toEqual([]);
    });

    it('keeps only exceptions still needed', () => {
      const used = new Set(verdicts.flatMap((v) => [...v.excused]));
      const stale = KEPT_EXCEPTIONS.filter((_, i) => !used.has(i)).map((e) => `${e.area} ${e.table}`);
      expect(stale).toEqual([]);
    });
  });

  describe('on planted files', () => {
    const check = (file: string, source: string) => checkFile(file, source);

    it.each([
      [
        "a read of another area's table",
        'libs/server/billing/src/x.repository.ts',
        'export const q = `SELECT p.name FROM assets_pile_v v JOIN charging_pile p ON p.id = v.id`;',
        /^libs\/server\/billing\/src\/x\.repository\.ts:1: billing code reads the table charging_pile of assets \(published to read: .*assets_pile_v/,
      ],
      [
        "a write to another area's table",
        'libs/server/monitoring/src/x.ts',
        "export const q = 'UPDATE charging_card SET status = $1';",
        /monitoring code writes the table charging_card of assets$/,
      ],
      [
        "a write to another area's published view",
        'libs/server/billing/src/x.ts',
        "export const q = 'INSERT INTO assets_pile_v (name) VALUES ($1)';",
        /billing code writes the view assets_pile_v of assets/,
      ],
      [
        'a table handed to a helper',
        'apps/msg-center/src/x.ts',
        "export const table = 'sys_user';",
        /msg-center code writes the table sys_user of identity/,
      ],
      [
        'a table named by code that owns none',
        'apps/api/src/x.ts',
        'export const q = `SELECT 1 FROM station`;',
        /no-tables code reads the table station of assets/,
      ],
      [
        'a file of no area',
        'libs/server/new-area/src/x.repository.ts',
        'export const q = 1;',
        /^libs\/server\/new-area\/src\/x\.repository\.ts: belongs to no area/,
      ],
    ])('refuses %s', (_name, file, source, message) => {
      const { violations } = check(file, source);
      expect(violations).toHaveLength(1);
      expect(violations[0]).toMatch(message);
    });

    it.each([
      [
        "the owner's own tables",
        'libs/server/assets/src/x.ts',
        "export const q = 'DELETE FROM charging_pile';",
      ],
      ['a published view', 'libs/server/billing/src/x.ts', 'export const q = `SELECT * FROM assets_pile_v`;'],
      [
        'a column word',
        'libs/server/billing/src/x.ts',
        "export const q = 'SELECT vehicle FROM charging_order';",
      ],
      ['a test', 'libs/server/billing/src/x.int-spec.ts', "export const q = 'DELETE FROM charging_pile';"],
      ['a migration', 'libs/server/database/src/migrations/1-x.ts', "export const q = 'DROP TABLE station';"],
    ])('allows %s', (_name, file, source) => {
      expect(check(file, source)).toEqual({ violations: [], excused: new Set() });
    });

    it('lets a kept exception through, and records that it was needed', () => {
      const exceptions: KeptException[] = [
        { area: 'billing', table: 'station', access: 'write', reason: 'planted' },
        { area: 'gateway', table: 'alarm_code', access: 'read', reason: 'planted' },
      ];
      const file = 'libs/server/ocpp-gateway/src/x.ts';
      const verdict = checkFile(file, "export const q = 'SELECT * FROM alarm_code';", exceptions);
      expect(verdict).toEqual({ violations: [], excused: new Set([1]) });
      // A read exception does not let writes through.
      expect(
        checkFile(file, "export const q = 'DELETE FROM alarm_code';", exceptions).violations,
      ).toHaveLength(1);
    });
  });

  describe(ADR, () => {
    const adr = readFileSync(join(ROOT, ADR), 'utf8');
    const section = (title: string) => adr.split(/^## /m).find((s) => s.startsWith(title)) ?? '';
    const rows = (text: string) =>
      text
        .split('\n')
        .filter((line) => /^\| [a-z]/.test(line))
        .map((line) => line.split('|').map((cell) => cell.trim()));
    const names = (cell: string) => sorted([...cell.matchAll(/`(\w+)`/g)].map((m) => m[1]));
    /** Views and functions among the names: those carrying an area's prefix. */
    const publishedNames = (cell: string) =>
      names(cell).filter((name) =>
        (Object.keys(OWNED_TABLES) as Area[]).some((a) => name.startsWith(prefixOf(a))),
      );

    it('lists the same owners, tables and published views and functions', () => {
      const owners = rows(section('Owners'));
      expect(sorted(owners.map(([, area]) => area))).toEqual(sorted(Object.keys(OWNED_TABLES)));
      for (const [, area, tables, published] of owners) {
        const publishes = [PUBLISHED_VIEWS, PUBLISHED_FUNCTIONS].flatMap((list) =>
          Object.keys(list).filter((name) => list[name].owner === area),
        );
        expect({ area, tables: names(tables), published: publishedNames(published) }).toEqual({
          area,
          tables: sorted(OWNED_TABLES[area as Area]),
          published: sorted(publishes),
        });
      }
    });

    it('lists the kept exceptions', () => {
      const listed = rows(section('Kept exceptions')).map(
        ([, area, table, access]) => `${area} ${table} ${access}`,
      );
      expect(sorted(listed)).toEqual(
        sorted(KEPT_EXCEPTIONS.map((e) => `${e.area} \`${e.table}\` ${e.access}`)),
      );
    });
  });
});
