import { apiSchemas, view } from '@voltdepot/server-core';
import { z } from 'zod';
import type { SpreadsheetLanguage } from './cells';
import type { SpreadsheetColumn } from './columns';
import type { SheetContent, SheetRow } from './sheet-reader';
import { SpreadsheetErrorCodes, SpreadsheetException } from './spreadsheet.exception';

/** `all`: any row error rejects the whole file (nothing imported). `report`: good rows are imported, bad ones reported. */
export const IMPORT_MODES = ['all', 'report'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

/** One problem of one row: the sheet row number, the column (letter and header) and what is wrong. */
export const importRowErrorSchema = apiSchemas.named(
  'ImportRowError',
  view({
    row: z.number().int(),
    column: z.string().nullable().describe('Column letter in the uploaded sheet; null for the whole row'),
    header: z.string().nullable().describe("The column's header in the import's language"),
    field: z.string(),
    message: z.string(),
  }),
);
export type ImportRowError = z.infer<typeof importRowErrorSchema>;

export const importReportSchema = apiSchemas.named(
  'ImportReport',
  view({
    mode: z.enum(IMPORT_MODES),
    total: z.number().int().describe('Data rows in the file'),
    imported: z.number().int(),
    failed: z.number().int().describe('Rows with at least one error (not imported)'),
    errors: z.array(importRowErrorSchema),
  }),
);
export type ImportReport = z.infer<typeof importReportSchema>;

export const importProgressSchema = apiSchemas.named(
  'ImportProgress',
  view({
    phase: z.enum(['validating', 'saving', 'done', 'failed']),
    processed: z.number().int(),
    total: z.number().int(),
  }),
);
export type ImportProgress = z.infer<typeof importProgressSchema>;
export type ImportPhase = ImportProgress['phase'];
export type ImportProgressListener = (progress: ImportProgress) => Promise<void> | void;

export type AcceptedRow<T> = { row: number; value: T };

/** Collects the problems of one row, naming the column by its letter and header. */
export class RowProblems {
  readonly errors: ImportRowError[] = [];

  constructor(
    readonly row: number,
    private readonly content: SheetContent,
    private readonly columns: readonly SpreadsheetColumn<never>[],
    private readonly language: SpreadsheetLanguage,
  ) {}

  add(field: string, message: string): void {
    const column = this.columns.find((c) => c.key === field);
    this.errors.push({
      row: this.row,
      column: this.content.columnLetters[field] ?? null,
      header: column ? column.header[this.language] : null,
      field,
      message,
    });
  }

  get ok(): boolean {
    return this.errors.length === 0;
  }
}

/** What `save` is given beyond the rows, for a store that checks each row as it writes it. */
export type SaveContext = {
  /** The problems of a row, for a row the store refuses (a key already taken, a rule across rows). */
  problemsOf(row: number): RowProblems;
  /**
   * In `all` mode, throws the file's rejection (422) when any row has a problem. Called inside the
   * save's transaction, before it commits, so that a rejected file leaves nothing behind.
   */
  settle(): void;
};

export type ImportPlan<T> = {
  content: SheetContent;
  columns: readonly SpreadsheetColumn<never>[];
  language: SpreadsheetLanguage;
  mode: ImportMode;
  /** Parses and checks one row on its own; returns what to save, or null after reporting its problems. */
  validateRow(row: SheetRow, problems: RowProblems): Promise<T | null> | T | null;
  /** Checks across rows and against stored data (duplicates in the file, keys already taken). */
  validateAll?(accepted: AcceptedRow<T>[], problemsOf: (row: number) => RowProblems): Promise<void> | void;
  /**
   * Saves the rows in one transaction, so a failure leaves nothing behind; `saved(n)` reports how many
   * rows are written so far (progress of long imports). With `checksRowsOnSave`, the store checks each
   * row as it writes it (under a savepoint), reports the rows it refuses on `context.problemsOf` and
   * calls `context.settle()` before committing.
   */
  save(
    accepted: AcceptedRow<T>[],
    saved: (count: number) => Promise<void>,
    context: SaveContext,
  ): Promise<void>;
  /**
   * The save finds problems of its own (see `save`). Then it runs in `all` mode even after row errors,
   * its writes rolled back by `settle()`, so that one answer names every problem of the file.
   */
  checksRowsOnSave?: boolean;
  onProgress?: ImportProgressListener;
  /** Milliseconds between progress reports within a phase (phase changes are always reported). */
  progressIntervalMs?: number;
};

/**
 * Runs an import in two passes: every row is validated first (each error names row and column), then
 * the accepted rows are saved together. In `all` mode one bad row rejects the file with a 422 whose
 * details are the report; in `report` mode the good rows are saved and the report lists the rest.
 */
export async function runImport<T>(plan: ImportPlan<T>): Promise<ImportReport> {
  const total = plan.content.rows.length;
  const interval = plan.progressIntervalMs ?? 250;
  let lastReport = 0;
  const report = async (phase: ImportPhase, processed: number, force = false) => {
    if (plan.onProgress === undefined) return;
    const now = Date.now();
    if (!force && now - lastReport < interval) return;
    lastReport = now;
    await plan.onProgress({ phase, processed, total });
  };

  try {
    await report('validating', 0, true);
    const problems = new Map<number, RowProblems>();
    const problemsOf = (row: number): RowProblems => {
      let entry = problems.get(row);
      if (entry === undefined) {
        entry = new RowProblems(row, plan.content, plan.columns, plan.language);
        problems.set(row, entry);
      }
      return entry;
    };
    const failedRows = () => new Set([...problems.values()].filter((p) => !p.ok).map((p) => p.row));
    const result = (imported: number): ImportReport => {
      const errors = [...problems.values()]
        .flatMap((p) => p.errors)
        .sort((a, b) => a.row - b.row || (a.column ?? '').localeCompare(b.column ?? ''));
      return { mode: plan.mode, total, imported, failed: failedRows().size, errors };
    };
    const settle = () => {
      if (plan.mode !== 'all' || failedRows().size === 0) return;
      const rejected = result(0);
      throw new SpreadsheetException(
        SpreadsheetErrorCodes.ImportRejected,
        `${rejected.failed} row(s) have errors; nothing was imported`,
        rejected,
      );
    };

    const accepted: AcceptedRow<T>[] = [];
    for (const [index, row] of plan.content.rows.entries()) {
      const value = await plan.validateRow(row, problemsOf(row.row));
      if (value !== null && problemsOf(row.row).ok) accepted.push({ row: row.row, value });
      await report('validating', index + 1);
    }
    if (plan.validateAll) await plan.validateAll(accepted, problemsOf);
    if (!plan.checksRowsOnSave) settle();
    const invalid = failedRows();
    const toSave = accepted.filter((a) => !invalid.has(a.row));
    await report('saving', 0, true);
    await plan.save(toSave, (count) => report('saving', count), { problemsOf, settle });
    // A save that reported problems without settling has committed: still, a file in `all` mode with
    // errors is never answered as imported.
    settle();
    const refused = failedRows();
    const imported = toSave.filter((a) => !refused.has(a.row)).length;
    await report('done', total, true);
    return result(imported);
  } catch (error) {
    await report('failed', 0, true).catch(() => undefined);
    throw error;
  }
}
