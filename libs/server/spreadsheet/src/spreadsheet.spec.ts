import ExcelJS from 'exceljs';
import { PassThrough } from 'node:stream';
import { attachmentDisposition, columnLetter, escapeCell, unescapeCell } from './cells';
import { dictionaryLabel, dictionaryValue, type SpreadsheetColumn } from './columns';
import { sheetDateTime } from './date-time';
import { type ImportProgress, runImport } from './import-runner';
import { readSheet } from './sheet-reader';
import { SpreadsheetException } from './spreadsheet.exception';
import { checkSpreadsheetUpload, sniffSpreadsheet } from './upload';
import { readXlsFirstSheet, XlsFormatError } from './xls/biff8';
import { writeMinimalXls } from './xls/xls-writer';
import { writeTemplate, writeXlsx } from './xlsx-writer';

type Person = { name: string; state: string; count: number | null };

const STATES = [
  { value: '1', label: { 'zh-CN': '启用', 'en-US': 'Enabled' } },
  { value: '0', label: { 'zh-CN': '停用', 'en-US': 'Disabled' } },
];
const COLUMNS: SpreadsheetColumn<Person>[] = [
  { key: 'name', header: { 'zh-CN': '名称', 'en-US': 'Name' }, required: true },
  { key: 'state', header: { 'zh-CN': '状态', 'en-US': 'State' }, dictionary: STATES },
  { key: 'count', header: { 'zh-CN': '数量', 'en-US': 'Count' } },
];

async function collect(write: (out: PassThrough) => Promise<unknown>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((resolve) => out.on('end', resolve));
  await write(out);
  out.end();
  await ended;
  return Buffer.concat(chunks);
}

async function load(buffer: Buffer): Promise<ExcelJS.Worksheet> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(buffer as unknown as ArrayBuffer);
  return book.worksheets[0];
}

async function xlsx(rows: (string | number | null)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('s');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('cells', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+86 138', "'+86 138"],
    ['-5', "'-5"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['plain', 'plain'],
    [42, 42],
    [true, true],
    [null, null],
    [undefined, null],
  ])('escapeCell(%j) -> %j, and reading it back gives the text', (input, expected) => {
    expect(escapeCell(input)).toEqual(expected);
    if (typeof expected === 'string') expect(unescapeCell(expected)).toBe(input);
  });

  it('leaves a quote that protects nothing alone', () => {
    expect(unescapeCell("'quoted'")).toBe("'quoted'");
  });

  it('names a download in ASCII and in UTF-8', () => {
    expect(attachmentDisposition('操作日志.xlsx')).toBe(
      `attachment; filename="____.xlsx"; filename*=UTF-8''%E6%93%8D%E4%BD%9C%E6%97%A5%E5%BF%97.xlsx`,
    );
    expect(attachmentDisposition('a"b\\c.xlsx')).toContain('filename="a_b_c.xlsx"');
  });

  it.each([
    [1, 'A'],
    [26, 'Z'],
    [27, 'AA'],
    [703, 'AAA'],
  ])('column %d is %s', (n, letters) => expect(columnLetter(n)).toBe(letters));

  it('dictionary labels go both ways, in either language, case-insensitively', () => {
    expect(dictionaryLabel(STATES, '1', 'zh-CN')).toBe('启用');
    expect(dictionaryLabel(STATES, 0, 'en-US')).toBe('Disabled');
    expect(dictionaryLabel(STATES, '9', 'en-US')).toBe('9');
    expect(dictionaryValue(STATES, '停用')).toBe('0');
    expect(dictionaryValue(STATES, ' enabled ')).toBe('1');
    expect(dictionaryValue(STATES, '1')).toBe('1');
    expect(dictionaryValue(STATES, 'maybe')).toBeUndefined();
  });
});

describe('sheetDateTime', () => {
  it('writes an instant as wall-clock time of the business zone, and no value as null', () => {
    expect(sheetDateTime('2026-11-20T16:05:09.000Z')).toBe('2026-11-21 00:05:09');
    expect(sheetDateTime(new Date('2026-11-21T00:00:00Z'), 'UTC')).toBe('2026-11-21 00:00:00');
    expect(sheetDateTime('2026-11-21T00:00:00+08:00', 'Europe/Berlin')).toBe('2026-11-20 17:00:00');
    expect(sheetDateTime(null)).toBeNull();
    expect(sheetDateTime(undefined)).toBeNull();
  });
});

describe('xlsx export', () => {
  it('streams batches with headers in the language, dictionary labels and escaped cells', async () => {
    async function* batches() {
      yield [{ name: '=HYPERLINK("x")', state: '1', count: 3 }];
      yield [
        { name: 'ok', state: '0', count: null },
        { name: 'other', state: '7', count: 0 },
      ];
    }
    let written = 0;
    const buffer = await collect(async (out) => {
      written = await writeXlsx(out, 'people', COLUMNS, batches(), 'zh-CN');
    });
    expect(written).toBe(3);
    const sheet = await load(buffer);
    expect(sheet.name).toBe('people');
    expect(sheet.getRow(1).values).toEqual([undefined, '名称', '状态', '数量']);
    expect(sheet.getRow(2).values).toEqual([undefined, '\'=HYPERLINK("x")', '启用', 3]);
    expect(sheet.getRow(3).values).toEqual([undefined, 'ok', '停用']);
    expect(sheet.getRow(4).values).toEqual([undefined, 'other', '7', 0]);
  });

  it('uses a column value function when given', async () => {
    const columns: SpreadsheetColumn<Person>[] = [
      { key: 'shout', header: { 'zh-CN': '喊', 'en-US': 'Shout' }, value: (p) => p.name.toUpperCase() },
    ];
    const sheet = await load(
      await collect((out) => writeXlsx(out, 's', columns, [[{ name: 'hi', state: '1', count: 1 }]], 'en-US')),
    );
    expect(sheet.getRow(1).values).toEqual([undefined, 'Shout']);
    expect(sheet.getRow(2).values).toEqual([undefined, 'HI']);
  });

  it('writes a template: required columns marked, notes with the accepted labels, an example row', async () => {
    const sheet = await load(
      await collect((out) =>
        writeTemplate(out, 'template', COLUMNS, 'en-US', [{ name: 'Example', state: 'Enabled' }]),
      ),
    );
    expect(sheet.getRow(1).values).toEqual([undefined, 'Name*', 'State', 'Count']);
    expect(String(sheet.getCell('A1').note)).toContain('Required');
    expect(JSON.stringify(sheet.getCell('B1').note)).toContain('One of: Enabled, Disabled');
    expect(sheet.getRow(2).values).toEqual([undefined, 'Example', 'Enabled']);
  });
});

describe('upload checks', () => {
  const file = (name: string, buffer: Buffer) => ({ originalname: name, size: buffer.length, buffer });
  const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2]);
  const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0]);

  it.each([
    ['no file', undefined, 400, 'A file must be chosen first'],
    ['an empty file', file('a.xlsx', Buffer.alloc(0)), 400, 'A file must be chosen first'],
    [
      'a CSV named .csv',
      file('a.csv', Buffer.from('a,b\n1,2')),
      400,
      'Only xlsx or xls files can be imported',
    ],
    [
      'text renamed to .xlsx',
      file('a.xlsx', Buffer.from('name\nx')),
      400,
      'Only xlsx or xls files can be imported',
    ],
    ['a workbook named .txt', file('a.txt', ZIP), 400, 'Only xlsx or xls files can be imported'],
    [
      'a file over the limit',
      file('a.xlsx', Buffer.alloc(11, 0x50)),
      413,
      'The file is larger than 10 bytes',
    ],
  ])('%s is refused', (_name, input, status, message) => {
    let error: unknown;
    try {
      checkSpreadsheetUpload(input, 10);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ httpStatus: status });
    expect(JSON.stringify(error) + String((error as Error).message)).toContain(message);
  });

  it('tells the kind by the bytes, not the name', () => {
    expect(checkSpreadsheetUpload(file('a.xls', ZIP), 100)).toBe('xlsx');
    expect(checkSpreadsheetUpload(file('a.XLSX', OLE), 100)).toBe('xls');
    expect(sniffSpreadsheet(Buffer.from('PK'))).toBeNull();
  });
});

describe('reading a sheet', () => {
  it('finds the columns by either language, key or a starred header, in any order; skips blank rows', async () => {
    const buffer = await xlsx([
      ['Count', '状态', 'Name*', 'Unknown'],
      [3, 'Enabled', "'=cmd", 'x'],
      [null, null, null, null],
      [null, '停用', 'b', null],
    ]);
    const content = await readSheet(buffer, 'xlsx', COLUMNS, 'en-US');
    expect(content.columnLetters).toEqual({ count: 'A', state: 'B', name: 'C' });
    expect(content.rows).toEqual([
      { row: 2, cells: { name: '=cmd', state: 'Enabled', count: '3' } },
      { row: 4, cells: { name: 'b', state: '停用', count: null } },
    ]);
  });

  it.each([
    [
      'a missing required column',
      [['State'], ['Enabled']],
      'The first row must name the columns; missing: Name',
    ],
    ['no data rows', [['Name']], 'The file has no data rows'],
    ['too many rows', [['Name'], ['a'], ['b'], ['c']], 'At most 2 rows can be imported at a time'],
    [
      // In the sheet's XML as Excel escapes them: ExcelJS reads `_x0000_` back as the character.
      'text PostgreSQL refuses',
      [
        ['Name', 'Count'],
        ['a_x0000_b', 1],
        ['ok', 'x_xD800_'],
      ],
      'Cell A2 must not contain a NUL character; cell B3 must not contain an unpaired UTF-16 surrogate',
    ],
  ])('refuses %s (422)', async (_name, rows, message) => {
    const error = await readSheet(await xlsx(rows), 'xlsx', COLUMNS, 'en-US', 2).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpreadsheetException);
    expect(error).toMatchObject({ httpStatus: 422, message });
  });

  it('reads a formula whose result is an error as the error, like a plain error cell', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('s');
    sheet.addRow(['Name', 'Count']);
    sheet.addRow([{ formula: '1/0', result: { error: '#DIV/0!' } }, { error: '#N/A' }]);
    sheet.addRow([{ richText: [{ text: 'ri' }, { text: 'ch' }] }, { formula: '2+3', result: 5 }]);
    const content = await readSheet(Buffer.from(await book.xlsx.writeBuffer()), 'xlsx', COLUMNS, 'en-US');
    expect(content.rows).toEqual([
      { row: 2, cells: { name: '#DIV/0!', state: null, count: '#N/A' } },
      { row: 3, cells: { name: 'rich', state: null, count: '5' } },
    ]);
  });

  it('refuses a sheet of very many rows with the row limit (422), not a stack overflow', async () => {
    const rows: string[][] = [['Name'], ...Array.from({ length: 200_000 }, () => ['a'])];
    const error = await readSheet(await xlsx(rows), 'xlsx', COLUMNS, 'en-US').catch((e: unknown) => e);
    expect(error).toMatchObject({ httpStatus: 422, message: 'At most 5000 rows can be imported at a time' });
  }, 60_000);

  it('refuses a ZIP that is no workbook (422, not a 500)', async () => {
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100)]);
    await expect(readSheet(zip, 'xlsx', COLUMNS, 'en-US')).rejects.toMatchObject({
      httpStatus: 422,
      code: 'SPREADSHEET_UNREADABLE',
    });
  });
});

describe('.xls (BIFF8) import', () => {
  it('reads strings (Chinese too), numbers and the header of an Excel 97-2003 workbook', async () => {
    const file = writeMinimalXls([
      ['名称', 'State', 'Count'],
      ['张三', 'Enabled', 12],
      ['li', null, 2.5],
    ]);
    expect(sniffSpreadsheet(file)).toBe('xls');
    const content = await readSheet(file, 'xls', COLUMNS, 'zh-CN');
    expect(content.rows).toEqual([
      { row: 2, cells: { name: '张三', state: 'Enabled', count: '12' } },
      { row: 3, cells: { name: 'li', state: null, count: '2.5' } },
    ]);
  });

  it('reads a shared string table that runs over several CONTINUE records', () => {
    const long = 'x'.repeat(3000) + '中';
    const rows = Array.from({ length: 12 }, (_, i) => [`${i}-${long}`]);
    const cells = readXlsFirstSheet(writeMinimalXls(rows));
    expect(cells.size).toBe(12);
    expect(cells.get(12)?.get(1)).toBe(`11-${long}`);
    expect(cells.get(1)?.get(1)).toBe(`0-${long}`);
  });

  it('refuses a damaged compound file instead of reading out of range', () => {
    const file = writeMinimalXls([['Name'], ['a']]);
    const broken = Buffer.from(file);
    broken.writeUInt32LE(0x7fff, 48); // the directory's first sector is beyond the end
    expect(() => readXlsFirstSheet(broken)).toThrow(XlsFormatError);
    expect(() => readXlsFirstSheet(file.subarray(0, 600))).toThrow(XlsFormatError);
  });
});

describe('runImport', () => {
  const content = {
    rows: [
      { row: 2, cells: { name: 'a', state: 'Enabled', count: null } },
      { row: 3, cells: { name: 'b', state: 'nope', count: null } },
      { row: 4, cells: { name: 'a', state: '停用', count: null } },
    ],
    columnLetters: { name: 'A', state: 'B' },
  };
  const plan = (mode: 'all' | 'report', saved: string[][], progress: ImportProgress[] = []) => ({
    content,
    columns: COLUMNS as SpreadsheetColumn<never>[],
    language: 'en-US' as const,
    mode,
    validateRow: (row: (typeof content.rows)[number], problems: { add(f: string, m: string): void }) => {
      const state = dictionaryValue(STATES, row.cells.state ?? '');
      if (state === undefined) problems.add('state', 'Not a state');
      return state === undefined ? null : { name: row.cells.name, state };
    },
    validateAll: (
      accepted: { row: number; value: { name: string } }[],
      problemsOf: (row: number) => { add(f: string, m: string): void },
    ) => {
      const seen = new Map<string, number>();
      for (const a of accepted) {
        const first = seen.get(a.value.name);
        if (first !== undefined) problemsOf(a.row).add('name', `Repeats row ${first}`);
        else seen.set(a.value.name, a.row);
      }
    },
    save: async (rows: { row: number; value: { name: string } }[], done: (n: number) => Promise<void>) => {
      saved.push(rows.map((r) => r.value.name));
      await done(rows.length);
    },
    onProgress: (p: ImportProgress) => void progress.push(p),
    progressIntervalMs: 0,
  });

  it('all-or-nothing: one bad row rejects the file, naming row, column letter and header', async () => {
    const saved: string[][] = [];
    const error = (await runImport(plan('all', saved)).catch((e: unknown) => e)) as SpreadsheetException;
    expect(error).toBeInstanceOf(SpreadsheetException);
    expect(error.message).toBe('2 row(s) have errors; nothing was imported');
    expect(error.details).toEqual({
      mode: 'all',
      total: 3,
      imported: 0,
      failed: 2,
      errors: [
        { row: 3, column: 'B', header: 'State', field: 'state', message: 'Not a state' },
        { row: 4, column: 'A', header: 'Name', field: 'name', message: 'Repeats row 2' },
      ],
    });
    expect(saved).toEqual([]);
  });

  it('report mode saves the good rows and reports the others; progress runs through the phases', async () => {
    const saved: string[][] = [];
    const progress: ImportProgress[] = [];
    const report = await runImport(plan('report', saved, progress));
    expect(saved).toEqual([['a']]);
    expect(report).toMatchObject({ mode: 'report', total: 3, imported: 1, failed: 2 });
    expect(report.errors.map((e) => e.row)).toEqual([3, 4]);
    expect(progress[0]).toEqual({ phase: 'validating', processed: 0, total: 3 });
    expect(progress).toContainEqual({ phase: 'validating', processed: 3, total: 3 });
    expect(progress).toContainEqual({ phase: 'saving', processed: 1, total: 3 });
    expect(progress.at(-1)).toEqual({ phase: 'done', processed: 3, total: 3 });
  });

  it('a failing save is reported as failed progress and rethrown', async () => {
    const progress: ImportProgress[] = [];
    const failing = {
      ...plan('report', [], progress),
      save: () => Promise.reject(new Error('database down')),
    };
    await expect(runImport(failing)).rejects.toThrow('database down');
    expect(progress.at(-1)).toEqual({ phase: 'failed', processed: 0, total: 3 });
  });
});
