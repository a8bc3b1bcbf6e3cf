import { type FreeSheetRow, writeFreeXlsx } from '@voltdepot/server-spreadsheet';
import type { DocumentColumn, DocumentModel } from './document-model';

const DEFAULT_WIDTH = 12;

const numFmtOf = (column: DocumentColumn | undefined) =>
  column?.decimals === undefined
    ? undefined
    : column.decimals === 0
      ? '0'
      : `0.${'0'.repeat(column.decimals)}`;

/**
 * The document as a one-sheet workbook: the title, the subtitle, the facts (label, value), then each
 * section's title, header row, rows and totals (bold), a blank row between; the footer last. Numbers
 * stay numbers (with the column's decimals as their format), so the sheet can be summed.
 */
export function renderDocumentXlsx(model: DocumentModel): Promise<Buffer> {
  const rows: FreeSheetRow[] = [{ cells: [model.title], bold: true }];
  if (model.subtitle) rows.push({ cells: [model.subtitle] });
  for (const m of model.meta) rows.push({ cells: [m.label, m.value] });
  for (const section of model.sections) {
    rows.push({ cells: [] });
    if (section.title) rows.push({ cells: [section.title], bold: true });
    rows.push({ cells: section.columns.map((c) => c.header), bold: true });
    const numFmts = section.columns.map(numFmtOf);
    for (const row of section.rows) rows.push({ cells: row, numFmts });
    if (section.totals) rows.push({ cells: section.totals, numFmts, bold: true });
  }
  if (model.footer) rows.push({ cells: [] }, { cells: [model.footer] });
  const columnCount = Math.max(2, ...model.sections.map((s) => s.columns.length));
  const widths = Array.from({ length: columnCount }, (_, index) => ({
    width: Math.max(
      index === 0 ? 16 : DEFAULT_WIDTH,
      ...model.sections.map((s) => s.columns[index]?.width ?? DEFAULT_WIDTH),
    ),
  }));
  return writeFreeXlsx(model.title, rows, widths);
}
