import ExcelJS from 'exceljs';
import { existsSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import {
  checkDocumentFont,
  DEFAULT_DOCUMENT_FONT_PATH,
  documentFontFiles,
  DocumentFontMissingError,
  loadDocumentFonts,
} from './document-font';
import type { DocumentModel } from './document-model';
import { renderDocumentPdf } from './document-pdf';
import { renderDocumentXlsx } from './document-xlsx';

const model = (rows: number): DocumentModel => ({
  title: '账单 张三 2026-11',
  subtitle: '月度对账单',
  meta: [
    { label: '账户', value: '12' },
    { label: '期初余额', value: '10.00' },
  ],
  sections: [
    {
      title: '明细',
      columns: [
        { header: '时间', width: 20 },
        { header: '类型', width: 10 },
        { header: '金额(元)', width: 10, align: 'right', decimals: 2 },
      ],
      rows: Array.from({ length: rows }, (_, i) => [
        `2026-11-01 08:${String(i % 60).padStart(2, '0')}`,
        '充值',
        i + 0.5,
      ]),
      totals: ['合计', null, 123.4],
    },
  ],
  footer: '=SUM(A1) 由系统生成',
});

async function sheetRows(buffer: Buffer): Promise<unknown[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(buffer as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  book.worksheets[0]!.eachRow({ includeEmpty: true }, (row, n) => {
    rows[n - 1] = (row.values as unknown[]).slice(1);
  });
  return rows;
}

/** The PDF's streams inflated (pdfkit compresses content, fonts and ToUnicode maps). */
function inflatedStreams(pdf: Buffer): string {
  const text = pdf.toString('latin1');
  const out: string[] = [];
  const re = /stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const start = m.index + m[0].length;
    const end = text.indexOf('endstream', start);
    try {
      out.push(inflateSync(pdf.subarray(start, end)).toString('latin1'));
    } catch {
      // not a deflated stream
    }
  }
  return out.join('\n');
}

/** The hex code of a character as a ToUnicode map writes it (`<8d26>`). */
const toUnicodeHex = (ch: string) => `<${ch.codePointAt(0)!.toString(16).padStart(4, '0')}>`;

const fontThere = existsSync(DEFAULT_DOCUMENT_FONT_PATH);

describe('documents: xlsx', () => {
  it('writes title, facts, headers, rows (numbers stay numbers) and totals, escaping formula-like text', async () => {
    const rows = await sheetRows(await renderDocumentXlsx(model(3)));
    expect(rows[0]).toEqual(['账单 张三 2026-11']);
    expect(rows[1]).toEqual(['月度对账单']);
    expect(rows[2]).toEqual(['账户', '12']);
    expect(rows[3]).toEqual(['期初余额', '10.00']);
    expect(rows[5]).toEqual(['明细']);
    expect(rows[6]).toEqual(['时间', '类型', '金额(元)']);
    expect(rows[7]).toEqual(['2026-11-01 08:00', '充值', 0.5]);
    expect(rows[9]).toEqual(['2026-11-01 08:02', '充值', 2.5]);
    expect(rows[10]).toEqual(['合计', undefined, 123.4]);
    expect(rows[12]).toEqual(["'=SUM(A1) 由系统生成"]);
  });

  it('formats a column with decimals as such', async () => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await renderDocumentXlsx(model(1))) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getCell('C8').numFmt).toBe('0.00');
    expect(sheet.getRow(7).font?.bold).toBe(true);
  });
});

describe('documents: font', () => {
  it('names the missing font and the fix', async () => {
    const env = { DOCUMENT_FONT_PATH: '/nowhere/NoFont-Regular.ttc' };
    expect(() => loadDocumentFonts(env)).toThrow(DocumentFontMissingError);
    expect(() => loadDocumentFonts(env)).toThrow(
      /\/nowhere\/NoFont-Regular\.ttc.*apt-get install fonts-noto-cjk/,
    );
    await expect(checkDocumentFont(env)).rejects.toThrow(/apt-get install fonts-noto-cjk/);
    await expect(renderDocumentPdf(model(1), { env })).rejects.toThrow(DocumentFontMissingError);
  });

  it('uses Noto Sans CJK SC by default with its bold face, and a .ttf by path alone', () => {
    expect(documentFontFiles({})).toEqual({
      regular: { path: DEFAULT_DOCUMENT_FONT_PATH, postscriptName: 'NotoSansCJKsc-Regular' },
      bold: {
        path: '/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc',
        postscriptName: 'NotoSansCJKsc-Bold',
      },
    });
    expect(documentFontFiles({ DOCUMENT_FONT_PATH: '/f/My.ttf' })).toEqual({
      regular: { path: '/f/My.ttf' },
    });
  });

  it('reads the font file once', () => {
    expect(loadDocumentFonts({}).regular.data).toBe(loadDocumentFonts({}).regular.data);
  });
});

describe('documents: PDF (needs fonts-noto-cjk, scripts/ensure-fonts.sh)', () => {
  // The test command installs the font (scripts/ensure-fonts.sh): without it these fail, never skip.
  beforeAll(() => {
    if (!fontThere)
      throw new Error(`no document font at ${DEFAULT_DOCUMENT_FONT_PATH}: run bash scripts/ensure-fonts.sh`);
  });
  const createdAt = new Date('2026-11-30T16:00:00Z');

  it('is a PDF with the CJK font embedded and its text mapped back to Unicode', async () => {
    const pdf = await renderDocumentPdf(model(3), { createdAt });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const raw = pdf.toString('latin1');
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansCJKsc-Regular/);
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansCJKsc-Bold/);
    const streams = inflatedStreams(pdf);
    for (const ch of '账单张三月度对账期初余额明细充值合计') expect(streams).toContain(toUnicodeHex(ch));
    expect(pageCount(pdf)).toBe(1);
    expect(streams).toContain(toUnicodeHex('/'));
  });

  it('paginates a long table over A4 pages with "n / N" at the foot', async () => {
    const pdf = await renderDocumentPdf(model(150), { createdAt });
    const pages = pageCount(pdf);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 595\.28 841\.89\]/);
    // The header is drawn on every page: the bold face is used once per page at least.
    const contents = inflatedStreams(pdf);
    expect((contents.match(/\/F\d+ 8\.5 Tf/g) ?? []).length).toBeGreaterThan(pages);
    expect(pageCount(await renderDocumentPdf(model(10), { createdAt }))).toBe(1);
  });

  it('gives the same bytes for the same model and creation date', async () => {
    const a = await renderDocumentPdf(model(5), { createdAt });
    const b = await renderDocumentPdf(model(5), { createdAt });
    expect(a.equals(b)).toBe(true);
  });
});

/** Pages of a PDF: its /Type /Page objects (not /Pages). */
export function pageCount(pdf: Buffer): number {
  return (pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g) ?? []).length;
}
