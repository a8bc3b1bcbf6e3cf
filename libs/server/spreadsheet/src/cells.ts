import { LABEL_LANGUAGES, type LabelLanguage } from '@voltdepot/shared-contracts';

/** The languages a sheet's headers and labels come in: the console's. */
export type SpreadsheetLanguage = LabelLanguage;
export const SPREADSHEET_LANGUAGES = LABEL_LANGUAGES;

/** A text in both languages of the console. */
export type Localized = Record<SpreadsheetLanguage, string>;

/** What a cell can hold. */
export type CellValue = string | number | boolean | Date | null;

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Text a spreadsheet would run as a formula (formula or CSV injection) starts with one of these. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** An escaped cell as read back: a quote in front of a formula start. */
const ESCAPED = /^'[=+\-@\t\r]/;

/**
 * Prefixes formula-like text with a quote so the cell stays text. Numbers, booleans and dates pass
 * unchanged; anything else is written as its text.
 */
export function escapeCell(value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) return value;
  const text = String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** Reverses escapeCell for text read from a cell, so an exported sheet imports as it was. */
export function unescapeCell(text: string): string {
  return ESCAPED.test(text) ? text.slice(1) : text;
}

/** `Content-Disposition` for a download whose name may be Chinese (RFC 6266 / 5987). */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** A1-style column letters of a 1-based column number (1 -> A, 27 -> AA). */
export function columnLetter(column: number): string {
  let n = column;
  let letters = '';
  while (n > 0) {
    const rest = (n - 1) % 26;
    letters = String.fromCharCode(65 + rest) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}
