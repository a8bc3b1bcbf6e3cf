/** A cell of a document's table: text, a number, or empty. */
export type DocumentCell = string | number | null;

export type DocumentColumn = {
  header: string;
  /** Width in characters (xlsx) and the column's share of the page width (PDF); default 12. */
  width?: number;
  /** Default 'left'; numbers are usually 'right'. */
  align?: 'left' | 'right';
  /** Numbers shown with this many decimals (PDF) and formatted so in the sheet (xlsx), e.g. 2 for yuan. */
  decimals?: number;
};

export type DocumentSection = {
  title?: string;
  columns: DocumentColumn[];
  rows: DocumentCell[][];
  /** A last row in bold (sums). */
  totals?: DocumentCell[];
};

/**
 * One document, rendered the same way to xlsx and to PDF (`renderDocumentXlsx`, `renderDocumentPdf`):
 * a title, facts (label: value), tables, a footer line. Texts are already in the reader's language.
 */
export type DocumentModel = {
  title: string;
  subtitle?: string;
  meta: { label: string; value: string }[];
  sections: DocumentSection[];
  footer?: string;
};

/** The text a cell shows: numbers with the column's decimals, empty for null. */
export function cellText(cell: DocumentCell, column: DocumentColumn | undefined): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number') {
    return column?.decimals === undefined ? String(cell) : cell.toFixed(column.decimals);
  }
  return cell;
}
