/**
 * A vehicle's operational status (business-areas §4: in service or not) through the vehicle grid: the
 * body field (optional, false by default), the answer, the list filter and the sheet's column.
 */
import ExcelJS from 'exceljs';
import { aManufacturer, aVehicle, aVin, unique } from '@voltdepot/server-testing';
import { errorOf, fieldErrors } from '../fixtures/api-test-app';
import { useAssetsTestApp, type Row } from '../fixtures/assets-test-app';
import { download, sheetRows } from '../fixtures/xlsx';

const t = useAssetsTestApp();
let maker: Row;

beforeAll(async () => {
  maker = await t.create('manufacturer', aManufacturer('car'));
});

const get = async (id: number): Promise<Row> =>
  (await t.http().get(`/api/vehicle/${id}`).set(t.admin).expect(200)).body as Row;
const listed = async (query: Record<string, string>): Promise<Row[]> =>
  (await t.http().get('/api/vehicle/page/1/size/500').query(query).set(t.admin).expect(200)).body
    .list as Row[];

async function workbook(rows: (string | number | null)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('vehicles');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('vehicle operational status', () => {
  it('is out of service unless the body says otherwise, and is returned', async () => {
    const plain = await t.create('vehicle', aVehicle(maker.id));
    expect(plain['operational']).toBe(false);
    const running = await t.create('vehicle', aVehicle(maker.id, { operational: true }));
    expect(running['operational']).toBe(true);
    expect(await get(running.id)).toEqual(running);
  });

  it('is changed by an update, and an update without it puts the vehicle out of service', async () => {
    const body = aVehicle(maker.id);
    const vehicle = await t.create('vehicle', body);
    const put = (changes: Record<string, unknown>) =>
      t
        .http()
        .put(`/api/vehicle/${vehicle.id}`)
        .set(t.admin)
        .send({ ...body, ...changes })
        .expect(200);
    expect((await put({ operational: true })).body).toMatchObject({ id: vehicle.id, operational: true });
    expect((await get(vehicle.id))['operational']).toBe(true);
    // PUT takes the whole record: the field left out takes its default.
    expect((await put({})).body['operational']).toBe(false);
  });

  it.each([
    ['text', 'yes'],
    ['the text "true"', 'true'],
    ['a number', 1],
    ['null', null],
    ['an object', { on: true }],
  ])('refuses %s (400 naming the field) on create and update', async (_case, value) => {
    const res = await t
      .http()
      .post('/api/vehicle')
      .set(t.admin)
      .send(aVehicle(maker.id, { operational: value }))
      .expect(400);
    expect(fieldErrors(res.body)).toEqual([
      { field: 'operational', message: 'Operational status must be true or false' },
    ]);
    const body = aVehicle(maker.id);
    const vehicle = await t.create('vehicle', body);
    const update = await t
      .http()
      .put(`/api/vehicle/${vehicle.id}`)
      .set(t.admin)
      .send({ ...body, operational: value })
      .expect(400);
    expect(fieldErrors(update.body)).toEqual([
      { field: 'operational', message: 'Operational status must be true or false' },
    ]);
    expect((await get(vehicle.id))['operational']).toBe(false);
  });

  it('filters the list by operational status; anything but true or false is a 400 naming it', async () => {
    const plate = unique('闽F');
    const running = await t.create('vehicle', aVehicle(maker.id, { plate: `${plate}1`, operational: true }));
    const parked = await t.create('vehicle', aVehicle(maker.id, { plate: `${plate}2` }));
    expect((await listed({ plate, operational: 'true' })).map((v) => v.id)).toEqual([running.id]);
    expect((await listed({ plate, operational: 'false' })).map((v) => v.id)).toEqual([parked.id]);
    expect((await listed({ plate, operational: '' })).map((v) => v.id).sort()).toEqual(
      [running.id, parked.id].sort(),
    );
    const res = await t
      .http()
      .get('/api/vehicle/page/1/size/10')
      .query({ operational: 'maybe' })
      .set(t.admin)
      .expect(400);
    expect(fieldErrors(res.body)).toEqual([{ field: 'operational', message: 'must be true or false' }]);
  });

  it('exports the column as Yes or No, filtered, and imports it from Yes/No in either language', async () => {
    const plate = unique('闽G');
    const running = await t.create('vehicle', aVehicle(maker.id, { plate: `${plate}1`, operational: true }));
    await t.create('vehicle', aVehicle(maker.id, { plate: `${plate}2` }));
    const rows = await sheetRows(
      (
        await download(
          t
            .http()
            .get('/api/vehicle/export')
            .query({ lang: 'en-US', plate, operational: 'true' })
            .set(t.admin),
        ).expect(200)
      ).body as Buffer,
    );
    const column = rows[0].indexOf('Operational status');
    expect(column).toBeGreaterThan(-1);
    expect(rows.slice(1).map((r) => [r[1], r[column]])).toEqual([[running['plate'], 'Yes']]);

    const imported = [unique('闽H'), unique('闽H'), unique('闽H')];
    const file = await workbook([
      ['VIN', 'License plate', 'Manufacturer', 'Operational status'],
      [aVin(), imported[0], String(maker['name']), 'Yes'],
      [aVin(), imported[1], String(maker['name']), '否'],
      [aVin(), imported[2], String(maker['name']), null],
    ]);
    await t.http().post('/api/vehicle/import').set(t.admin).attach('file', file, 'vehicles.xlsx').expect(201);
    const byPlate = async (p: string) => (await listed({ plate: p }))[0]?.['operational'];
    expect([await byPlate(imported[0]), await byPlate(imported[1]), await byPlate(imported[2])]).toEqual([
      true,
      false,
      false,
    ]);

    const bad = await workbook([
      ['VIN', 'License plate', 'Manufacturer', 'Operational status'],
      [aVin(), unique('闽H'), String(maker['name']), 'Sometimes'],
    ]);
    const res = await t
      .http()
      .post('/api/vehicle/import')
      .set(t.admin)
      .attach('file', bad, 'vehicles.xlsx')
      .expect(422);
    errorOf(res.body, 'SPREADSHEET_IMPORT_REJECTED');
    expect(res.body.details.errors).toEqual([
      {
        row: 2,
        column: 'D',
        field: 'operational',
        header: '运营状态',
        message: 'Operational status must be one of 是、否',
      },
    ]);
  });
});
