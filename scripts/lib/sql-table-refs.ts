/**
 * Finds the relations that SQL names where it expects a relation (after FROM, JOIN, INTO, UPDATE,
 * DELETE FROM, TRUNCATE, USING), in SQL text and in the strings of a TypeScript file. A word in any other
 * place is not a relation name, whatever it spells: `SELECT vehicle FROM x` and `v.vehicle` name a column.
 */
import ts from 'typescript';

/** How a statement uses the relation: reading it, or changing its rows. */
export type Access = 'read' | 'write';

export type RelationRef = {
  /** As written, without schema (`public.station` -> `station`); lower case unless quoted. */
  name: string;
  access: Access;
  /** Offset of the name in the SQL text. */
  index: number;
};

type Token = { kind: 'word' | 'ident' | 'param' | 'expr' | 'punct'; text: string; index: number };

/** Stands for a `${...}` substitution of a template literal: an opaque piece of SQL. */
export const SUBSTITUTION = '\u0000';

/** Words that end a relation item: what follows a relation when it has no alias. */
const NOT_AN_ALIAS = new Set(
  `all and any as asc by conflict cross default desc do else end except fetch for from full group having in
   inner intersect into is join lateral left limit natural not offset on or order outer overriding
   returning right select set tablesample then union using values when where window with`.split(/\s+/),
);

/** Functions whose argument syntax contains FROM without naming a relation (`extract(epoch FROM t)`). */
const FROM_IN_ARGUMENTS = new Set(['extract', 'substring', 'trim', 'overlay']);

function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if (c === "'") {
      // A string constant; E'...' also takes backslash escapes.
      const escapes = /[eE]/.test(sql[i - 1] ?? '') && !/\w/.test(sql[i - 2] ?? '');
      i++;
      while (i < sql.length) {
        if (escapes && sql[i] === '\\') i += 2;
        else if (sql[i] === "'" && sql[i + 1] === "'") i += 2;
        else if (sql[i] === "'") break;
        else i++;
      }
      i++;
    } else if (c === '"') {
      const end = sql.indexOf('"', i + 1);
      const stop = end < 0 ? sql.length : end;
      tokens.push({ kind: 'ident', text: sql.slice(i + 1, stop), index: i + 1 });
      i = stop + 1;
    } else if (c === '$') {
      const param = /^\$\d+/.exec(sql.slice(i));
      const tag = /^\$(?:[A-Za-z_]\w*)?\$/.exec(sql.slice(i));
      if (param) {
        tokens.push({ kind: 'param', text: param[0], index: i });
        i += param[0].length;
      } else if (tag) {
        // A dollar-quoted body (a function's source) is a string constant here.
        const end = sql.indexOf(tag[0], i + tag[0].length);
        i = end < 0 ? sql.length : end + tag[0].length;
      } else {
        tokens.push({ kind: 'punct', text: c, index: i++ });
      }
    } else if (/[A-Za-z_]/.test(c)) {
      const word = /^[A-Za-z_][\w$]*/.exec(sql.slice(i))![0];
      tokens.push({ kind: 'word', text: word.toLowerCase(), index: i });
      i += word.length;
    } else if (c === SUBSTITUTION) {
      tokens.push({ kind: 'expr', text: c, index: i++ });
    } else {
      tokens.push({ kind: 'punct', text: c, index: i++ });
    }
  }
  return tokens;
}

const isName = (t: Token | undefined) => t?.kind === 'word' || t?.kind === 'ident';
const is = (t: Token | undefined, text: string) => t !== undefined && t.kind !== 'ident' && t.text === text;

/** The index after the parenthesis that closes the one at `open`. */
function skipParens(tokens: Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    if (is(tokens[i], '(')) depth++;
    else if (is(tokens[i], ')') && --depth === 0) return i + 1;
  }
  return tokens.length;
}

/** Names of the common table expressions the text defines (`WITH x AS (`, `, y AS MATERIALIZED (`). */
function cteNames(tokens: Token[]): Set<string> {
  const names = new Set<string>();
  tokens.forEach((t, i) => {
    if (
      !isName(t) ||
      !(is(tokens[i - 1], 'with') || is(tokens[i - 1], 'recursive') || is(tokens[i - 1], ','))
    )
      return;
    let j = i + 1;
    if (is(tokens[j], '(')) j = skipParens(tokens, j);
    if (!is(tokens[j], 'as')) return;
    j++;
    if (is(tokens[j], 'not')) j++;
    if (is(tokens[j], 'materialized')) j++;
    if (is(tokens[j], '(')) names.add(t.text);
  });
  return names;
}

/**
 * The relations `sql` names where a relation is expected. A `${...}` substitution (SUBSTITUTION) is an
 * opaque item; CTE names defined in the same text are not relations of the database.
 */
export function relationRefsInSql(sql: string): RelationRef[] {
  const tokens = tokenize(sql);
  const refs: RelationRef[] = [];
  const ctes = cteNames(tokens);

  /** One relation item at `i`; returns the index after it and its alias. */
  const item = (i: number, access: Access, columnList: boolean): number => {
    while (is(tokens[i], 'only') || is(tokens[i], 'lateral')) i++;
    const t = tokens[i];
    if (is(t, '(')) i = skipParens(tokens, i);
    else if (t?.kind === 'expr' || t?.kind === 'param') i++;
    else if (isName(t) && !(t.kind === 'word' && NOT_AN_ALIAS.has(t.text))) {
      let name = t;
      i++;
      while (is(tokens[i], '.') && isName(tokens[i + 1])) {
        name = tokens[i + 1];
        i += 2;
      }
      // name(...) after FROM or JOIN calls a set-returning function; after INTO it lists columns.
      if (is(tokens[i], '(') && !columnList) i = skipParens(tokens, i);
      else if (!ctes.has(name.text)) refs.push({ name: name.text, access, index: name.index });
    } else return i;
    // An alias, with or without AS, and its column names.
    if (is(tokens[i], 'as')) i++;
    if (isName(tokens[i]) && !(tokens[i].kind === 'word' && NOT_AN_ALIAS.has(tokens[i].text))) i++;
    if (is(tokens[i], '(') && !columnList) i = skipParens(tokens, i);
    return i;
  };
  const list = (i: number, access: Access) => {
    i = item(i, access, false);
    while (is(tokens[i], ',')) i = item(i + 1, access, false);
  };

  // The function each open parenthesis belongs to ('' for a plain parenthesis).
  const calls: string[] = [];
  tokens.forEach((t, i) => {
    const before = tokens[i - 1];
    if (is(t, '(')) calls.push(before?.kind === 'word' ? before.text : '');
    else if (is(t, ')')) calls.pop();
    if (t.kind !== 'word') return;
    switch (t.text) {
      case 'from':
        // IS [NOT] DISTINCT FROM compares; extract(field FROM x) and its kin take arguments.
        if (is(before, 'distinct') || FROM_IN_ARGUMENTS.has(calls[calls.length - 1] ?? '')) return;
        return list(i + 1, is(before, 'delete') ? 'write' : 'read');
      case 'join':
        return void item(i + 1, 'read', false);
      case 'using':
        // DELETE ... USING t and MERGE ... USING t read t; JOIN ... USING (col) names columns.
        return is(tokens[i + 1], '(') ? undefined : list(i + 1, 'read');
      case 'into':
        return void item(i + 1, 'write', true);
      case 'update':
        // ON CONFLICT DO UPDATE, FOR [NO KEY] UPDATE, ON UPDATE (a foreign key), INSERT OR UPDATE ON (a trigger).
        if (['do', 'for', 'key', 'on', 'or'].some((w) => is(before, w))) return;
        return void item(i + 1, 'write', false);
      case 'truncate':
        return list(is(tokens[i + 1], 'table') ? i + 2 : i + 1, 'write');
    }
  });
  return refs;
}

/** A piece of SQL found in a TypeScript file: a string or template literal, substitutions replaced. */
export type SqlText = { text: string; line: number };

/** A string literal given as a table to a helper (`table: 'vehicle'`, `const table = 'sys_user'`). */
export type NamedTable = { name: string; line: number };

/** Where a string literal ends up: the property or variable it initialises, through ?:, ??, || and parentheses. */
function bindingName(node: ts.Node): string | undefined {
  let child: ts.Node = node;
  let parent = node.parent;
  while (
    ts.isParenthesizedExpression(parent) ||
    ts.isAsExpression(parent) ||
    ts.isSatisfiesExpression(parent) ||
    (ts.isConditionalExpression(parent) && parent.condition !== child) ||
    (ts.isBinaryExpression(parent) &&
      [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(parent.operatorToken.kind))
  ) {
    child = parent;
    parent = parent.parent;
  }
  if ((ts.isPropertyAssignment(parent) || ts.isVariableDeclaration(parent)) && parent.initializer === child)
    return parent.name.getText();
  return undefined;
}

/** Every string and template literal of a TypeScript file, and the table names handed to helpers. */
export function sqlInTypeScript(fileName: string, source: string): { texts: SqlText[]; named: NamedTable[] } {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const texts: SqlText[] = [];
  const named: NamedTable[] = [];
  const lineOf = (node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      texts.push({ text: node.text, line: lineOf(node) });
      const binding = /^[a-z_][a-z0-9_]*$/.test(node.text) ? bindingName(node) : undefined;
      if (binding && /(^|_)table$|Table$/i.test(binding)) named.push({ name: node.text, line: lineOf(node) });
    } else if (ts.isTemplateExpression(node)) {
      const text = node.head.text + node.templateSpans.map((s) => SUBSTITUTION + s.literal.text).join('');
      texts.push({ text, line: lineOf(node) });
    }
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { texts, named };
}
