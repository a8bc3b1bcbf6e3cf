import ExcelJS from 'exceljs';
import {
  aCompany,
  aFleet,
  aLabel,
  aLine,
  aManufacturer,
  aPile,
  aRegion,
  aStation,
  aVehicle,
  aVin,
  unique,
} from '@voltdepot/server-testing';
import { ADMIN_PASSWORD, ApiTestApp, bearer, errorOf, startApiTestApp } from '../fixtures/api-test-app';
import { binary } from '../fixtures/xlsx';

type Body = Record<string, unknown>;

async function sheetRows(buffer: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  const rows: string[][] = [];
  workbook.worksheets[0].eachRow((row) => {
    rows.push(
      // row.values is sparse: empty cells are holes, which map() would skip.
      Array.from((row.values as unknown[]).slice(1), (v) => (v === null || v === undefined ? '' : String(v))),
    );
  });
  return rows;
}

async function workbook(rows: (string | number | null)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('vehicles');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('charging assets: xlsx export and vehicle import', () => {
  let t: ApiTestApp;
  let admin: { authorization: string };
  const ids: Record<string, number> = {};
  const names: Record<string, string> = {};

  async function post(path: string, body: Body): Promise<Body & { id: number }> {
    const res = await t.http().post(path).set(admin).send(body);
    if (res.status !== 201) throw new Error(`${path} -> ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Body & { id: number };
  }

  async function vehicleCount(): Promise<number> {
    return (await t.http().get('/api/vehicle/page/1/size/1').set(admin).expect(200)).body.total as number;
  }

  beforeAll(async () => {
    t = await startApiTestApp();
    admin = bearer(await t.login('admin', ADMIN_PASSWORD));
    const labelIds: number[] = [];
    for (const type of ['payment', 'nationalStandard', 'chargingType'])
      labelIds.push((await post('/api/label', aLabel(type))).id);
    const region = await post('/api/region', aRegion());
    ids['station'] = (await post('/api/station', aStation(region.id, labelIds))).id;
    const car = await post('/api/manufacturer', aManufacturer('car'));
    ids['car'] = car.id;
    names['car'] = String(car['name']);
    const company = await post('/api/company', aCompany());
    ids['company'] = company.id;
    names['company'] = String(company['number']);
    const fleet = await post('/api/fleet', aFleet(company.id));
    ids['fleet'] = fleet.id;
    names['fleet'] = String(fleet['number']);
    const line = await post('/api/line', aLine(fleet.id));
    ids['line'] = line.id;
    names['line'] = String(line['number']);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('exports hosts as xlsx with headers in the chosen language, formula-like text escaped', async () => {
    const pile = await post(
      '/api/pile',
      aPile(ids['station'], { name: '=HYPERLINK("http://x")', model: '@SUM(A1)' }),
    );
    const res = await t
      .http()
      .get('/api/pile/export')
      .query({ lang: 'en-US', chargePointId: pile['chargePointId'] })
      .set(admin)
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(res.headers['content-disposition']).toContain('charging-hosts.xlsx');
    const rows = await sheetRows(res.body as Buffer);
    expect(rows[0].slice(0, 4)).toEqual(['Number', 'Name', 'Charge point id', 'Station']);
    expect(rows).toHaveLength(2);
    expect(rows[1][1]).toBe(`'=HYPERLINK("http://x")`);
    expect(rows[1][7]).toBe('Normal after acceptance');

    const zh = await t.http().get('/api/pile/export').set(admin).buffer(true).parse(binary).expect(200);
    expect((await sheetRows(zh.body as Buffer))[0][0]).toBe('编号');
    const bad = await t.http().get('/api/pile/export').query({ lang: 'fr' }).set(admin).expect(400);
    errorOf(bad.body, 'VALIDATION_FAILED');
  });

  it('exports vehicles, escaping cells that start with = + - @', async () => {
    const vehicle = await post(
      '/api/vehicle',
      aVehicle(ids['car'], { vehicleModel: '+cmd|calc', selfNumber: '-1' }),
    );
    const res = await t
      .http()
      .get('/api/vehicle/export')
      .query({ lang: 'en-US', vin: vehicle['vin'] })
      .set(admin)
      .buffer(true)
      .parse(binary)
      .expect(200);
    const rows = await sheetRows(res.body as Buffer);
    expect(rows[0]).toEqual([
      'VIN',
      'License plate',
      'Manufacturer',
      'Self number',
      'Company',
      'Fleet',
      'Line',
      'Battery capacity (Wh)',
      'Vehicle model',
      'Operational status',
    ]);
    expect(rows[1]).toEqual([
      vehicle['vin'],
      vehicle['plate'],
      names['car'],
      `'-1`,
      '',
      '',
      '',
      '350000',
      `'+cmd|calc`,
      'No',
    ]);
  });

  it.each([
    ['no file', undefined, undefined, 400, 'Validation failed: file: A file must be chosen first'],
    [
      'a text file',
      Buffer.from('vin,plate\n'),
      'vehicles.txt',
      400,
      'Validation failed: file: Only xlsx or xls files can be imported',
    ],
    [
      'a text file named .xlsx',
      Buffer.from('not a workbook'),
      'vehicles.xlsx',
      400,
      'Validation failed: file: Only xlsx or xls files can be imported',
    ],
    [
      'an Excel 97-2003 workbook',
      Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]),
      'vehicles.xls',
      422,
      'The .xls workbook cannot be read: unsupported sector size',
    ],
    ['a file over 2 MB', Buffer.alloc(2 * 1024 * 1024 + 1, 1), 'vehicles.xlsx', 413, undefined],
  ])('import of %s -> %s', async (_name, content, fileName, status, message) => {
    let req = t.http().post('/api/vehicle/import').set(admin);
    if (content !== undefined) req = req.attach('file', content, fileName);
    const res = await req.expect(status);
    if (message !== undefined) expect(res.body.message).toBe(message);
    expect(res.body.correlationId).toEqual(expect.any(String));
  });

  it('a file with bad rows is rejected whole, with an error per row and field', async () => {
    const before = await vehicleCount();
    const taken = await post('/api/vehicle', aVehicle(ids['car']));
    const goodVin = aVin();
    const file = await workbook([
      ['VIN', 'License plate', 'Manufacturer', 'Company', 'Fleet', 'Line', 'Battery capacity (Wh)'],
      [goodVin, unique('闽A'), names['car'], names['company'], names['fleet'], names['line'], 300000],
      ['SHORT', unique('闽A'), names['car'], null, null, null, null],
      // Hexadecimal is not a number here (plain decimal notation only).
      [aVin(), null, 'No Such Maker', null, null, null, '0x1F'],
      [String(taken['vin']), unique('闽A'), names['car'], null, null, null, null],
      [goodVin, unique('闽A'), names['car'], null, null, null, null],
      [aVin(), unique('闽A'), names['car'], 'NOPE', null, null, null],
    ]);
    const res = await t
      .http()
      .post('/api/vehicle/import')
      .set(admin)
      .attach('file', file, 'vehicles.xlsx')
      .expect(422);
    expect(errorOf(res.body, 'SPREADSHEET_IMPORT_REJECTED').message).toBe(
      '5 row(s) have errors; nothing was imported',
    );
    // Each error names the row, the column (letter and header of the template) and the field.
    const vin = { column: 'A', field: 'vin', header: '车架号' };
    expect(res.body.details.errors).toEqual([
      { row: 3, ...vin, message: 'VIN must be 17 characters' },
      { row: 4, column: 'B', field: 'plate', header: '车牌号', message: 'License plate cannot be empty' },
      {
        row: 4,
        column: 'C',
        field: 'manufacturerId',
        header: '厂家',
        message: "No car manufacturer 'No Such Maker'",
      },
      {
        row: 4,
        column: 'G',
        field: 'batteryCapacityWh',
        header: '电池容量(Wh)',
        message: 'Battery capacity (Wh) must be a number',
      },
      { row: 5, ...vin, message: `A vehicle with VIN '${String(taken['vin'])}' already exists` },
      { row: 6, ...vin, message: 'Repeats row 2' },
      { row: 7, column: 'D', field: 'companyId', header: '公司', message: "No company 'NOPE'" },
    ]);
    expect(await vehicleCount()).toBe(before + 1);
  });

  it('a clean file imports every row, references resolved by name and number', async () => {
    const before = await vehicleCount();
    const rows = [aVin(), aVin()].map((vin) => [
      vin.toLowerCase(),
      unique('闽A'),
      names['car'],
      names['company'],
      names['fleet'],
      names['line'],
    ]);
    const file = await workbook([['车架号', '车牌号', '厂家', '公司', '车队', '线路'], ...rows]);
    const res = await t
      .http()
      .post('/api/vehicle/import')
      .set(admin)
      .attach('file', file, 'vehicles.xlsx')
      .expect(201);
    expect(res.body).toEqual({ mode: 'all', total: 2, imported: 2, failed: 0, errors: [] });
    expect(await vehicleCount()).toBe(before + 2);
    const page = (
      await t
        .http()
        .get('/api/vehicle/page/1/size/10')
        .query({ vin: String(rows[0][0]).toUpperCase() })
        .set(admin)
        .expect(200)
    ).body;
    expect(page.list[0]).toMatchObject({
      companyId: ids['company'],
      fleetId: ids['fleet'],
      lineId: ids['line'],
      manufacturerId: ids['car'],
    });
  });

  it('a file missing the required columns is rejected', async () => {
    const file = await workbook([['Plate only'], ['x']]);
    const res = await t
      .http()
      .post('/api/vehicle/import')
      .set(admin)
      .attach('file', file, 'v.xlsx')
      .expect(422);
    expect(res.body.message).toBe('The first row must name the columns; missing: 车架号, 车牌号, 厂家');
  });
});
