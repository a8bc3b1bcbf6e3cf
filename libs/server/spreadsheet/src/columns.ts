import type { Localized, SpreadsheetLanguage } from './cells';

/** One option of a coded column: the stored value and what people read (one text or both languages). */
export type DictionaryEntry = { value: string; label: string | Localized };

/**
 * A column of an export, an import or a template. The same definition serves all three, so a file
 * exported from a list imports again and the template names exactly the columns the import reads.
 */
export type SpreadsheetColumn<T = Record<string, unknown>> = {
  /** Field name in the row (export) and in the parsed cells (import). */
  key: string;
  header: Localized;
  /** Export: the cell value of a row (in the sheet's language where it has words); `row[key]` when absent. */
  value?: (row: T, language: SpreadsheetLanguage) => unknown;
  /**
   * Coded values shown as labels (e.g. the items of a dictionary type): export writes the label in the
   * sheet's language; import accepts a label in either language, or the stored value itself.
   */
  dictionary?: readonly DictionaryEntry[];
  /** Import: the column must be in the header row and filled in every row. Templates mark it with '*'. */
  required?: boolean;
  /** Template: a hint on the header cell (format, allowed values are added from the dictionary). */
  note?: Localized;
  /** Excel number format for the column, e.g. 'yyyy-mm-dd hh:mm:ss' for dates. */
  numFmt?: string;
  width?: number;
};

export function labelOf(label: string | Localized, language: SpreadsheetLanguage): string {
  return typeof label === 'string' ? label : label[language];
}

/** The label of a stored value in a language; the value itself when the dictionary does not know it. */
export function dictionaryLabel(
  dictionary: readonly DictionaryEntry[],
  value: unknown,
  language: SpreadsheetLanguage,
): string {
  const text = String(value);
  const entry = dictionary.find((e) => e.value === text);
  return entry === undefined ? text : labelOf(entry.label, language);
}

/** The stored value for a cell's text (a label in either language or the value; case-insensitive). */
export function dictionaryValue(dictionary: readonly DictionaryEntry[], text: string): string | undefined {
  const wanted = text.trim().toLowerCase();
  for (const entry of dictionary) {
    const labels =
      typeof entry.label === 'string' ? [entry.label] : [entry.label['zh-CN'], entry.label['en-US']];
    if (entry.value.toLowerCase() === wanted || labels.some((l) => l.trim().toLowerCase() === wanted)) {
      return entry.value;
    }
  }
  return undefined;
}

/** The allowed labels of a coded column, for messages and template notes. */
export function dictionaryChoices(
  dictionary: readonly DictionaryEntry[],
  language: SpreadsheetLanguage,
): string {
  return dictionary.map((e) => labelOf(e.label, language)).join(language === 'zh-CN' ? '、' : ', ');
}

/** The header text of a column as a template writes it ('*' after required ones). */
export function headerText(column: SpreadsheetColumn<never>, language: SpreadsheetLanguage): string {
  return column.required ? `${column.header[language]}*` : column.header[language];
}
