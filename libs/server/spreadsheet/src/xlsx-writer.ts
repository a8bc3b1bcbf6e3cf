import ExcelJS from 'exceljs';
import type { Writable } from 'node:stream';
import { attachmentDisposition, escapeCell, type SpreadsheetLanguage, XLSX_CONTENT_TYPE } from './cells';
import { dictionaryChoices, dictionaryLabel, headerText, labelOf, type SpreadsheetColumn } from './columns';

const DEFAULT_WIDTH = 20;

/** The cell an export writes for one column of a row: value, dictionary label, formula escape. */
export function exportCell<T>(column: SpreadsheetColumn<T>, row: T, language: SpreadsheetLanguage) {
  const raw = column.value ? column.value(row, language) : (row as Record<string, unknown>)[column.key];
  if (raw === null || raw === undefined) return null;
  const shown = column.dictionary ? dictionaryLabel(column.dictionary, raw, language) : raw;
  return escapeCell(shown);
}

/**
 * Streams rows into a one-sheet .xlsx workbook on `out`, headers in the chosen language. Rows come in
 * batches (e.g. pages read from the database) and are written as they arrive, so an export of many
 * rows never sits in memory. Resolves with the number of rows written, after the workbook is complete.
 */
export async function writeXlsx<T>(
  out: Writable,
  sheetName: string,
  columns: readonly SpreadsheetColumn<T>[],
  rows: AsyncIterable<readonly T[]> | Iterable<readonly T[]>,
  language: SpreadsheetLanguage,
): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns.map((c) => ({
    header: c.header[language],
    key: c.key,
    width: c.width ?? DEFAULT_WIDTH,
    ...(c.numFmt ? { style: { numFmt: c.numFmt } } : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  let written = 0;
  for await (const batch of rows) {
    for (const row of batch) {
      sheet.addRow(Object.fromEntries(columns.map((c) => [c.key, exportCell(c, row, language)]))).commit();
      written++;
    }
  }
  sheet.commit();
  await workbook.commit();
  return written;
}

/** What an HTTP response offers to a download (Express's response does). */
export type XlsxHttpResponse = Writable & {
  setHeader(name: string, value: string): unknown;
  headersSent: boolean;
};

/**
 * Sends an .xlsx download: content type, a `Content-Disposition` whose file name survives Chinese,
 * then the streamed workbook. A failure before the first byte left reaches the caller (and the error
 * filter); after that the response can only be cut off, so the client sees a broken download rather
 * than a complete-looking partial file.
 */
export async function sendXlsx<T>(
  res: XlsxHttpResponse,
  fileName: string,
  sheetName: string,
  columns: readonly SpreadsheetColumn<T>[],
  rows: AsyncIterable<readonly T[]> | Iterable<readonly T[]>,
  language: SpreadsheetLanguage,
): Promise<void> {
  res.setHeader('content-type', XLSX_CONTENT_TYPE);
  res.setHeader('content-disposition', attachmentDisposition(fileName));
  res.setHeader('cache-control', 'no-store');
  try {
    await writeXlsx(res, sheetName, columns, rows, language);
  } catch (error) {
    if (!res.headersSent) throw error;
    res.destroy(error as Error);
  }
}

/**
 * An import template: the header row ('*' after required columns, a note on each header saying what
 * goes in: the column's own hint and, for coded columns, the labels it accepts) and optional example
 * rows. Small, so it is built in memory.
 */
export async function writeTemplate<T>(
  out: Writable,
  sheetName: string,
  columns: readonly SpreadsheetColumn<T>[],
  language: SpreadsheetLanguage,
  examples: readonly Record<string, unknown>[] = [],
): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns.map((c) => ({
    header: headerText(c, language),
    key: c.key,
    width: c.width ?? DEFAULT_WIDTH,
    style: { numFmt: c.numFmt ?? '@' },
  }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  columns.forEach((c, index) => {
    const hints = [
      c.required ? (language === 'zh-CN' ? '必填' : 'Required') : null,
      c.note ? labelOf(c.note, language) : null,
      c.dictionary
        ? `${language === 'zh-CN' ? '可选值：' : 'One of: '}${dictionaryChoices(c.dictionary, language)}`
        : null,
    ].filter((h): h is string => h !== null);
    if (hints.length > 0) header.getCell(index + 1).note = hints.join('\n');
  });
  for (const example of examples) {
    sheet.addRow(Object.fromEntries(columns.map((c) => [c.key, escapeCell(example[c.key])])));
  }
  await workbook.xlsx.write(out);
}

/** sendXlsx for a template. */
export async function sendTemplate<T>(
  res: XlsxHttpResponse,
  fileName: string,
  sheetName: string,
  columns: readonly SpreadsheetColumn<T>[],
  language: SpreadsheetLanguage,
  examples: readonly Record<string, unknown>[] = [],
): Promise<void> {
  res.setHeader('content-type', XLSX_CONTENT_TYPE);
  res.setHeader('content-disposition', attachmentDisposition(fileName));
  res.setHeader('cache-control', 'no-store');
  await writeTemplate(res, sheetName, columns, language, examples);
  res.end();
}

/** One row of a free-form sheet (a document: title, facts, several tables): its cells, bold or not. */
export type FreeSheetRow = {
  cells: readonly unknown[];
  bold?: boolean;
  /** Excel number format of each numeric cell, over the column's. */
  numFmts?: readonly (string | undefined)[];
};

/**
 * A free-form one-sheet workbook built in memory (a statement or a report, not a streamed list): rows
 * as given, formula-like text escaped as in every export, column widths in characters and an Excel
 * number format per column where given (e.g. '0.00' for yuan).
 */
export async function writeFreeXlsx(
  sheetName: string,
  rows: readonly FreeSheetRow[],
  columns: readonly { width?: number; numFmt?: string }[] = [],
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName.replace(/[[\]:*?/\\]/g, '_').slice(0, 31) || 'Sheet1');
  columns.forEach((c, index) => {
    const column = sheet.getColumn(index + 1);
    column.width = c.width ?? DEFAULT_WIDTH;
  });
  for (const row of rows) {
    const added = sheet.addRow(row.cells.map((cell) => escapeCell(cell)));
    if (row.bold) added.font = { bold: true };
    row.cells.forEach((cell, index) => {
      const numFmt = row.numFmts?.[index] ?? columns[index]?.numFmt;
      if (numFmt && typeof cell === 'number') added.getCell(index + 1).numFmt = numFmt;
    });
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
