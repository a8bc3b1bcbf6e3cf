import ExcelJS from 'exceljs';
import { PassThrough } from 'node:stream';
import { attachmentDisposition, escapeCell, writeXlsx } from './xlsx-export';

describe('xlsx export', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+86 138', "'+86 138"],
    ['-5', "'-5"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['plain', 'plain'],
    [42, 42],
    [null, null],
  ])('escapeCell(%j) -> %j', (input, expected) => {
    expect(escapeCell(input)).toEqual(expected);
  });

  it('names the download in ASCII and in UTF-8', () => {
    expect(attachmentDisposition('操作日志.xlsx')).toBe(
      `attachment; filename="____.xlsx"; filename*=UTF-8''%E6%93%8D%E4%BD%9C%E6%97%A5%E5%BF%97.xlsx`,
    );
  });

  it('writes headers in the chosen language and escaped cells', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const done = new Promise((resolve) => out.on('end', resolve));
    await writeXlsx(
      out,
      'log',
      [
        { key: 'name', header: { 'zh-CN': '名称', 'en-US': 'Name' }, value: (r: { name: string }) => r.name },
        { key: 'n', header: { 'zh-CN': '数量', 'en-US': 'Count' }, value: () => 3 },
      ],
      [[{ name: '=HYPERLINK("x")' }, { name: 'ok' }]],
      'zh-CN',
    );
    await done;
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('log')!;
    expect(sheet.getRow(1).values).toEqual([undefined, '名称', '数量']);
    expect(sheet.getRow(2).values).toEqual([undefined, '\'=HYPERLINK("x")', 3]);
    expect(sheet.getRow(3).values).toEqual([undefined, 'ok', 3]);
  });
});
