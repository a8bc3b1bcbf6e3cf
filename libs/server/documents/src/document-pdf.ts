import PDFDocument from 'pdfkit';
import {
  cellText,
  type DocumentCell,
  type DocumentColumn,
  type DocumentModel,
  type DocumentSection,
} from './document-model';
import { loadDocumentFonts } from './document-font';

export type PdfRenderOptions = {
  /** The document's CreationDate (tests fix it so the same model gives the same bytes). Default now. */
  createdAt?: Date;
  /** Environment to read DOCUMENT_FONT_PATH from (default process.env). */
  env?: NodeJS.ProcessEnv;
};

const MARGIN = { top: 48, bottom: 56, left: 40, right: 40 };
const CELL_PADDING = 3;
const TABLE_FONT_SIZE = 8.5;
const DEFAULT_WIDTH = 12;
const REGULAR = 'document-regular';
const BOLD = 'document-bold';

/**
 * The document as an A4 PDF in a CJK font (Noto Sans CJK by default, see `loadDocumentFonts`): title,
 * facts, then each table across as many pages as it needs with its header row repeated on every page,
 * and "page / pages" at the foot of each page. The fonts are embedded as subsets with their ToUnicode
 * maps, so the text can be searched and copied.
 */
export async function renderDocumentPdf(
  model: DocumentModel,
  options: PdfRenderOptions = {},
): Promise<Buffer> {
  const fonts = loadDocumentFonts(options.env);
  const createdAt = options.createdAt ?? new Date();
  const doc = new PDFDocument({
    size: 'A4',
    margins: MARGIN,
    bufferPages: true,
    info: {
      Title: model.title,
      Producer: 'Voltdepot',
      Creator: 'Voltdepot',
      CreationDate: createdAt,
      ModDate: createdAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });

  doc.registerFont(REGULAR, fonts.regular.data, fonts.regular.postscriptName);
  const bold = fonts.bold ?? fonts.regular;
  doc.registerFont(BOLD, bold.data, bold.postscriptName);

  const left = MARGIN.left;
  const width = doc.page.width - MARGIN.left - MARGIN.right;

  doc.font(BOLD).fontSize(16).text(model.title, left, MARGIN.top, { width });
  if (model.subtitle) doc.font(REGULAR).fontSize(10).fillColor('#555555').text(model.subtitle, { width });
  doc.fillColor('black');
  if (model.meta.length > 0) {
    doc.moveDown(0.5);
    drawMeta(doc, model.meta, left, width);
  }
  for (const section of model.sections) {
    doc.moveDown(1);
    drawSection(doc, section, left, width);
  }
  if (model.footer) {
    doc.moveDown(1);
    ensureRoom(doc, 20);
    doc.font(REGULAR).fontSize(8).fillColor('#555555').text(model.footer, left, doc.y, { width });
    doc.fillColor('black');
  }

  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Drawn inside the bottom margin: no automatic page break there.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font(REGULAR)
      .fontSize(8)
      .fillColor('#555555')
      .text(`${i - range.start + 1} / ${range.count}`, left, doc.page.height - 36, {
        width,
        align: 'center',
        lineBreak: false,
      });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

function pageBottom(doc: PDFKit.PDFDocument): number {
  return doc.page.height - doc.page.margins.bottom;
}

function ensureRoom(doc: PDFKit.PDFDocument, height: number): boolean {
  if (doc.y + height <= pageBottom(doc)) return false;
  doc.addPage();
  doc.y = MARGIN.top;
  return true;
}

function drawMeta(doc: PDFKit.PDFDocument, meta: DocumentModel['meta'], left: number, width: number) {
  // Two facts a line: label in grey, value after it.
  const half = width / 2;
  doc.fontSize(9);
  for (let i = 0; i < meta.length; i += 2) {
    const pair = meta.slice(i, i + 2);
    const heights = pair.map((m) =>
      doc.font(REGULAR).heightOfString(`${m.label}: ${m.value}`, { width: half - 8 }),
    );
    const height = Math.max(...heights) + 2;
    ensureRoom(doc, height);
    const y = doc.y;
    pair.forEach((m, index) => {
      doc
        .font(REGULAR)
        .fillColor('#555555')
        .text(`${m.label}: `, left + index * half, y, { width: half - 8, continued: true })
        .fillColor('black')
        .text(m.value);
    });
    doc.y = y + height;
  }
}

function columnWidths(columns: DocumentColumn[], width: number): number[] {
  const weights = columns.map((c) => c.width ?? DEFAULT_WIDTH);
  const sum = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => (w / sum) * width);
}

function rowHeight(doc: PDFKit.PDFDocument, texts: string[], widths: number[], font: string): number {
  doc.font(font).fontSize(TABLE_FONT_SIZE);
  const heights = texts.map((t, i) =>
    t === '' ? 0 : doc.heightOfString(t, { width: widths[i]! - 2 * CELL_PADDING }),
  );
  return Math.max(doc.currentLineHeight(true), ...heights) + 2 * CELL_PADDING;
}

function drawRow(
  doc: PDFKit.PDFDocument,
  texts: string[],
  columns: DocumentColumn[],
  widths: number[],
  left: number,
  style: 'header' | 'body' | 'totals',
) {
  const font = style === 'body' ? REGULAR : BOLD;
  const height = rowHeight(doc, texts, widths, font);
  const y = doc.y;
  const total = widths.reduce((a, b) => a + b, 0);
  if (style !== 'body') doc.rect(left, y, total, height).fill(style === 'header' ? '#e8edf3' : '#f5f5f5');
  doc.fillColor('black').font(font).fontSize(TABLE_FONT_SIZE);
  let x = left;
  texts.forEach((text, i) => {
    const w = widths[i]!;
    if (text !== '') {
      doc.text(text, x + CELL_PADDING, y + CELL_PADDING, {
        width: w - 2 * CELL_PADDING,
        align: columns[i]?.align ?? 'left',
      });
    }
    x += w;
  });
  doc
    .moveTo(left, y + height)
    .lineTo(left + total, y + height)
    .lineWidth(0.5)
    .strokeColor('#cccccc')
    .stroke();
  doc.x = left;
  doc.y = y + height;
}

function drawSection(doc: PDFKit.PDFDocument, section: DocumentSection, left: number, width: number) {
  const widths = columnWidths(section.columns, width);
  const headers = section.columns.map((c) => c.header);
  const texts = (row: DocumentCell[]) => section.columns.map((c, i) => cellText(row[i] ?? null, c));
  const headerHeight = rowHeight(doc, headers, widths, BOLD);
  const titleHeight = section.title ? 20 : 0;
  const firstRow = section.rows[0] ?? section.totals;
  // The title, the header and the first row stay together.
  ensureRoom(
    doc,
    titleHeight + headerHeight + (firstRow ? rowHeight(doc, texts(firstRow), widths, REGULAR) : 0),
  );
  if (section.title) {
    doc.font(BOLD).fontSize(11).fillColor('black').text(section.title, left, doc.y, { width });
    doc.y += 4;
  }
  drawRow(doc, headers, section.columns, widths, left, 'header');
  const lines: { cells: string[]; style: 'body' | 'totals' }[] = section.rows.map((r) => ({
    cells: texts(r),
    style: 'body',
  }));
  if (section.totals) lines.push({ cells: texts(section.totals), style: 'totals' });
  for (const line of lines) {
    const height = rowHeight(doc, line.cells, widths, line.style === 'body' ? REGULAR : BOLD);
    if (ensureRoom(doc, height)) drawRow(doc, headers, section.columns, widths, left, 'header');
    drawRow(doc, line.cells, section.columns, widths, left, line.style);
  }
}
