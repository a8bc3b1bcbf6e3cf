import ExcelJS from 'exceljs';
import type { Writable } from 'node:stream';
import type { AssetView } from './asset-definition';

export type ExportLanguage = 'zh-CN' | 'en-US';
export type ExportColumn = {
  field: string;
  header: Record<ExportLanguage, string>;
  width?: number;
  /** Codes shown as their meaning, e.g. device status 50 -> normal. */
  format?: (value: unknown, row: AssetView) => string | number | null;
};

/** Text a spreadsheet would run as a formula (formula injection) starts with one of these. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Prefixes formula-like text with a quote so the cell stays text. Same rule as identity's log export;
 * repeated here because one area does not import another.
 */
export function escapeCell(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  const text = String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** `Content-Disposition` for a download whose name may be Chinese (RFC 6266 / 5987). */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Streams rows into a one-sheet .xlsx workbook on `out`. */
export async function writeXlsx(
  out: Writable,
  sheetName: string,
  columns: ExportColumn[],
  batches: AsyncIterable<AssetView[]>,
  language: ExportLanguage,
): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns.map((c) => ({ header: c.header[language], key: c.field, width: c.width ?? 18 }));
  for await (const batch of batches) {
    for (const row of batch) {
      const cells = columns.map((c) => [
        c.field,
        escapeCell(c.format ? c.format(row[c.field], row) : row[c.field]),
      ]);
      sheet.addRow(Object.fromEntries(cells)).commit();
    }
  }
  sheet.commit();
  await workbook.commit();
}
