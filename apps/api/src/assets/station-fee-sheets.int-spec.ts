import ExcelJS from 'exceljs';
import { aRegion, aStation, grantPermissions } from '@voltdepot/server-testing';
import { type Auth, type Body, type Row, useAssetsTestApp } from '../fixtures/assets-test-app';
import { download, sheetRows } from '../fixtures/xlsx';

type Cells = (string | number | null)[];

const t = useAssetsTestApp();
let regionId: number;
let depot: Row;
let yard: Row;

async function xlsx(rows: Cells[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('import');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const upload = (buffer: Buffer, query = '?lang=en-US', who: Auth = t.admin) =>
  t.http().post(`/api/stationFee/import${query}`).set(who).attach('file', buffer, 'fees.xlsx');

const feesOf = async (station: Row): Promise<Body> =>
  (await t.http().get(`/api/stationFee/${station.id}`).set(t.admin).expect(200)).body as Body;

const EN_HEADER = [
  'Station number',
  'Fee scope',
  'Free parking (minutes)',
  'Occupation interval (minutes)',
  'Occupation fee',
  'Occupation unit price (fen)',
  'Capped amount (fen)',
  'Service fee free',
  'Service fee (fen/kWh)',
];

beforeAll(async () => {
  regionId = (await t.create('region', aRegion())).id;
  depot = await t.create('station', aStation(regionId, t.labelIds, { name: 'Fee Depot', serviceFeeFen: 80 }));
  yard = await t.create('station', aStation(regionId, t.labelIds, { name: 'Fee Yard' }));
});

describe('station fee settings: xlsx export', () => {
  it.each([
    ['zh-CN', ['充电站编号', '充电站名称', '收费范围', '免费停车(分钟)'], '内部'],
    ['en-US', ['Station number', 'Station name', 'Fee scope', 'Free parking (minutes)'], 'Internal'],
  ])(
    '%s: headers in the language, one row per station with its fee settings',
    async (lang, header, scope) => {
      const res = await download(
        t
          .http()
          .get(`/api/stationFee/export?lang=${lang}&number=${String(depot['number'])}`)
          .set(t.admin),
      ).expect(200);
      expect(res.headers['content-type']).toBe(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename=".+\.xlsx"/);
      const rows = await sheetRows(res.body as Buffer);
      expect(rows[0].slice(0, 4)).toEqual(header);
      expect(rows).toHaveLength(2);
      expect(rows[1].slice(0, 8)).toEqual([
        String(depot['number']),
        'Fee Depot',
        scope,
        '30',
        '15',
        lang === 'zh-CN' ? '否' : 'No',
        '100',
        '5000',
      ]);
      expect(rows[1][9]).toBe('80');
    },
  );

  it('needs basic:stationFee:export and follows the data scope', async () => {
    const hidden = await sheetRows(
      (await download(t.http().get('/api/stationFee/export?lang=en-US').set(t.maintainer)).expect(200)).body,
    );
    expect(hidden.flat()).not.toContain(String(depot['number']));
    await t.db.dataSource.query(
      `DELETE FROM sys_role_resource WHERE role_id = (SELECT id FROM sys_role WHERE code = 'maintainer')
          AND resource_id = (SELECT id FROM sys_resource WHERE code = 'basic:stationFee:export')`,
    );
    const denied = await t.http().get('/api/stationFee/export').set(t.maintainer).expect(403);
    expect(denied.body.message).toBe('Missing permission: basic:stationFee:export');
  });
});

describe('station fee settings: xlsx import (changes existing stations by number, all or nothing)', () => {
  it('a good sheet changes the fee settings of the stations it names, and nothing else of them', async () => {
    const res = await upload(
      await xlsx([
        EN_HEADER,
        [String(depot['number']), 'External', 10, 30, 'Yes', 250, 9000, 'No', 120],
        [String(yard['number']), '内部', 0, 60, '否', 0, 0, 'Yes', null],
      ]),
    ).expect(201);
    expect(res.body).toMatchObject({ mode: 'all', total: 2, imported: 2, failed: 0, errors: [] });
    expect(await feesOf(depot)).toMatchObject({
      feeScope: 'external',
      freeParkingMinutes: 10,
      occupationIntervalMinutes: 30,
      occupationFeeEnabled: true,
      occupationUnitPriceFen: 250,
      cappedAmountFen: 9000,
      serviceFeeFree: false,
      serviceFeeFen: 120,
    });
    expect(await feesOf(yard)).toMatchObject({
      feeScope: 'internal',
      occupationIntervalMinutes: 60,
      serviceFeeFree: true,
    });
    const station = (await t.http().get(`/api/station/${depot.id}`).set(t.admin).expect(200)).body;
    expect(station).toMatchObject({ name: 'Fee Depot', number: depot['number'] });
  });

  it('one bad row rejects the file: each error names row, column and problem; nothing changes', async () => {
    const before = await feesOf(yard);
    const res = await upload(
      await xlsx([
        EN_HEADER,
        [String(yard['number']), 'External', 5, 15, 'No', 100, 100, 'No', 10],
        ['NO-SUCH-STATION', 'External', 5, 15, 'No', 100, 100, 'No', 10],
        [String(depot['number']), 'Everywhere', 5, 15, 'No', 100, 100, 'No', 10],
        [String(depot['number']), 'Internal', 5, 0, 'No', 100, 100, 'No', 10],
        [String(depot['number']), 'Internal', 'many', 15, 'No', 100, 100, 'No', 10],
        [String(yard['number']), 'Internal', 5, 15, 'No', 100, 100, 'No', 10],
        [null, 'Internal', 5, 15, 'No', 100, 100, 'No', 10],
      ]),
    ).expect(422);
    expect(res.body.code).toBe('SPREADSHEET_IMPORT_REJECTED');
    expect(res.body.details).toMatchObject({ mode: 'all', total: 7, imported: 0 });
    expect(res.body.details.errors.map((e: Body) => [e['row'], e['column'], e['message']])).toEqual([
      [3, 'A', "No station 'NO-SUCH-STATION'"],
      [4, 'B', 'Fee scope must be one of Internal, External'],
      [5, 'D', expect.stringMatching(/^Occupation interval minutes must be/)],
      [6, 'C', expect.stringMatching(/^Free parking minutes must be/)],
      [7, 'A', 'Repeats row 2'],
      [8, 'A', 'Station number cannot be empty'],
    ]);
    expect(await feesOf(yard)).toEqual(before);
  });

  it('the import button is needed; a station outside the data scope is not found', async () => {
    const sheet = await xlsx([
      EN_HEADER,
      [String(depot['number']), 'Internal', 0, 15, 'No', 0, 0, 'No', null],
    ]);
    // Maintainers read and export the fee settings; only those who edit them import.
    const denied = await upload(sheet, '', t.maintainer).expect(403);
    expect(denied.body.message).toBe('Missing permission: basic:stationFee:import');
    await grantPermissions(t.db.dataSource, 'maintainer', ['basic:stationFee:import']);
    const res = await upload(sheet, '?lang=en-US', t.maintainer).expect(422);
    expect(res.body.details.errors).toEqual([
      expect.objectContaining({ row: 2, column: 'A', message: `No station '${String(depot['number'])}'` }),
    ]);
  });

  it('the template has the import columns (no station name), required ones marked with *', async () => {
    const res = await download(
      t.http().get('/api/stationFee/import/template?lang=en-US').set(t.admin),
    ).expect(200);
    const [header] = await sheetRows(res.body as Buffer);
    expect(header.slice(0, 3)).toEqual(['Station number*', 'Fee scope*', 'Free parking (minutes)*']);
    expect(header).not.toContain('Station name');
  });
});

describe('unknown charging piles: xlsx export', () => {
  beforeAll(async () => {
    await t.db.dataSource.query(
      `INSERT INTO unknown_pile_attempt (charge_point_id, remote_address, attempts, first_seen_at, last_seen_at)
       VALUES ('UNKNOWN-XLSX', '10.1.0.1', 2, '2025-03-01T00:00:00Z', '2025-03-01T01:00:00Z'),
              ('UNKNOWN-XLSX', '10.1.0.2', 1, '2025-03-01T00:30:00Z', '2025-03-01T02:00:00Z')`,
    );
  });

  it.each([
    ['zh-CN', ['充电桩标识', '来源地址', '尝试次数', '首次出现', '最近出现']],
    ['en-US', ['Charge point id', 'Remote addresses', 'Attempts', 'First seen', 'Last seen']],
  ])('%s: headers in the language; one row per charge point, times in UTC+8', async (lang, header) => {
    const res = await download(t.http().get(`/api/pile/unknown/export?lang=${lang}`).set(t.admin)).expect(
      200,
    );
    const rows = await sheetRows(res.body as Buffer);
    expect(rows[0]).toEqual(header);
    expect(rows.filter((r) => r[0] === 'UNKNOWN-XLSX')).toEqual([
      ['UNKNOWN-XLSX', '10.1.0.2, 10.1.0.1', '3', '2025-03-01 08:00:00', '2025-03-01 10:00:00'],
    ]);
  });

  it('needs basic:host:unknown:export (maintainers hold it with the list); a wrong language is a 400', async () => {
    await t.http().get('/api/pile/unknown/export').set(t.maintainer).expect(200);
    await t.http().get('/api/pile/unknown/export?lang=fr-FR').set(t.admin).expect(400);
    await t.db.dataSource.query(
      `DELETE FROM sys_role_resource WHERE role_id = (SELECT id FROM sys_role WHERE code = 'maintainer')
          AND resource_id = (SELECT id FROM sys_resource WHERE code = 'basic:host:unknown:export')`,
    );
    const denied = await t.http().get('/api/pile/unknown/export').set(t.maintainer).expect(403);
    expect(denied.body.message).toBe('Missing permission: basic:host:unknown:export');
  });
});
