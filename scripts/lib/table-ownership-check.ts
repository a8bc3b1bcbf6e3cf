/**
 * The table-ownership rule over source text: which area a file belongs to, and which of its SQL
 * references name another area's table (docs/decisions/0001-table-ownership.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import {
  KEPT_EXCEPTIONS,
  type KeptException,
  OWNED_TABLES,
  PUBLISHED_VIEWS,
  SOURCE_ROLES,
  TEST_FILE,
  type Area,
  type SourceRole,
} from '../table-ownership';
import { relationRefsInSql, sqlInTypeScript, SUBSTITUTION, type Access } from './sql-table-refs';

export const ROOT = resolve(__dirname, '../..');

/** Owner of every table, from OWNED_TABLES (duplicateOwners() finds a table listed twice). */
export const TABLE_OWNER: ReadonlyMap<string, Area> = new Map(
  (Object.entries(OWNED_TABLES) as [Area, readonly string[]][]).flatMap(([area, tables]) =>
    tables.map((table) => [table, area] as const),
  ),
);

/** Tables OWNED_TABLES lists more than once. */
export function duplicateOwners(): string[] {
  const all = Object.values(OWNED_TABLES).flat();
  return all.filter((table, i) => all.indexOf(table) !== i);
}

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.var', '.nx']);

/** Source files under apps/, libs/, bench/ and scripts/, relative to the root with '/'. */
export function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) walk(path);
      else if (entry.isFile() && SOURCE.test(entry.name)) files.push(path);
    }
  };
  ['apps', 'libs', 'bench', 'scripts'].forEach(walk);
  return files;
}

/** The role of the directory a file lies in (the longest match), or undefined for a file of no area. */
export function roleOf(file: string): SourceRole | undefined {
  const match = SOURCE_ROLES.filter(({ dir }) => file.startsWith(`${dir}/`)).sort(
    (a, b) => b.dir.length - a.dir.length,
  )[0];
  return match?.role;
}

export type Reference = { file: string; line: number; relation: string; access: Access };
export type Verdict = { violations: string[]; excused: Set<number> };

/** The known tables and published views a file names, with the line and what it does with them. */
export function referencesIn(file: string, source: string): Reference[] {
  const known = (name: string) => TABLE_OWNER.has(name) || name in PUBLISHED_VIEWS;
  const { texts, named } = sqlInTypeScript(file, source);
  const refs: Reference[] = texts.flatMap(({ text, line }) =>
    relationRefsInSql(text)
      .filter((ref) => known(ref.name))
      .map((ref) => ({
        file,
        line: line + (text.slice(0, ref.index).match(/\n/g)?.length ?? 0),
        relation: ref.name,
        access: ref.access,
      })),
  );
  // A table handed to a helper (`table: 'x'`) may be read or written by it.
  for (const { name, line } of named)
    if (known(name)) refs.push({ file, line, relation: name, access: 'write' });
  return refs;
}

/**
 * Checks one file: each reference to a table of another area, or a write to another area's view, is a
 * violation unless a kept exception covers it (`excused` holds the indices of the exceptions used).
 */
export function checkFile(
  file: string,
  source: string,
  exceptions: readonly KeptException[] = KEPT_EXCEPTIONS,
): Verdict {
  const verdict: Verdict = { violations: [], excused: new Set() };
  const role = roleOf(file);
  if (role === undefined) {
    verdict.violations.push(`${file}: belongs to no area (add its directory to SOURCE_ROLES)`);
    return verdict;
  }
  if (role === 'not-checked' || TEST_FILE.test(file)) return verdict;
  for (const ref of referencesIn(file, source)) {
    const view = PUBLISHED_VIEWS[ref.relation];
    const owner = view?.owner ?? TABLE_OWNER.get(ref.relation);
    if (owner === role || (view && ref.access === 'read')) continue;
    const exception = exceptions.findIndex(
      (e) => e.area === role && e.table === ref.relation && (e.access === 'write' || ref.access === 'read'),
    );
    if (exception >= 0) {
      verdict.excused.add(exception);
      continue;
    }
    const published = Object.keys(PUBLISHED_VIEWS).filter((v) => PUBLISHED_VIEWS[v].owner === owner);
    const does = ref.access === 'write' ? 'writes' : 'reads';
    const what = view ? 'the view' : 'the table';
    verdict.violations.push(
      `${ref.file}:${ref.line}: ${role} code ${does} ${what} ${ref.relation} of ${owner}` +
        (ref.access === 'read' && published.length ? ` (published to read: ${published.join(', ')})` : ''),
    );
  }
  return verdict;
}

export type MigrationRelations = { tables: Set<string>; views: Set<string>; functions: Set<string> };

/** The SQL of a migration's `up` method (template substitutions blanked out). */
function upSql(file: string, source: string): string[] {
  const sql: string[] = [];
  const visit = (node: ts.Node, inUp: boolean): void => {
    const up = inUp || (ts.isMethodDeclaration(node) && node.name.getText() === 'up');
    if (up && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) sql.push(node.text);
    if (up && ts.isTemplateExpression(node))
      sql.push(node.head.text + node.templateSpans.map((s) => SUBSTITUTION + s.literal.text).join(''));
    ts.forEachChild(node, (child) => visit(child, up));
  };
  visit(ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true), false);
  return sql;
}

/** Tables, views and functions that exist after every migration's `up`, applied in timestamp order. */
export function migrationRelations(): MigrationRelations {
  const dir = 'libs/server/database/src/migrations';
  const result: MigrationRelations = { tables: new Set(), views: new Set(), functions: new Set() };
  const kinds = { table: result.tables, view: result.views, function: result.functions };
  const files = readdirSync(join(ROOT, dir))
    .filter((f) => /^\d+-.*\.ts$/.test(f))
    .sort();
  const statement =
    /\b(create|drop)\s+(?:or\s+replace\s+)?(?:unlogged\s+)?(table|view|function)\s+(?:if\s+(?:not\s+)?exists\s+)?"?(\w+)"?|\balter\s+table\s+(?:if\s+exists\s+)?(\w+)\s+rename\s+to\s+(\w+)/gi;
  for (const file of files)
    for (const sql of upSql(file, readFileSync(join(ROOT, dir, file), 'utf8')))
      for (const m of sql.matchAll(statement)) {
        if (m[4]) {
          result.tables.delete(m[4].toLowerCase());
          result.tables.add(m[5].toLowerCase());
          continue;
        }
        const set = kinds[m[2].toLowerCase() as keyof typeof kinds];
        if (m[1].toLowerCase() === 'create') set.add(m[3].toLowerCase());
        else set.delete(m[3].toLowerCase());
      }
  return result;
}
