import { unstorableTextProblem } from '@voltdepot/server-core';
import ExcelJS from 'exceljs';
import { columnLetter, unescapeCell, type SpreadsheetLanguage } from './cells';
import type { SpreadsheetColumn } from './columns';
import { SpreadsheetErrorCodes, SpreadsheetException } from './spreadsheet.exception';
import type { SpreadsheetKind } from './upload';
import { readXlsFirstSheet, type SheetCells, XlsFormatError } from './xls/biff8';

/** One data row of an import: its row number in the sheet (the header is row 1) and its cells by key. */
export type SheetRow = { row: number; cells: Record<string, string | null> };

/** The data rows of an import and where each column was found. */
export type SheetContent = {
  rows: SheetRow[];
  /** Column letter of each key found in the header row. */
  columnLetters: Record<string, string>;
};

export const DEFAULT_IMPORT_MAX_ROWS = 5000;

/** Header text as people write it: trimmed, case-insensitive, without a required-marking '*'. */
function normalizeHeader(text: string): string {
  return text
    .trim()
    .replace(/\s*[*＊]$/, '')
    .trim()
    .toLowerCase();
}

async function cellsOf(buffer: Buffer, kind: SpreadsheetKind): Promise<SheetCells> {
  if (kind === 'xls') {
    try {
      return readXlsFirstSheet(buffer);
    } catch (error) {
      if (error instanceof XlsFormatError)
        throw unreadable(`The .xls workbook cannot be read: ${error.message}`);
      throw error;
    }
  }
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch {
    throw unreadable('The file is not a readable .xlsx workbook');
  }
  const sheet = workbook.worksheets[0];
  const cells: SheetCells = new Map();
  sheet?.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const line = new Map<number, string>();
    row.eachCell({ includeEmpty: false }, (cell, column) => line.set(column, cellText(cell)));
    cells.set(rowNumber, line);
  });
  return cells;
}

/**
 * The text of an xlsx cell as the sheet shows it. A formula whose cached result is an error reads as the
 * error (`#DIV/0!`), as a plain error cell does; ExcelJS's `text` would give "[object Object]".
 */
function cellText(cell: ExcelJS.Cell): string {
  const value = cell.value as { result?: unknown } | null;
  const result = typeof value === 'object' && value !== null ? value.result : undefined;
  if (typeof result === 'object' && result !== null && 'error' in result) {
    return String((result as ExcelJS.CellErrorValue).error);
  }
  return cell.text;
}

/**
 * Reads the first sheet of an uploaded workbook: row 1 names the columns (in either language, or by
 * key, in any order; unknown columns are ignored), every later non-blank row is data. Refuses (422)
 * a sheet without the required columns, without data rows, or with more than `maxRows` of them.
 */
export async function readSheet<T>(
  buffer: Buffer,
  kind: SpreadsheetKind,
  columns: readonly SpreadsheetColumn<T>[],
  language: SpreadsheetLanguage,
  maxRows: number = DEFAULT_IMPORT_MAX_ROWS,
): Promise<SheetContent> {
  const cells = await cellsOf(buffer, kind);
  const header = cells.get(1) ?? new Map<number, string>();
  const columnOf = new Map<string, number>();
  for (const [column, text] of header) {
    const wanted = normalizeHeader(text);
    const known = columns.find(
      (c) =>
        c.key.toLowerCase() === wanted ||
        normalizeHeader(c.header['zh-CN']) === wanted ||
        normalizeHeader(c.header['en-US']) === wanted,
    );
    if (known !== undefined && !columnOf.has(known.key)) columnOf.set(known.key, column);
  }
  const missing = columns.filter((c) => c.required && !columnOf.has(c.key));
  if (missing.length > 0) {
    const names = missing.map((c) => c.header[language]);
    throw new SpreadsheetException(
      SpreadsheetErrorCodes.ImportRejected,
      `The first row must name the columns; missing: ${names.join(', ')}`,
      { missingColumns: names },
    );
  }
  const rows: SheetRow[] = [];
  const unstorable: string[] = [];
  // Sorted row numbers, not a spread into Math.max: a sheet of a few hundred thousand rows would
  // overflow the call stack (a 500) before the row limit below could refuse it.
  const dataRows = [...cells.keys()].filter((r) => r >= 2).sort((a, b) => a - b);
  for (const r of dataRows) {
    const line = cells.get(r)!;
    const values: Record<string, string | null> = {};
    for (const c of columns) {
      const column = columnOf.get(c.key);
      const text = column === undefined ? '' : unescapeCell((line.get(column) ?? '').trim());
      const problem = unstorableTextProblem(text);
      if (problem) unstorable.push(`cell ${columnLetter(column!)}${r} ${problem}`);
      values[c.key] = text === '' ? null : text;
    }
    if (Object.values(values).every((v) => v === null)) continue;
    rows.push({ row: r, cells: values });
    if (rows.length > maxRows) {
      throw new SpreadsheetException(
        SpreadsheetErrorCodes.ImportRejected,
        `At most ${maxRows} rows can be imported at a time`,
        { maxRows },
      );
    }
  }
  if (unstorable.length > 0) {
    // A NUL character in a cell would fail the row's write in PostgreSQL: refused with the request.
    throw new SpreadsheetException(
      SpreadsheetErrorCodes.ImportRejected,
      `C${unstorable.slice(0, 5).join('; ').slice(1)}${unstorable.length > 5 ? ` (and ${unstorable.length - 5} more)` : ''}`,
      { cells: unstorable },
    );
  }
  if (rows.length === 0) {
    throw new SpreadsheetException(SpreadsheetErrorCodes.ImportRejected, 'The file has no data rows');
  }
  return {
    rows,
    columnLetters: Object.fromEntries([...columnOf].map(([key, column]) => [key, columnLetter(column)])),
  };
}

function unreadable(message: string): SpreadsheetException {
  return new SpreadsheetException(SpreadsheetErrorCodes.Unreadable, message);
}
