import { writeMinimalXls } from '@voltdepot/server-spreadsheet';
import ExcelJS from 'exceljs';
import {
  aBranch,
  aCamera,
  aCard,
  aCompany,
  aFleet,
  aGun,
  aLine,
  aMaintenancePerson,
  aManufacturer,
  anAlarmCode,
  anOperator,
  aParkingSpace,
  aPeakTime,
  aPile,
  aRegion,
  aStation,
  aStopCode,
  aTransformer,
  unique,
} from '@voltdepot/server-testing';
import { bearer, DEMO_PASSWORD, errorOf } from '../fixtures/api-test-app';
import { type Auth, type Body, type Row, useAssetsTestApp } from '../fixtures/assets-test-app';
import { download, sheetRows } from '../fixtures/xlsx';

type Cells = (string | number | null)[];

const t = useAssetsTestApp();
const ids: Record<string, number> = {};
const created: Record<string, Row> = {};

async function xlsx(rows: Cells[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('import');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const upload = (kind: string, buffer: Buffer, name: string, query = '', who: Auth = t.admin) =>
  t.http().post(`/api/${kind}/import${query}`).set(who).attach('file', buffer, name);

beforeAll(async () => {
  ids['region'] = (await t.create('region', aRegion())).id;
  created['station'] = await t.create(
    'station',
    aStation(ids['region'], t.labelIds, { name: 'Sheet Depot' }),
  );
  ids['station'] = created['station'].id;
  created['company'] = await t.create('company', aCompany({ name: 'Sheet Bus Co.' }));
  created['branch'] = await t.create('branch', aBranch(created['company'].id));
  created['fleet'] = await t.create('fleet', aFleet(created['company'].id));
  created['line'] = await t.create('line', aLine(created['fleet'].id));
  const pile = await t.create('pile', aPile(ids['station']));
  created['gun'] = await t.create('gun', aGun(pile.id, { groundLockStatus: 50 }));
  created['transformer'] = await t.create('transformer', aTransformer(ids['station']));
  created['card'] = await t.create('card', aCard({ type: 2, expiryDate: '2030-06-30T16:00:00Z' }));
  created['manufacturer'] = await t.create('manufacturer', aManufacturer('car'));
  created['operator'] = await t.create('operator', anOperator({ name: '=HYPERLINK("x")' }));
  created['region'] = await t.create('region', aRegion({ name: 'Sheet region' }));
  created['label'] = t.labels.payment;
  created['parkingSpace'] = await t.create('parkingSpace', aParkingSpace(ids['station'], { type: 'social' }));
  created['camera'] = await t.create('camera', aCamera(ids['station']));
  created['alarmCode'] = await t.create('alarmCode', anAlarmCode({ level: 3, category: 'driveMotor' }));
  created['stopCode'] = await t.create('stopCode', aStopCode({ normal: false }));
  created['maintenancePersonnel'] = await t.create('maintenancePersonnel', aMaintenancePerson());
  created['peakTime'] = await t.create('peakTime', aPeakTime(ids['station'], { periodType: 'sharp' }));
});

describe('xlsx export of every basic-data grid', () => {
  /** A header each language's sheet starts with, and a cell the created row must show (by key). */
  const EXPORTS: [kind: string, zh: string, en: string, cell: (row: Body) => string][] = [
    ['company', '编号', 'Number', (r) => String(r['number'])],
    ['branch', '公司', 'Company', () => 'Sheet Bus Co.'],
    ['fleet', '公司', 'Company', (r) => String(r['number'])],
    ['line', '车队', 'Fleet', (r) => String(r['number'])],
    ['station', '编号', 'Number', () => 'Sheet Depot'],
    ['gun', '充电主机', 'Charging host', (r) => String(r['qrCode'])],
    ['transformer', '名称', 'Name', (r) => String(r['name'])],
    ['card', '物理卡号', 'Physical number', (r) => String(r['physicalNumber'])],
    ['manufacturer', '名称', 'Name', (r) => String(r['name'])],
    ['operator', '编号', 'Number', () => `'=HYPERLINK("x")`],
    ['region', '名称', 'Name', () => 'Sheet region'],
    ['label', '标签类型', 'Label type', (r) => String(r['name'])],
    ['parkingSpace', '充电站', 'Station', (r) => String(r['number'])],
    ['camera', '充电站', 'Station', (r) => String(r['code'])],
    ['alarmCode', '协议类型', 'Protocol type', (r) => String(r['code'])],
    ['stopCode', '协议类型', 'Protocol type', (r) => String(r['code'])],
    ['maintenancePersonnel', '编号', 'Number', (r) => String(r['number'])],
    ['peakTime', '充电站', 'Station', () => 'Sheet Depot'],
  ];

  it.each(EXPORTS)(
    '%s: headers in the chosen language, the rows, formula-like text escaped',
    async (kind, zh, en, cell) => {
      for (const [lang, header] of [
        ['zh-CN', zh],
        ['en-US', en],
      ] as const) {
        const res = await download(t.http().get(`/api/${kind}/export?lang=${lang}`).set(t.admin)).expect(200);
        expect(res.headers['content-type']).toBe(
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        );
        expect(res.headers['content-disposition']).toMatch(
          /^attachment; filename=".+\.xlsx"; filename\*=UTF-8''/,
        );
        const rows = await sheetRows(res.body as Buffer);
        expect(rows[0][0]).toBe(header);
        expect(rows.slice(1).some((r) => r.includes(cell(created[kind])))).toBe(true);
      }
    },
  );

  it('coded values are written by their label in the sheet’s language', async () => {
    const zh = await sheetRows(
      (await download(t.http().get('/api/alarmCode/export?lang=zh-CN').set(t.admin)).expect(200)).body,
    );
    const row = zh.find((r) => r.includes(String(created['alarmCode']['code'])))!;
    expect(row).toEqual(expect.arrayContaining(['三级', '驱动电机']));
    const en = await sheetRows(
      (await download(t.http().get('/api/card/export?lang=en-US').set(t.admin)).expect(200)).body,
    );
    const card = en.find((r) => r.includes(String(created['card']['physicalNumber'])))!;
    // Expiry in the business time zone (UTC+8).
    expect(card).toEqual(expect.arrayContaining(['Management', 'Normal', '2030-07-01 00:00:00']));
  });

  it('the export follows the grid filters and the data scope', async () => {
    const other = await t.create('company', aCompany({ name: 'Filtered out' }));
    const filtered = await sheetRows(
      (
        await download(
          t
            .http()
            .get(`/api/company/export?lang=en-US&number=${String(created['company']['number'])}`)
            .set(t.admin),
        ).expect(200)
      ).body,
    );
    expect(filtered.length).toBe(2);
    expect(filtered.flat()).not.toContain(other['name']);
    const hidden = await sheetRows(
      (await download(t.http().get('/api/camera/export?lang=en-US').set(t.maintainer)).expect(200)).body,
    );
    expect(hidden.flat()).not.toContain(created['camera']['code']);
  });

  it('needs the export button; a wrong language is a 400', async () => {
    const operator = bearer(await t.login('operator', DEMO_PASSWORD));
    await t.http().get('/api/region/export').set(operator).expect(200);
    const res = await t.http().get('/api/region/export?lang=fr-FR').set(t.admin).expect(400);
    errorOf(res.body, 'VALIDATION_FAILED');
  });
});

describe('xlsx/xls import (business-areas §5: a file must be chosen first, only xlsx or xls)', () => {
  it.each([
    ['no file', undefined, '', 400, 'A file must be chosen first'],
    [
      'a CSV',
      Buffer.from('Number,Name\nC1,A\n'),
      'companies.csv',
      400,
      'Only xlsx or xls files can be imported',
    ],
    [
      'text named .xlsx',
      Buffer.from('not a workbook'),
      'companies.xlsx',
      400,
      'Only xlsx or xls files can be imported',
    ],
  ])('%s is refused', async (_name, buffer, name, status, message) => {
    const req = t.http().post('/api/company/import').set(t.admin);
    const res = await (buffer ? req.attach('file', buffer, name) : req).expect(status);
    expect(res.body.details).toEqual([{ field: 'file', message }]);
  });

  it('a good sheet imports every row, headers in either language and any order', async () => {
    const a = unique('IC');
    const b = unique('IC');
    const res = await upload(
      'company',
      await xlsx([
        ['名称', '编号'],
        ['Imported A', a],
        ['Imported B', b],
      ]),
      'companies.xlsx',
    ).expect(201);
    expect(res.body).toMatchObject({ mode: 'all', total: 2, imported: 2, failed: 0, errors: [] });
    const page = (await t.http().get(`/api/company/page/1/size/10?number=${a}`).set(t.admin).expect(200))
      .body;
    expect(page.list[0]).toMatchObject({ number: a, name: 'Imported A' });
  });

  it('one bad row rejects the whole file: each error names row, column and message', async () => {
    const taken = String(created['company']['number']);
    const fresh = unique('IC');
    const res = await upload(
      'company',
      await xlsx([
        ['Number', 'Name'],
        [fresh, 'Fine'],
        [taken, 'Taken number'],
        ['', 'No number'],
        [unique('IC'), 'x'.repeat(33)],
        [fresh, 'Same number again'],
      ]),
      'companies.xlsx',
      '?lang=en-US',
    ).expect(422);
    expect(res.body.code).toBe('SPREADSHEET_IMPORT_REJECTED');
    expect(res.body.details.errors).toEqual([
      {
        row: 3,
        column: 'A',
        header: 'Number',
        field: 'number',
        message: `A company numbered '${taken}' already exists`,
      },
      { row: 4, column: 'A', header: 'Number', field: 'number', message: 'Number cannot be empty' },
      { row: 5, column: 'B', header: 'Name', field: 'name', message: 'Name must be 1 to 32 characters' },
      {
        row: 6,
        column: 'A',
        header: 'Number',
        field: 'number',
        message: 'Repeats row 2',
      },
    ]);
    const page = (await t.http().get(`/api/company/page/1/size/10?number=${fresh}`).set(t.admin).expect(200))
      .body;
    expect(page.total).toBe(0);
  });

  it('mode=report imports the good rows and reports the bad ones', async () => {
    const good = unique('IC');
    const res = await upload(
      'company',
      await xlsx([
        ['Number', 'Name'],
        [good, 'Good'],
        [String(created['company']['number']), 'Taken'],
      ]),
      'companies.xlsx',
      '?mode=report',
    ).expect(201);
    expect(res.body).toMatchObject({ mode: 'report', total: 2, imported: 1, failed: 1 });
    expect(res.body.errors.map((e: Body) => e['row'])).toEqual([3]);
  });

  it('references by number or name, coded values by label: table of good and bad parking-space rows', async () => {
    const station = created['station'];
    const res = await upload(
      'parkingSpace',
      await xlsx([
        ['充电站', '编号', '车位类型', '长度(米)'],
        [String(station['number']), unique('P'), '公交车位', 12.5],
        ['Sheet Depot', unique('P'), 'Social vehicle', null],
        ['No such depot', unique('P'), 'bus', null],
        [String(station['number']), unique('P'), 'Truck', null],
        [String(station['number']), unique('P'), 'bus', 'long'],
        [String(station['number']), unique('P'), 'bus', 0],
      ]),
      'spaces.xlsx',
      '?lang=en-US&mode=report',
    ).expect(201);
    expect(res.body).toMatchObject({ imported: 2, failed: 4 });
    expect(res.body.errors.map((e: Body) => [e['row'], e['column'], e['message']])).toEqual([
      [4, 'A', "No station 'No such depot'"],
      [5, 'C', 'Parking space type must be one of Bus, Social vehicle'],
      [6, 'D', 'Length (m) must be a number'],
      [7, 'D', 'Length (m) must be between 0.01 and 100'],
    ]);
    const list = (
      await t.http().get(`/api/parkingSpace/page/1/size/100?stationId=${station.id}`).set(t.admin).expect(200)
    ).body;
    expect(list.list.filter((r: Body) => r['lengthM'] === 12.5 && r['type'] === 'bus')).toHaveLength(1);
  });

  it('a station outside the caller’s data scope is not found; the import button is needed', async () => {
    const res = await upload(
      'camera',
      await xlsx([
        ['Station', 'Camera id', 'Name', 'External address'],
        ['Sheet Depot', unique('CAM'), 'Gate', 'rtsp://10.0.0.1/s'],
      ]),
      'cameras.xlsx',
      '?lang=en-US',
      t.maintainer,
    ).expect(422);
    expect(res.body.details.errors[0].message).toBe("No station 'Sheet Depot'");
    const denied = await upload(
      'alarmCode',
      await xlsx([['Code'], ['E1']]),
      'codes.xlsx',
      '',
      t.maintainer,
    ).expect(403);
    expect(denied.body.message).toBe('Missing permission: basic:alarmCode:import');
  });

  it('cards: type and status by label, expiry in UTC+8; their id tags are written', async () => {
    const physical = unique('IMP');
    await upload(
      'card',
      await xlsx([
        ['Physical number', 'Card type', 'Self number', 'Cardholder', 'Card status', 'Expiry date'],
        [physical, '司机卡', unique('S'), 'Zhao Liu', 'Normal', '2031-01-01'],
      ]),
      'cards.xlsx',
    ).expect(201);
    const page = (
      await t.http().get(`/api/card/page/1/size/10?physicalNumber=${physical}`).set(t.admin).expect(200)
    ).body;
    expect(page.list[0]).toMatchObject({ type: 0, status: 'normal', expiryDate: '2030-12-31T16:00:00.000Z' });
    const [tag] = await t.db.dataSource.query(`SELECT status FROM id_tag WHERE id_tag = $1`, [physical]);
    expect(tag.status).toBe('Accepted');
  });

  it('rules across rows hold in an import too: overlapping peak times of one station', async () => {
    const station = await t.create(
      'station',
      aStation(ids['region'], created['station']['labelIds'] as number[]),
    );
    const res = await upload(
      'peakTime',
      await xlsx([
        ['Station', 'Period type', 'Start time', 'End time'],
        [String(station['number']), 'Peak', '8:00', '11:00'],
        [String(station['number']), '尖', '10:00', '12:00'],
        [String(station['number']), 'valley', '22:00', '24:00'],
      ]),
      'peak.xlsx',
      '?lang=en-US',
    ).expect(422);
    expect(res.body.details.errors).toHaveLength(1);
    expect(res.body.details.errors[0]).toMatchObject({ row: 3, field: 'startTime' });
    expect(res.body.details.errors[0].message).toMatch(/^The period overlaps 08:00-11:00/);
    const none = (
      await t.http().get(`/api/peakTime/page/1/size/10?stationId=${station.id}`).set(t.admin).expect(200)
    ).body;
    expect(none.total).toBe(0);
  });

  it('stop codes with yes/no labels, and an Excel 97-2003 .xls file', async () => {
    const code = unique('X');
    const res = await upload(
      'stopCode',
      writeMinimalXls([
        ['Protocol type', 'Code', 'Name', 'Stop type'],
        ['ocpp1.6', code, 'Emergency stop', '异常停止'],
      ]),
      'codes.xls',
    ).expect(201);
    expect(res.body.imported).toBe(1);
    const page = (await t.http().get(`/api/stopCode/page/1/size/10?code=${code}`).set(t.admin).expect(200))
      .body;
    expect(page.list[0]).toMatchObject({ code, normal: false, name: 'Emergency stop' });
  });

  it('a fleet’s branch is found within the row’s company', async () => {
    const company = created['company'];
    const branch = created['branch'];
    const fleetNumber = unique('F');
    await upload(
      'fleet',
      await xlsx([
        ['Company', 'Branch', 'Number', 'Name'],
        [String(company['number']), String(branch['number']), fleetNumber, 'Imported fleet'],
      ]),
      'fleets.xlsx',
    ).expect(201);
    const page = (
      await t.http().get(`/api/fleet/page/1/size/10?number=${fleetNumber}`).set(t.admin).expect(200)
    ).body;
    expect(page.list[0]).toMatchObject({ companyId: company.id, branchId: branch.id });
    const other = await t.create('company', aCompany());
    const res = await upload(
      'fleet',
      await xlsx([
        ['Company', 'Branch', 'Number', 'Name'],
        [String(other['number']), String(branch['number']), unique('F'), 'Wrong branch'],
      ]),
      'fleets.xlsx',
    ).expect(422);
    expect(res.body.details.errors[0].message).toBe(
      `No branch '${String(branch['number'])}' in the row's company`,
    );
  });

  it('a filled-in vehicle template imports (its own import reads the marked headers)', async () => {
    const res = await download(t.http().get('/api/vehicle/import/template?lang=zh-CN').set(t.admin)).expect(
      200,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.body as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).getCell(1).text).toBe('车架号*');
    const plate = unique('闽A');
    const row = sheet.getRow(2);
    row.getCell(1).value = 'LSVAB1234KL123456';
    row.getCell(2).value = plate;
    row.getCell(3).value = String(created['manufacturer']['name']);
    row.commit();
    const filled = Buffer.from(await workbook.xlsx.writeBuffer());
    const imported = await upload('vehicle', filled, 'vehicles.xlsx').expect(201);
    expect(imported.body).toEqual({ mode: 'all', total: 1, imported: 1, failed: 0, errors: [] });
    const page = (
      await t
        .http()
        .get(`/api/vehicle/page/1/size/10?plate=${encodeURIComponent(plate)}`)
        .set(t.admin)
        .expect(200)
    ).body;
    expect(page.list[0]).toMatchObject({ vin: 'LSVAB1234KL123456', plate });
  });

  it('the template names the import columns, required ones marked with *', async () => {
    const res = await download(
      t.http().get('/api/parkingSpace/import/template?lang=en-US').set(t.admin),
    ).expect(200);
    const [header] = await sheetRows(res.body as Buffer);
    expect(header).toEqual([
      'Station*',
      'Number*',
      'Parking space type*',
      'Length (m)',
      'Transverse distance (m)',
      'Vertical distance (m)',
    ]);
  });
});
