import { type AuthPrincipal, DomainException } from '@voltdepot/server-core';
import {
  checkSpreadsheetUpload,
  dictionaryChoices,
  dictionaryValue,
  type ImportMode,
  type ImportReport,
  readSheet,
  runImport,
  sendTemplate,
  sendXlsx,
  sheetDateTime,
  type SheetRow,
  type RowProblems,
  type SpreadsheetColumn,
  type SpreadsheetLanguage,
  type UploadedSpreadsheet,
  type XlsxHttpResponse,
  labelOf,
  type Localized,
} from '@voltdepot/server-spreadsheet';
import type { EntityManager } from 'typeorm';
import type { AssetValues, AssetView, UniqueRule } from '../shared/asset-definition';
import type { AssetCrudService } from '../shared/asset-crud.service';
import type { AssetRepository } from '../shared/asset.repository';
import type { AssetsDataScope } from '../shared/data-scope';
import {
  LABEL_TYPE_ENTRIES,
  REF_COLUMN_WORDS,
  type SheetColumnSpec,
  type SheetRef,
  type SheetSpec,
} from './asset-sheets';

/** Date-times in sheets are written and read in the business time zone (Asia/Shanghai, UTC+8). */
const BUSINESS_OFFSET = '+08:00';
/** A number cell as the import takes it: plain decimal notation. */
const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * The wall-clock value of a cell Excel stores as a date or time, as `YYYY-MM-DDTHH:mm:ss`. The reader
 * gives such a cell as JavaScript's text of the Date it read, whose UTC fields are what the cell shows.
 */
function excelCellDateTime(text: string): string | undefined {
  if (!/^[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{4} \d{2}:\d{2}:\d{2} GMT[+-]\d{4}/.test(text)) return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().slice(0, 19);
}

/** `YYYY-MM-DD[ HH:mm[:ss]]` in the business time zone, or an ISO-8601 date-time, as ISO-8601. */
export function parseSheetDateTime(text: string): string {
  const cell = excelCellDateTime(text);
  const local = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(cell ?? text);
  if (!local) return text;
  const [, date, hour = '0', minute = '00', second = '00'] = local;
  return `${date}T${hour.padStart(2, '0')}:${minute}:${second}${BUSINESS_OFFSET}`;
}

/** `8:00` or `08:00:00` (or a time cell) as `08:00`; anything else as it is (the schema names it). */
export function parseSheetTime(text: string): string {
  const cell = excelCellDateTime(text);
  if (cell !== undefined) return cell.slice(11, 16);
  const m = /^(\d{1,2}):(\d{2})(?::\d{2})?$/.exec(text);
  return m ? `${m[1].padStart(2, '0')}:${m[2]}` : text;
}

/** `2024-1-5`, `2024/01/05` (or a date cell) as `2024-01-05`; anything else as it is (the schema names it). */
export function parseSheetDate(text: string): string {
  const cell = excelCellDateTime(text);
  if (cell !== undefined) return cell.slice(0, 10);
  const m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(text);
  return m ? `${m[1]}-${m[2].padStart(2, '0')}-${m[3].padStart(2, '0')}` : text;
}

/** A label as sheets know it: a station's labels cell lists them by name. */
type LabelRow = { id: number; name: string; type: string };

/** Label names of one labels cell: "," "，" "、" ";" or line breaks between them. */
export function labelNamesOf(text: string): string[] {
  return text
    .split(/[,，、;；\n]+/)
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** How a labels cell writes a label: its name, or `Category:Name` when another category has the name. */
function labelTexts(labels: LabelRow[], language: SpreadsheetLanguage): Map<number, string> {
  const byName = groupByName(labels);
  return new Map(
    labels.map((l) => {
      const shared = (byName.get(l.name.trim().toLowerCase()) ?? []).length > 1;
      return [l.id, shared ? `${labelTypeText(l.type, language)}:${l.name}` : l.name];
    }),
  );
}

function groupByName(labels: LabelRow[]): Map<string, LabelRow[]> {
  const byName = new Map<string, LabelRow[]>();
  for (const label of labels) {
    const key = label.name.trim().toLowerCase();
    const same = byName.get(key);
    if (same === undefined) byName.set(key, [label]);
    else same.push(label);
  }
  return byName;
}

function labelTypeOrder(type: string): number {
  return LABEL_TYPE_ENTRIES.findIndex((e) => e.value === type);
}

function labelTypeText(type: string, language: SpreadsheetLanguage): string {
  const entry = LABEL_TYPE_ENTRIES.find((e) => e.value === type);
  return entry === undefined ? type : labelOf(entry.label, language);
}

type Lookup = { ids: Map<string, number>; ambiguous: Set<string> };
const AMBIGUOUS = -1;
/** References by column key, and the labels when the sheet has a labels column. */
type Lookups = { refs: Map<string, Lookup>; labels: Map<string, LabelRow[]> };

/**
 * xlsx export, import template and xlsx/xls import of one basic-data grid, from its SheetSpec. An import
 * checks each row against the grid's schema, then writes the rows in one transaction, each under a
 * savepoint so that a row the database or a rule refuses is reported and the others go on; in `all` mode
 * any error rolls the whole transaction back.
 */
export class AssetSheetService {
  constructor(
    private readonly spec: SheetSpec,
    private readonly crud: AssetCrudService,
    private readonly repository: AssetRepository,
  ) {}

  /** The export's columns; a labels column writes names (`labels`: each label's text by id). */
  exportColumns(
    labels: ReadonlyMap<number, string> = new Map(),
    language: SpreadsheetLanguage = 'zh-CN',
  ): SpreadsheetColumn<AssetView>[] {
    const separator = language === 'zh-CN' ? '、' : ', ';
    return this.spec.columns
      .filter((c) => !c.importOnly)
      .map((c) => ({
        key: c.key,
        header: c.header,
        dictionary: c.dictionary,
        width: c.width,
        value: (row: AssetView) => {
          const value = row[c.view ?? c.key];
          if (c.kind === 'datetime' && typeof value === 'string') return sheetDateTime(value);
          if (c.kind === 'labels' && Array.isArray(value)) {
            return value.map((id: number) => labels.get(id) ?? String(id)).join(separator);
          }
          return value;
        },
      }));
  }

  importColumns(): SpreadsheetColumn<AssetView>[] {
    return this.spec.columns
      .filter((c) => !c.exportOnly)
      .map((c) => ({
        key: c.key,
        header: c.header,
        dictionary: c.dictionary,
        required: c.required,
        width: c.width,
        note: joinNotes(kindNote(c), c.note),
      }));
  }

  async export(
    me: AuthPrincipal,
    filter: Record<string, unknown>,
    language: SpreadsheetLanguage,
    res: XlsxHttpResponse,
  ): Promise<void> {
    const scope = await this.crud.scopeOf(me);
    const labels = this.spec.columns.some((c) => c.kind === 'labels' && !c.importOnly)
      ? labelTexts(await this.labelRows(scope), language)
      : undefined;
    await sendXlsx(
      res,
      `${this.spec.fileName[language]}.xlsx`,
      this.spec.sheet,
      this.exportColumns(labels, language),
      this.repository.batches(this.crud.def, scope, filter),
      language,
    );
  }

  async template(language: SpreadsheetLanguage, res: XlsxHttpResponse): Promise<void> {
    const suffix = language === 'zh-CN' ? '导入模板' : '-import-template';
    await sendTemplate(
      res,
      `${this.spec.fileName[language]}${suffix}.xlsx`,
      this.spec.sheet,
      this.importColumns(),
      language,
    );
  }

  async import(
    me: AuthPrincipal,
    file: UploadedSpreadsheet | undefined,
    language: SpreadsheetLanguage,
    mode: ImportMode,
  ): Promise<ImportReport> {
    const kind = checkSpreadsheetUpload(file);
    const columns = this.importColumns();
    const content = await readSheet(file!.buffer, kind, columns, language);
    const scope = await this.crud.scopeOf(me);
    const lookups = await this.lookups(scope);
    return runImport<AssetValues>({
      content,
      columns: columns as SpreadsheetColumn<never>[],
      language,
      mode,
      validateRow: (row, problems) => this.parseRow(row, problems, lookups, language),
      checksRowsOnSave: true,
      save: async (accepted, saved, { problemsOf, settle }) => {
        // The rows written so far by value of each unique field: a row refused for a key an earlier row
        // of this file took is reported as a repeat of that row, not as "already exists".
        const written = new Map<string, number>();
        await this.repository.transaction(async (m) => {
          for (const [index, { row, value }] of accepted.entries()) {
            if (this.spec.updatesBy !== undefined) {
              await this.updateRow(scope, value, m, problemsOf(row), written, row);
              await saved(index + 1);
              continue;
            }
            if (await this.saveRow(scope, value, m, problemsOf(row), written, row)) {
              for (const rule of this.crud.def.unique) {
                const key = uniqueKey(rule, value);
                if (key !== undefined && !written.has(key)) written.set(key, row);
              }
            }
            await saved(index + 1);
          }
          settle();
        });
      },
    });
  }

  private async labelRows(scope: AssetsDataScope): Promise<LabelRow[]> {
    const rows = await this.repository.lookupRows(
      { table: 'asset_label', by: ['name', 'type'], scoped: false },
      scope,
    );
    return rows.map((r) => ({ id: Number(r['id']), name: String(r['name']), type: String(r['type']) }));
  }

  private async lookups(scope: AssetsDataScope): Promise<Lookups> {
    const labels = this.spec.columns.some((c) => c.kind === 'labels' && !c.exportOnly)
      ? groupByName(await this.labelRows(scope))
      : new Map<string, LabelRow[]>();
    return { refs: await this.refLookups(scope), labels };
  }

  private async refLookups(scope: AssetsDataScope): Promise<Map<string, Lookup>> {
    const result = new Map<string, Lookup>();
    for (const column of this.spec.columns.filter((c) => c.kind === 'ref' && !c.exportOnly)) {
      const ref = column.ref!;
      const rows = await this.repository.lookupRows(ref, scope);
      const lookup: Lookup = { ids: new Map(), ambiguous: new Set() };
      for (const row of rows) {
        for (const by of ref.by) {
          const text = row[by];
          if (text === null || text === undefined) continue;
          const key = lookupKey(ref, by, row['parent_id'], String(text));
          const seen = lookup.ids.get(key);
          lookup.ids.set(
            key,
            seen !== undefined && seen !== Number(row['id']) ? AMBIGUOUS : Number(row['id']),
          );
        }
      }
      result.set(column.key, lookup);
    }
    return result;
  }

  private parseRow(
    row: SheetRow,
    problems: RowProblems,
    lookups: Lookups,
    language: SpreadsheetLanguage,
  ): AssetValues | null {
    const body: AssetValues = {};
    const reported = new Set<string>();
    const fail = (key: string, message: string) => {
      reported.add(key);
      problems.add(key, message);
    };
    for (const column of this.spec.columns.filter((c) => !c.exportOnly)) {
      const text = row.cells[column.key];
      if (text === null || text === undefined) continue;
      const value = this.cellValue(column, text, body, lookups, language, fail, (key) => !!row.cells[key]);
      if (value !== undefined) body[column.key] = value;
    }
    const updatesBy = this.spec.updatesBy;
    const target = updatesBy === undefined ? undefined : body[updatesBy];
    if (updatesBy !== undefined) {
      delete body[updatesBy];
      // The row to change must be named (an unknown one is reported by its lookup).
      if (target === undefined && !reported.has(updatesBy)) {
        const header = this.spec.columns.find((c) => c.key === updatesBy)?.header['en-US'] ?? updatesBy;
        fail(updatesBy, `${header} cannot be empty`);
      }
    }
    const schema = updatesBy === undefined ? this.crud.def.createSchema : this.crud.def.updateSchema;
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '(row)');
        if (!reported.has(field)) problems.add(field, issue.message);
      }
      return null;
    }
    if (reported.size > 0) return null;
    return updatesBy === undefined
      ? (parsed.data as AssetValues)
      : { ...(parsed.data as AssetValues), [updatesBy]: target };
  }

  private cellValue(
    column: SheetColumnSpec,
    text: string,
    body: AssetValues,
    lookups: Lookups,
    language: SpreadsheetLanguage,
    fail: (key: string, message: string) => void,
    filled: (key: string) => boolean,
  ): unknown {
    const header = column.header['en-US'];
    switch (column.kind) {
      case 'int':
      case 'decimal': {
        // Plain decimal notation only: Number() would also take 0x1F, 0b11, 1e3 and ' '.
        if (!DECIMAL_TEXT.test(text)) return text; // the schema names the field ("must be a number")
        return Number(text);
      }
      case 'bool':
      case 'code':
      case 'enum': {
        const value = dictionaryValue(column.dictionary ?? [], text);
        if (value === undefined) {
          fail(
            column.key,
            `${header} must be one of ${dictionaryChoices(column.dictionary ?? [], language)}`,
          );
          return undefined;
        }
        return column.kind === 'bool' ? value === 'true' : column.kind === 'code' ? Number(value) : value;
      }
      case 'time':
        return parseSheetTime(text);
      case 'date':
        return parseSheetDate(text);
      case 'datetime':
        return parseSheetDateTime(text);
      case 'labels':
        return this.labelIds(column.key, text, lookups.labels, language, fail);
      case 'ref': {
        const ref = column.ref!;
        const lookup = lookups.refs.get(column.key)!;
        const parent = ref.parent ? body[ref.parent.field] : undefined;
        const parentName = ref.parent?.field.replace(/Id$/, '');
        if (ref.parent && typeof parent !== 'number') {
          // A parent cell that was filled in has its own error; an empty one is this cell's problem.
          if (!filled(ref.parent.field))
            fail(column.key, `The ${ref.noun} '${text}' needs the row's ${parentName}`);
          return undefined;
        }
        let ambiguous = false;
        for (const by of ref.by) {
          const id = lookup.ids.get(lookupKey(ref, by, parent, text));
          if (id === AMBIGUOUS) ambiguous = true;
          else if (id !== undefined) return id;
        }
        fail(
          column.key,
          ambiguous
            ? `More than one ${ref.noun} is called '${text}': write its number`
            : `No ${ref.noun} '${text}'${ref.parent ? ` in the row's ${parentName}` : ''}`,
        );
        return undefined;
      }
      default:
        return text;
    }
  }

  /**
   * The ids of a labels cell's names. A name two categories have is written `Category:Name` (the
   * category by its label in either language, or its code); each unknown or ambiguous name is reported.
   */
  private labelIds(
    key: string,
    text: string,
    labels: ReadonlyMap<string, LabelRow[]>,
    language: SpreadsheetLanguage,
    fail: (key: string, message: string) => void,
  ): number[] | undefined {
    const ids = new Set<number>();
    let ok = true;
    for (const written of labelNamesOf(text)) {
      const qualified = /^(.+?)\s*[:：]\s*(.+)$/.exec(written);
      const type = qualified ? dictionaryValue(LABEL_TYPE_ENTRIES, qualified[1]) : undefined;
      const name = type !== undefined ? qualified![2] : written;
      const found = (labels.get(name.toLowerCase()) ?? []).filter(
        (l) => type === undefined || l.type === type,
      );
      if (found.length === 1) {
        ids.add(found[0].id);
        continue;
      }
      ok = false;
      if (found.length === 0) {
        fail(
          key,
          type === undefined
            ? `No label '${written}'`
            : `No ${labelTypeText(type, language)} label '${name}'`,
        );
      } else {
        const choices = found
          .sort((a, b) => labelTypeOrder(a.type) - labelTypeOrder(b.type))
          .map((l) => `'${labelTypeText(l.type, language)}:${l.name}'`)
          .join(' or ');
        fail(key, `More than one label is called '${name}': write ${choices}`);
      }
    }
    return ok ? [...ids] : undefined;
  }

  /**
   * Changes the existing row a sheet row names (`updatesBy`) under a savepoint, like saveRow; a row named
   * twice in one file is reported as a repeat of the first.
   */
  private async updateRow(
    scope: AssetsDataScope,
    value: AssetValues,
    m: EntityManager,
    problems: RowProblems,
    written: Map<string, number>,
    row: number,
  ): Promise<void> {
    const key = this.spec.updatesBy!;
    const { [key]: id, ...values } = value;
    const earlier = written.get(String(id));
    if (earlier !== undefined) {
      problems.add(key, `Repeats row ${earlier}`);
      return;
    }
    written.set(String(id), row);
    await this.inSavepoint(m, problems, () => this.crud.updateIn(scope, Number(id), values, m));
  }

  /**
   * Writes one row under a savepoint of the import's transaction: a row the database or a rule refuses
   * (unique keys, overlapping peak times) is rolled back alone and reported, and the import goes on.
   */
  private saveRow(
    scope: AssetsDataScope,
    value: AssetValues,
    m: EntityManager,
    problems: RowProblems,
    written: ReadonlyMap<string, number>,
    row: number,
  ): Promise<boolean> {
    return this.inSavepoint(
      m,
      problems,
      () => this.crud.createIn(scope, value, m),
      (field, message) => {
        const rule = this.crud.def.unique.find((u) => u.field === field);
        const earlier = rule ? written.get(uniqueKey(rule, value) ?? '') : undefined;
        return earlier !== undefined && earlier !== row ? `Repeats row ${earlier}` : message;
      },
    );
  }

  /**
   * Runs one row's write under a savepoint: a domain refusal rolls back that row alone and becomes its
   * problems (by field where the error names them, `wording` may reword each); anything else propagates.
   */
  private async inSavepoint(
    m: EntityManager,
    problems: RowProblems,
    write: () => Promise<unknown>,
    wording: (field: string, message: string) => string = (_field, message) => message,
  ): Promise<boolean> {
    await m.query('SAVEPOINT asset_import_row');
    try {
      await write();
      await m.query('RELEASE SAVEPOINT asset_import_row');
      return true;
    } catch (error) {
      await m.query('ROLLBACK TO SAVEPOINT asset_import_row');
      if (!(error instanceof DomainException)) throw error;
      const details = Array.isArray(error.details)
        ? (error.details as { field?: unknown; message?: unknown }[])
        : [];
      const named = details.filter((d) => typeof d.field === 'string' && typeof d.message === 'string');
      if (named.length === 0) problems.add('(row)', error.message);
      for (const d of named) problems.add(String(d.field), wording(String(d.field), String(d.message)));
      return false;
    }
  }
}

/**
 * A unique key's value as rows of one import compare it (trimmed, case-insensitive), with the other
 * fields of a composite key (channel 1 of two different hosts is no repeat).
 */
function uniqueKey(rule: UniqueRule, values: AssetValues): string | undefined {
  const value = values[rule.field];
  if (value === null || value === undefined || value === '') return undefined;
  const within = (rule.within ?? []).map((field) => String(values[field] ?? ''));
  return [rule.field, ...within, String(value).trim().toLowerCase()].join('|');
}

/** The template hint a column's kind implies: how to write a reference, a date or a time. */
function kindNote(column: SheetColumnSpec): Localized | undefined {
  switch (column.kind) {
    case 'ref': {
      const words = column.ref!.by.map((by) => REF_COLUMN_WORDS[by] ?? { 'zh-CN': by, 'en-US': by });
      const en = words.map((w) => w['en-US']);
      const last = en.pop()!;
      return {
        'zh-CN': `填写${words.map((w) => w['zh-CN']).join('或')}`,
        'en-US': `The ${column.ref!.noun}'s ${en.length ? `${en.join(', ')} or ${last}` : last}`,
      };
    }
    case 'datetime':
      return { 'zh-CN': 'YYYY-MM-DD HH:mm:ss（北京时间）', 'en-US': 'YYYY-MM-DD HH:mm:ss (UTC+8)' };
    case 'date':
      return { 'zh-CN': 'YYYY-MM-DD', 'en-US': 'YYYY-MM-DD' };
    case 'time':
      return { 'zh-CN': 'HH:mm', 'en-US': 'HH:mm' };
    default:
      return undefined;
  }
}

function joinNotes(a: Localized | undefined, b: Localized | undefined): Localized | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return { 'zh-CN': `${a['zh-CN']}；${b['zh-CN']}`, 'en-US': `${a['en-US']}; ${b['en-US']}` };
}

function lookupKey(ref: SheetRef, by: string, parent: unknown, text: string): string {
  return `${by}|${ref.parent ? String(parent) : ''}|${text.trim().toLowerCase()}`;
}
