import ExcelJS from 'exceljs';
import type { Writable } from 'node:stream';

export type XlsxColumn<T> = {
  key: string;
  header: { 'zh-CN': string; 'en-US': string };
  value: (row: T) => string | number | boolean | Date | null;
  width?: number;
};
export type XlsxLanguage = 'zh-CN' | 'en-US';

/** Text a spreadsheet would run as a formula (CSV/formula injection) starts with one of these. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Prefixes formula-like text with a quote so Excel shows it as text. Numbers and dates pass unchanged. */
export function escapeCell(
  value: string | number | boolean | Date | null,
): string | number | boolean | Date | null {
  return typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : value;
}

/** `Content-Disposition` for a download whose name may be Chinese (RFC 6266 / 5987). */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** Streams rows into an .xlsx workbook (one sheet) on `out`, with headers in the chosen language. */
export async function writeXlsx<T>(
  out: Writable,
  sheetName: string,
  columns: XlsxColumn<T>[],
  rows: AsyncIterable<T[]> | Iterable<T[]>,
  language: XlsxLanguage,
): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns.map((c) => ({ header: c.header[language], key: c.key, width: c.width ?? 20 }));
  for await (const batch of rows) {
    for (const row of batch) {
      sheet.addRow(Object.fromEntries(columns.map((c) => [c.key, escapeCell(c.value(row))]))).commit();
    }
  }
  sheet.commit();
  await workbook.commit();
}
