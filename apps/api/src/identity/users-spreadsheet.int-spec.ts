import { writeMinimalXls } from '@voltdepot/server-spreadsheet';
import { insertRole, organizationId } from '@voltdepot/server-testing';
import type { GridPage, SessionTokens } from '@voltdepot/shared-contracts';
import type { RoleView, UserView } from '@voltdepot/server-identity';
import ExcelJS from 'exceljs';
import { randomUUID } from 'node:crypto';
import {
  ADMIN_PASSWORD,
  ApiTestApp,
  bearer,
  DEMO_PASSWORD,
  errorOf,
  startApiTestApp,
} from '../fixtures/api-test-app';
import { binary } from '../fixtures/xlsx';

type Cell = string | number | null;
type Report = {
  mode: 'all';
  total: number;
  imported: number;
  failed: number;
  errors: { row: number; column: string | null; header: string | null; field: string; message: string }[];
};

const EN_HEADER = [
  'User name',
  'Real name',
  'Initial password',
  'Phone',
  'Email',
  'Organization code',
  'Role codes',
  'Status',
];

async function sheetOf(buffer: Buffer): Promise<ExcelJS.Worksheet> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(buffer as unknown as ArrayBuffer);
  return book.worksheets[0];
}

async function rowsOf(buffer: Buffer): Promise<string[][]> {
  const rows: string[][] = [];
  (await sheetOf(buffer)).eachRow((row) =>
    rows.push(Array.from((row.values as unknown[]).slice(1), (v) => (v == null ? '' : String(v)))),
  );
  return rows;
}

async function xlsx(rows: Cell[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('users');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('users as spreadsheets: export, template, import (real files through HTTP)', () => {
  let t: ApiTestApp;
  let admin: SessionTokens;
  let roles: Record<string, number>;

  const importFile = (file: Buffer, name: string, query: Record<string, string> = {}, who = admin) =>
    t.http().post('/api/user/import').query(query).set(bearer(who)).attach('file', file, name);
  const userCount = async () =>
    (
      (await t.http().get('/api/user/page/1/size/1').set(bearer(admin)).expect(200))
        .body as GridPage<UserView>
    ).total;
  const userNamed = async (username: string) =>
    (
      (await t.http().get('/api/user/page/1/size/10').query({ username }).set(bearer(admin)).expect(200))
        .body as GridPage<UserView>
    ).list.find((u) => u.username === username);

  beforeAll(async () => {
    t = await startApiTestApp();
    admin = await t.login('admin', ADMIN_PASSWORD);
    const all = (await t.http().get('/api/role/all').set(bearer(admin)).expect(200)).body as RoleView[];
    roles = Object.fromEntries(all.map((r) => [r.code, r.id]));
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('export', () => {
    beforeAll(async () => {
      await t
        .http()
        .post('/api/user')
        .set(bearer(admin))
        .send({
          username: 'sheet.formula',
          password: 'Secret123',
          realName: '=HYPERLINK("http://evil")',
          phone: '+86 138',
          organizationId: 3,
          enabled: false,
          roleIds: [roles['maintainer'], roles['operator']],
        })
        .expect(201);
    });

    it('streams the filtered list with Chinese headers, labels, codes and escaped cells', async () => {
      const res = await t
        .http()
        .get('/api/user/export')
        .query({ username: 'sheet.formula', lang: 'zh-CN' })
        .set(bearer(admin))
        .buffer(true)
        .parse(binary)
        .expect(200);
      expect(res.headers['content-type']).toBe(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="____.xlsx"; filename*=UTF-8''${encodeURIComponent('用户列表.xlsx')}`,
      );
      const rows = await rowsOf(res.body as Buffer);
      expect(rows[0]).toEqual([
        '用户名',
        '姓名',
        '手机号',
        '邮箱',
        '组织机构编码',
        '组织机构',
        '角色编码',
        '状态',
        '最近登录',
        '创建时间',
      ]);
      expect(rows).toHaveLength(2);
      expect(rows[1].slice(0, 8)).toEqual([
        'sheet.formula',
        '\'=HYPERLINK("http://evil")',
        "'+86 138",
        '',
        'HF',
        'Hefei Bus Depot',
        'maintainer,operator',
        '停用',
      ]);
      expect(rows[1][9]).not.toBe('');
    });

    it('writes English headers and labels, and only users inside the caller’s data scope', async () => {
      // A Fuzhou clerk who may read users; their role has no data authorisation (own subtree only).
      const roleId = await insertRole(t.db.dataSource, 'fz_clerk', ['sys:user:query']);
      await t
        .http()
        .post('/api/user')
        .set(bearer(admin))
        .send({
          username: 'clerk',
          password: 'Secret123',
          realName: 'Clerk',
          organizationId: await organizationId(t.db.dataSource, 'FZ'),
          roleIds: [roleId],
        })
        .expect(201);
      const clerk = await t.login('clerk', 'Secret123');
      const res = await t
        .http()
        .get('/api/user/export')
        .query({ lang: 'en-US' })
        .set(bearer(clerk))
        .buffer(true)
        .parse(binary)
        .expect(200);
      expect(res.headers['content-disposition']).toContain('filename="users.xlsx"');
      const rows = await rowsOf(res.body as Buffer);
      expect(rows[0].slice(0, 3)).toEqual(['User name', 'Real name', 'Phone']);
      const names = rows.slice(1).map((r) => r[0]);
      // The clerk sees the Fuzhou subtree only: no Hefei users, no admin at the root.
      expect(names).toContain('clerk');
      expect(names).not.toContain('sheet.formula');
      expect(names).not.toContain('admin');
      expect(rows.slice(1).every((r) => ['FZ', 'FZ-N'].includes(r[4]))).toBe(true);
    });

    it.each([
      ['an unknown language', { lang: 'fr' }],
      ['a bad status filter', { enabled: 'perhaps' }],
    ])('refuses %s with 400', async (_name, query) => {
      errorOf(
        (await t.http().get('/api/user/export').query(query).set(bearer(admin)).expect(400)).body,
        'VALIDATION_FAILED',
      );
    });
  });

  describe('template and import', () => {
    it('the template names the import’s columns (required ones starred) and imports once filled in', async () => {
      const res = await t
        .http()
        .get('/api/user/import/template')
        .query({ lang: 'en-US' })
        .set(bearer(admin))
        .buffer(true)
        .parse(binary)
        .expect(200);
      expect(res.headers['content-disposition']).toContain('filename="user-import-template.xlsx"');
      const sheet = await sheetOf(res.body as Buffer);
      const rows = await rowsOf(res.body as Buffer);
      expect(rows[0]).toEqual([
        'User name*',
        'Real name*',
        'Initial password*',
        'Phone',
        'Email',
        'Organization code*',
        'Role codes',
        'Status',
      ]);
      expect(JSON.stringify(sheet.getCell('H1').note)).toContain('One of: Enabled, Disabled');
      expect(rows[1][0]).toBe('zhang.san');

      // Fill the downloaded template in and send it back.
      sheet.getCell('A2').value = 'from.template';
      const filled = Buffer.from(await sheet.workbook.xlsx.writeBuffer());
      const report = (await importFile(filled, 'template.xlsx').expect(200)).body as Report;
      expect(report).toEqual({ mode: 'all', total: 1, imported: 1, failed: 0, errors: [] });
      expect(await userNamed('from.template')).toMatchObject({
        realName: '张三',
        organizationName: 'Fuzhou Bus Depot',
        roleIds: [roles['operator']],
        enabled: true,
      });
      await t.login('from.template', 'Change@123');
    });

    it('all-or-nothing: one bad row rejects the file, each error naming row and column', async () => {
      const before = await userCount();
      const file = await xlsx([
        EN_HEADER,
        ['good.one', 'Good', 'Secret123', '13800000001', 'good@example.com', 'FZ', 'operator', 'Enabled'],
        ['bad.email', 'Bad', 'Secret123', null, 'not-an-email', 'FZ', null, null],
        ['admin', 'Taken', 'Secret123', null, null, 'NOPE', 'operator,ghost', 'maybe'],
        ['good.one', 'Again', '123', null, null, 'HF', null, '停用'],
        [null, null, null, null, null, null, null, null],
        ['x', null, 'Secret123', null, null, 'FZ', null, null],
      ]);
      const res = await importFile(file, 'users.xlsx', { lang: 'en-US' }).expect(422);
      const error = errorOf(res.body, 'SPREADSHEET_IMPORT_REJECTED');
      expect(error.message).toBe('4 row(s) have errors; nothing was imported');
      const report = error.details as Report;
      expect(report).toMatchObject({ mode: 'all', total: 5, imported: 0, failed: 4 });
      expect(report.errors).toEqual([
        {
          row: 3,
          column: 'E',
          header: 'Email',
          field: 'email',
          message: 'Invalid email',
        },
        {
          row: 4,
          column: 'F',
          header: 'Organization code',
          field: 'organizationCode',
          message: "No organization with code 'NOPE' inside your data scope",
        },
        {
          row: 4,
          column: 'G',
          header: 'Role codes',
          field: 'roleCodes',
          message: "No role with code 'ghost'",
        },
        {
          row: 4,
          column: 'H',
          header: 'Status',
          field: 'enabled',
          message: 'Expected one of: Enabled, Disabled',
        },
        {
          row: 5,
          column: 'C',
          header: 'Initial password',
          field: 'password',
          message: 'Password must have at least 6 characters',
        },
        {
          row: 7,
          column: 'A',
          header: 'User name',
          field: 'username',
          message: 'String must contain at least 3 character(s)',
        },
        { row: 7, column: 'B', header: 'Real name', field: 'realName', message: 'Real name is required' },
      ]);
      expect(await userCount()).toBe(before);
      expect(await userNamed('good.one')).toBeUndefined();
    });

    it('finds duplicates within the file and against existing users, in Chinese headers', async () => {
      const file = await xlsx([
        ['用户名*', '姓名*', '初始密码*', '组织机构编码*'],
        ['dup.user', '甲', 'Secret123', 'FZ'],
        ['DUP.user', '乙', 'Secret123', 'FZ'],
        ['operator', '丙', 'Secret123', 'FZ'],
      ]);
      const error = errorOf(
        (await importFile(file, '用户.xlsx').expect(422)).body,
        'SPREADSHEET_IMPORT_REJECTED',
      );
      expect((error.details as Report).errors).toEqual([
        {
          row: 3,
          column: 'A',
          header: '用户名',
          field: 'username',
          message: 'Repeats the user name of row 2',
        },
        {
          row: 4,
          column: 'A',
          header: '用户名',
          field: 'username',
          message: "User name 'operator' is already taken",
        },
      ]);
    });

    it('a file with one bad row imports none of its good rows; a clean file imports all; progress can be polled', async () => {
      const before = await userCount();
      const rows = [
        ['report.ok1', 'Ok 1', 'Secret123', null, null, 'HF', 'maintainer', 'Disabled'],
        ['report.bad', 'Bad', 'Secret123', null, null, 'NOPE', null, null],
        ['report.ok2', 'Ok 2', 'Secret456', null, null, 'fz-n', 'fleet_manager operator', null],
      ];
      const rejectedId = randomUUID();
      const rejected = await importFile(await xlsx([EN_HEADER, ...rows]), 'users.xlsx', {
        lang: 'en-US',
        progressId: rejectedId,
      }).expect(422);
      const error = errorOf(rejected.body, 'SPREADSHEET_IMPORT_REJECTED');
      expect(error.message).toBe('1 row(s) have errors; nothing was imported');
      expect(error.details).toMatchObject({ mode: 'all', total: 3, imported: 0, failed: 1 });
      expect((error.details as Report).errors.map((e) => [e.row, e.column])).toEqual([[3, 'F']]);
      expect(await userCount()).toBe(before);
      expect(await userNamed('report.ok1')).toBeUndefined();
      expect(
        (await t.http().get(`/api/user/import/progress/${rejectedId}`).set(bearer(admin)).expect(200)).body,
      ).toMatchObject({ phase: 'failed' });

      const progressId = randomUUID();
      const report = (
        await importFile(await xlsx([EN_HEADER, rows[0], rows[2]]), 'users.xlsx', {
          lang: 'en-US',
          progressId,
        }).expect(200)
      ).body as Report;
      expect(report).toEqual({ mode: 'all', total: 2, imported: 2, failed: 0, errors: [] });
      expect(await userCount()).toBe(before + 2);
      expect(await userNamed('report.ok1')).toMatchObject({ enabled: false, roleIds: [roles['maintainer']] });
      expect(await userNamed('report.ok2')).toMatchObject({
        organizationName: 'Fuzhou North Yard',
        roleIds: [roles['operator'], roles['fleet_manager']].sort((a, b) => a - b),
      });
      await t.login('report.ok2', 'Secret456');

      expect(
        (await t.http().get(`/api/user/import/progress/${progressId}`).set(bearer(admin)).expect(200)).body,
      ).toEqual({ phase: 'done', processed: 2, total: 2 });
      // Progress is the importer's own: another administrator does not see it.
      await t
        .http()
        .post('/api/user')
        .set(bearer(admin))
        .send({
          username: 'second.admin',
          password: 'Secret123',
          realName: 'Second',
          organizationId: 1,
          roleIds: [roles['admin']],
        })
        .expect(201);
      const other = await t.login('second.admin', 'Secret123');
      errorOf(
        (await t.http().get(`/api/user/import/progress/${progressId}`).set(bearer(other)).expect(404)).body,
        'NOT_FOUND',
      );
    });

    it('reads Excel 97-2003 (.xls) files', async () => {
      const file = writeMinimalXls([
        ['用户名', '姓名', '初始密码', '组织机构编码', '角色编码', '状态'],
        ['xls.user', '旧格式', 'Secret123', 'FZ', 'operator', '启用'],
        ['xls.phone', 'Phone', 'Secret123', 'FZ', null, null],
      ]);
      const report = (await importFile(file, 'old.xls').expect(200)).body as Report;
      expect(report).toMatchObject({ total: 2, imported: 2, failed: 0 });
      expect(await userNamed('xls.user')).toMatchObject({ realName: '旧格式', roleIds: [roles['operator']] });
      await t.login('xls.phone', 'Secret123');
    });

    it('only the holders of sys:user:add import', async () => {
      const operator = await t.login('operator', DEMO_PASSWORD);
      const file = await xlsx([EN_HEADER, ['nope.user', 'No', 'Secret123', null, null, 'FZ', null, null]]);
      const res = await importFile(file, 'users.xlsx', {}, operator).expect(403);
      expect(errorOf(res.body, 'FORBIDDEN').message).toBe('Missing permission: sys:user:add');
    });

    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(64, 7)]);
    it.each<
      [
        string,
        () => Promise<Buffer> | Buffer,
        string,
        Record<string, string>,
        number,
        string,
        string | RegExp,
      ]
    >([
      [
        'no file',
        () => Buffer.alloc(0),
        '',
        {},
        400,
        'VALIDATION_FAILED',
        'file: A file must be chosen first',
      ],
      [
        'a CSV',
        () => Buffer.from('User name,Real name\na,b\n'),
        'users.csv',
        {},
        400,
        'VALIDATION_FAILED',
        'file: Only xlsx or xls files can be imported',
      ],
      [
        'text renamed to .xlsx (magic bytes)',
        () => Buffer.from('User name\nabc\n'),
        'users.xlsx',
        {},
        400,
        'VALIDATION_FAILED',
        'file: Only xlsx or xls files can be imported',
      ],
      [
        'a file over 2 MB',
        () => Buffer.alloc(2 * 1024 * 1024 + 1, 0x50),
        'users.xlsx',
        {},
        413,
        'PAYLOAD_TOO_LARGE',
        /large/i,
      ],
      [
        'a ZIP that is no workbook',
        () => zip,
        'users.xlsx',
        {},
        422,
        'SPREADSHEET_UNREADABLE',
        'The file is not a readable .xlsx workbook',
      ],
      [
        'a damaged .xls',
        () =>
          Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(100)]),
        'users.xls',
        {},
        422,
        'SPREADSHEET_UNREADABLE',
        /^The \.xls workbook cannot be read/,
      ],
      [
        'missing required columns',
        () =>
          xlsx([
            ['User name', 'Phone'],
            ['a.b.c', '1'],
          ]),
        'users.xlsx',
        { lang: 'en-US' },
        422,
        'SPREADSHEET_IMPORT_REJECTED',
        'The first row must name the columns; missing: Real name, Initial password, Organization code',
      ],
      [
        'no data rows',
        () => xlsx([EN_HEADER]),
        'users.xlsx',
        {},
        422,
        'SPREADSHEET_IMPORT_REJECTED',
        'The file has no data rows',
      ],
      [
        'more than 1000 rows',
        () =>
          xlsx([
            EN_HEADER,
            ...Array.from({ length: 1001 }, (_, i) => [
              `bulk.${i}`,
              'B',
              'Secret123',
              null,
              null,
              'FZ',
              null,
              null,
            ]),
          ]),
        'users.xlsx',
        {},
        422,
        'SPREADSHEET_IMPORT_REJECTED',
        'At most 1000 rows can be imported at a time',
      ],
      [
        'the former report mode (imports are all or nothing)',
        () => xlsx([EN_HEADER, ['mode.report', 'M', 'Secret123', null, null, 'FZ', null, null]]),
        'users.xlsx',
        { mode: 'report' },
        400,
        'VALIDATION_FAILED',
        /Unrecognized key.*mode/,
      ],
      [
        'a progress id that is no UUID',
        () => xlsx([EN_HEADER]),
        'users.xlsx',
        { progressId: '42' },
        400,
        'VALIDATION_FAILED',
        /progressId: Expected a UUID/,
      ],
    ])('%s -> %d', async (_name, make, fileName, query, status, code, message) => {
      const before = await userCount();
      const body = await make();
      let req = t.http().post('/api/user/import').query(query).set(bearer(admin));
      req = fileName === '' ? req.field('other', 'x') : req.attach('file', body, fileName);
      const res = await req.expect(status);
      const error = errorOf(res.body, code);
      const text = `${error.message} ${JSON.stringify(error.details ?? '')}`;
      if (typeof message === 'string') expect(text).toContain(message);
      else expect(text).toMatch(message);
      expect(await userCount()).toBe(before);
    });
  });
});
