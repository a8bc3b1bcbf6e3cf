import { pilePasswordHasherOf } from '@voltdepot/server-pile-credentials';
import ExcelJS from 'exceljs';
import {
  aCompany,
  aGun,
  aLabel,
  aManufacturer,
  anOperator,
  aPile,
  aRegion,
  aStation,
  aTransformer,
  unique,
} from '@voltdepot/server-testing';
import {
  ADMIN_PASSWORD,
  ApiTestApp,
  bearer,
  DEMO_PASSWORD,
  errorOf,
  startApiTestApp,
} from '../fixtures/api-test-app';
import { download, sheetRows } from '../fixtures/xlsx';

type Body = Record<string, unknown>;
type Auth = { authorization: string };
type Cell = string | number | Date | null;

/**
 * xlsx import of the equipment grids (stations, charging hosts, guns, box transformers): each row is
 * created the way the grid's POST creates it (same schema, references in the caller's data scope,
 * labels per category, the host's password hash and gateway registry row), and one bad row rejects the
 * file with an error per row and column.
 */
let t: ApiTestApp;
let admin: Auth;
let maintainer: Auth;
const labels: Record<string, Body & { id: number }> = {};
const made: Record<string, Body & { id: number }> = {};

async function create(kind: string, body: Body, who: Auth = admin): Promise<Body & { id: number }> {
  const res = await t.http().post(`/api/${kind}`).set(who).send(body);
  if (res.status !== 201) throw new Error(`create ${kind} -> ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Body & { id: number };
}

/** A workbook of rows; Date cells are written as Excel dates (the way a spreadsheet program stores them). */
async function xlsx(rows: Cell[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('import');
  for (const row of rows) {
    const added = sheet.addRow(row);
    row.forEach((cell, index) => {
      if (cell instanceof Date) added.getCell(index + 1).numFmt = 'yyyy-mm-dd hh:mm';
    });
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const upload = (kind: string, buffer: Buffer, query = '', who: Auth = admin) =>
  t.http().post(`/api/${kind}/import${query}`).set(who).attach('file', buffer, `${kind}.xlsx`);

async function list(kind: string, query: Record<string, unknown>): Promise<Body[]> {
  const res = await t.http().get(`/api/${kind}/page/1/size/100`).query(query).set(admin).expect(200);
  return res.body.list as Body[];
}

/** The errors of a rejected file as [row, header, message]; every one names its column letter. */
function rejected(body: Body): [number, string | null, string][] {
  const details = body['details'] as { errors: Body[] };
  for (const e of details.errors) expect(e['column']).toMatch(/^[A-Z]+$/);
  return details.errors.map((e) => [e['row'] as number, e['header'] as string | null, String(e['message'])]);
}

async function registryRow(
  chargePointId: string,
): Promise<{ state: string; password_hash: string } | undefined> {
  const rows = await t.db.dataSource.query(
    'SELECT state, password_hash FROM pile_registry WHERE charge_point_id = $1',
    [chargePointId],
  );
  return rows[0];
}

beforeAll(async () => {
  t = await startApiTestApp();
  admin = bearer(await t.login('admin', ADMIN_PASSWORD));
  maintainer = bearer(await t.login('maintainer', DEMO_PASSWORD));
  for (const type of ['payment', 'nationalStandard', 'chargingType'])
    labels[type] = await create('label', aLabel(type));
  // One name in two categories: a sheet must say which one it means.
  const shared = unique('Shared');
  labels['sharedCharging'] = await create('label', aLabel('chargingType', { name: shared }));
  labels['sharedStationType'] = await create('label', aLabel('stationType', { name: shared }));
  made['region'] = await create('region', aRegion({ name: unique('Region') }));
  made['company'] = await create('company', aCompany({ name: unique('Bus Co ') }));
  made['operator'] = await create('operator', anOperator({ name: unique('Operator ') }));
  made['pileMaker'] = await create('manufacturer', aManufacturer('pile'));
  made['carMaker'] = await create('manufacturer', aManufacturer('car'));
  const labelIds = ['payment', 'nationalStandard', 'chargingType'].map((type) => labels[type].id);
  made['station'] = await create(
    'station',
    aStation(made['region'].id, labelIds, { name: unique('Depot ') }),
  );
  made['otherStation'] = await create(
    'station',
    aStation(made['region'].id, labelIds, { name: unique('Yard ') }),
  );
  made['transformer'] = await create('transformer', aTransformer(made['station'].id));
  made['otherTransformer'] = await create('transformer', aTransformer(made['otherStation'].id));
  made['pile'] = await create('pile', aPile(made['station'].id));
  made['gun'] = await create('gun', aGun(made['pile'].id));
});
afterAll(async () => {
  await t?.close();
});

describe('stations', () => {
  it('a good sheet creates every station with its labels, references and coded values', async () => {
    const [first, second] = [unique('IS'), unique('IS')];
    const pay = String(labels['payment']['name']);
    const gb = String(labels['nationalStandard']['name']);
    const dc = String(labels['chargingType']['name']);
    const shared = String(labels['sharedCharging']['name']);
    const res = await upload(
      'station',
      await xlsx([
        [
          '编号',
          '名称',
          '区域',
          '公司',
          '运营商',
          '站点类型',
          '站点状态',
          '地址',
          '经度',
          '纬度',
          '开放时间',
          '关闭时间',
          '是否开放',
          '收费范围',
          '免费停车(分钟)',
          '占位单价(分)',
          '封顶金额(分)',
          '标签',
          '支持预约',
          '占位计费间隔(分钟)',
          '手机端显示',
        ],
        [
          first,
          'Imported depot',
          String(made['region']['areaCode']),
          String(made['company']['number']),
          String(made['operator']['name']),
          '公交',
          '使用中',
          '1 Harbour Road',
          119.3,
          26.07,
          '6:00',
          '23:30',
          '是',
          '内部',
          30,
          100,
          5000,
          `${pay}、${gb}, ${dc}`,
          '否',
          15,
          '否',
        ],
        [
          second,
          'Imported yard',
          String(made['region']['name']),
          null,
          null,
          'Logistics',
          'Under construction',
          '2 Harbour Road',
          119.31,
          26.08,
          // Time cells as a spreadsheet program stores them.
          new Date(Date.UTC(1899, 11, 30, 5, 30)),
          new Date(Date.UTC(1899, 11, 30, 22, 0)),
          'No',
          'external',
          0,
          0,
          0,
          `${pay}，${gb}；充电类型:${shared}`,
          'Yes',
          30,
          null,
        ],
      ]),
    ).expect(201);
    expect(res.body).toEqual({ mode: 'all', total: 2, imported: 2, failed: 0, errors: [] });

    const [one] = await list('station', { number: first });
    expect(one).toMatchObject({
      name: 'Imported depot',
      regionId: made['region'].id,
      companyId: made['company'].id,
      operatorId: made['operator'].id,
      type: 100,
      status: 0,
      longitude: 119.3,
      openingTime: '06:00',
      closingTime: '23:30',
      isOpen: true,
      feeScope: 'internal',
      supportsReservation: false,
      shownOnMobile: false,
      labelIds: [labels['payment'].id, labels['nationalStandard'].id, labels['chargingType'].id],
    });
    const [two] = await list('station', { number: second });
    expect(two).toMatchObject({
      regionId: made['region'].id,
      companyId: null,
      type: 102,
      status: 1,
      openingTime: '05:30',
      closingTime: '22:00',
      isOpen: false,
      feeScope: 'external',
      shownOnMobile: true,
      labelIds: [labels['payment'].id, labels['nationalStandard'].id, labels['sharedCharging'].id],
    });
  });

  it('a sheet with bad rows is rejected whole: the same rules and messages as the api, per row and column', async () => {
    const fresh = unique('IS');
    const pay = String(labels['payment']['name']);
    const gb = String(labels['nationalStandard']['name']);
    const dc = String(labels['chargingType']['name']);
    const shared = String(labels['sharedCharging']['name']);
    const taken = String(made['station']['number']);
    const header = [
      'Number',
      'Name',
      'Region',
      'Station type',
      'Station status',
      'Address',
      'Longitude',
      'Latitude',
      'Opening time',
      'Closing time',
      'Open',
      'Fee scope',
      'Free parking (minutes)',
      'Occupation unit price (fen)',
      'Capped amount (fen)',
      'Labels',
      'Reservation support',
      'Occupation interval (minutes)',
    ];
    const region = String(made['region']['areaCode']);
    const row = (o: Record<number, Cell>): Cell[] => {
      const base: Cell[] = [
        unique('IS'),
        'Depot',
        region,
        'Bus',
        'In use',
        'Somewhere 1',
        119.3,
        26.07,
        '06:00',
        '22:00',
        'Yes',
        'Internal',
        30,
        100,
        5000,
        `${pay}, ${gb}, ${dc}`,
        'No',
        15,
      ];
      for (const [index, value] of Object.entries(o)) base[Number(index)] = value;
      return base;
    };
    const res = await upload(
      'station',
      await xlsx([
        header,
        row({ 0: fresh }),
        row({ 15: `${pay}, ${gb}` }),
        row({ 15: `${pay}, ${gb}, Nope-label, ${shared}` }),
        row({ 2: 'Atlantis', 3: 'Spaceport' }),
        row({ 6: 200, 8: '25:00' }),
        row({ 0: taken }),
        row({ 0: fresh }),
        row({ 10: null, 15: null }),
      ]),
      '?lang=en-US',
    ).expect(422);
    expect(errorOf(res.body, 'SPREADSHEET_IMPORT_REJECTED').message).toBe(
      '7 row(s) have errors; nothing was imported',
    );
    expect(rejected(res.body)).toEqual([
      [3, 'Labels', 'At least one label per category (missing: chargingType)'],
      [4, 'Labels', "No label 'Nope-label'"],
      [
        4,
        'Labels',
        `More than one label is called '${shared}': write 'Charging type:${shared}' or 'Station type:${shared}'`,
      ],
      [5, 'Region', "No region 'Atlantis'"],
      [
        5,
        'Station type',
        'Station type must be one of Private, Public, Bus, Sanitation, Logistics, Taxi, Other',
      ],
      [6, 'Longitude', 'Longitude must be between -180 and 180'],
      [6, 'Opening time', 'Opening time must be a time of day HH:mm'],
      [7, 'Number', `A station numbered '${taken}' already exists`],
      [8, 'Number', 'Repeats row 2'],
      [9, 'Open', 'Open flag cannot be empty'],
      [9, 'Labels', 'At least one label per category'],
    ]);
    expect(await list('station', { number: fresh })).toEqual([]);
  });

  it('an exported station sheet imports again (labels by name, a shared name with its category)', async () => {
    const number = unique('RS');
    const labelIds = [labels['payment'].id, labels['nationalStandard'].id, labels['sharedCharging'].id];
    await create(
      'station',
      aStation(made['region'].id, labelIds, {
        number,
        companyId: made['company'].id,
        operatorId: made['operator'].id,
      }),
    );
    const exported = await download(
      t.http().get('/api/station/export').query({ lang: 'zh-CN', number }).set(admin),
    ).expect(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(exported.body as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    const labelsCell = sheet.getRow(2).getCell(headers.indexOf('标签') + 1);
    expect(labelsCell.text).toBe(
      `${String(labels['payment']['name'])}、${String(labels['nationalStandard']['name'])}、充电类型:${String(labels['sharedCharging']['name'])}`,
    );
    const copy = unique('RS');
    sheet.getRow(2).getCell(headers.indexOf('编号') + 1).value = copy;
    const res = await upload('station', Buffer.from(await workbook.xlsx.writeBuffer())).expect(201);
    expect(res.body.imported).toBe(1);
    const [station] = await list('station', { number: copy });
    expect(station).toMatchObject({
      labelIds,
      companyId: made['company'].id,
      operatorId: made['operator'].id,
      regionId: made['region'].id,
    });
  });
});

describe('charging hosts', () => {
  const HEADER = [
    'Number',
    'Name',
    'Charge point id',
    'Station',
    'Type',
    'Maximum power (W)',
    'Rated power (W)',
    'Device status',
    'Manufacturer',
    'Guns',
    'Protocol version',
    'OCPP password',
    'Box transformer',
  ];
  const PASSWORD = 'imported-pile-secret-01';

  it('a good sheet creates hosts the gateway knows: password hash and state in its registry, as the api does', async () => {
    const [a, b] = [unique('ICP-'), unique('ICP-')];
    const res = await upload(
      'pile',
      await xlsx([
        [
          '编号',
          '名称',
          'OCPP 标识',
          '充电站',
          '类型',
          '最大功率(W)',
          '额定功率(W)',
          '设备状态',
          '厂家',
          '接口数',
          '协议版本',
          'OCPP 密码',
          '国标',
          '启动方式',
          '付费方式',
          '支持预约',
          '生产日期',
          '坐标 X',
          '箱变',
        ],
        [
          unique('IP'),
          'Imported DC',
          a,
          String(made['station']['number']),
          '交流',
          240000,
          120000,
          '验收后正常',
          String(made['pileMaker']['name']),
          2,
          'ocpp1.6',
          PASSWORD,
          '2015 版',
          '按电量',
          '预付费',
          '是',
          new Date(Date.UTC(2024, 2, 5)),
          120.5,
          String(made['transformer']['name']),
        ],
        [
          unique('IP'),
          'Imported AC',
          b,
          String(made['station']['name']),
          '8',
          7000,
          7000,
          'Under construction',
          null,
          1,
          'ocpp1.6',
          `${PASSWORD}-b`,
          null,
          null,
          null,
          null,
          '2023/11/9',
          null,
          null,
        ],
      ]),
    ).expect(201);
    expect(res.body).toEqual({ mode: 'all', total: 2, imported: 2, failed: 0, errors: [] });

    const [first] = await list('pile', { chargePointId: a });
    expect(first).toMatchObject({
      stationId: made['station'].id,
      type: 1,
      ratedPowerW: 120000,
      deviceStatus: 50,
      manufacturerId: made['pileMaker'].id,
      transformerId: made['transformer'].id,
      nationalStandard: 2,
      startMode: 4,
      paymentMode: 1,
      supportsReservation: true,
      productionDate: '2024-03-05',
      coordinateX: 120.5,
      hasOcppPassword: true,
      gatewayState: 'active',
    });
    expect(first).not.toHaveProperty('ocppPassword');
    const [second] = await list('pile', { chargePointId: b });
    expect(second).toMatchObject({
      type: 8,
      deviceStatus: 1,
      productionDate: '2023-11-09',
      gatewayState: 'pending',
    });

    // The registry rows the gateway reads, exactly like the api-created host's.
    const api = await registryRow(String(made['pile']['chargePointId']));
    const keyed = expect.stringMatching(/^hmac-sha256\$v1\$dev\$/);
    expect(api).toMatchObject({ state: 'active', password_hash: keyed });
    const imported = await registryRow(a);
    expect(imported).toMatchObject({ state: 'active', password_hash: keyed });
    // The api of this test runs on the development key, as the gateway would.
    const passwords = pilePasswordHasherOf({}).hasher;
    expect((await passwords.verify(imported!.password_hash, PASSWORD)).match).toBe(true);
    expect((await registryRow(b))?.state).toBe('pending');
    expect((await passwords.verify((await registryRow(b))!.password_hash, `${PASSWORD}-b`)).match).toBe(true);
  });

  it('a sheet with bad rows is rejected whole; no host and no registry row is left behind', async () => {
    const fresh = unique('ICP-');
    const station = String(made['station']['number']);
    const row = (o: Record<number, Cell>): Cell[] => {
      const base: Cell[] = [
        unique('IP'),
        'Host',
        unique('ICP-'),
        station,
        'Alternating current (AC)',
        240000,
        240000,
        'Normal after acceptance',
        String(made['pileMaker']['name']),
        2,
        'ocpp1.6',
        PASSWORD,
        null,
      ];
      for (const [index, value] of Object.entries(o)) base[Number(index)] = value;
      return base;
    };
    const takenId = String(made['pile']['chargePointId']);
    const res = await upload(
      'pile',
      await xlsx([
        HEADER,
        row({ 2: fresh }),
        row({ 11: 'short' }),
        row({ 2: 'CP 1', 11: null }),
        row({ 6: 300000 }),
        row({ 8: String(made['carMaker']['name']), 12: String(made['otherTransformer']['name']) }),
        row({ 2: takenId }),
        row({ 7: 'Broken' }),
        row({ 2: fresh }),
      ]),
      '?lang=en-US',
    ).expect(422);
    expect(rejected(res.body)).toEqual([
      [3, 'OCPP password', 'OCPP password must be 16 to 40 characters'],
      [
        4,
        'Charge point id',
        'Charge point id must start with a letter or digit and contain only letters, digits and . _ : -',
      ],
      [4, 'OCPP password', 'OCPP password cannot be empty'],
      [5, 'Rated power (W)', 'Rated power (W) must not exceed maximum power (W)'],
      [6, 'Manufacturer', `No charging pile manufacturer '${String(made['carMaker']['name'])}'`],
      [
        6,
        'Box transformer',
        `No box transformer '${String(made['otherTransformer']['name'])}' in the row's station`,
      ],
      [7, 'Charge point id', `A charging host with charge point id '${takenId}' already exists`],
      [
        8,
        'Device status',
        'Device status must be one of Under construction, Offline and disabled, Long-term maintenance, Normal after acceptance',
      ],
      [9, 'Charge point id', 'Repeats row 2'],
    ]);
    expect(await list('pile', { chargePointId: fresh })).toEqual([]);
    expect(await registryRow(fresh)).toBeUndefined();
  });

  it('stations outside the caller’s data scope are not found, as for the api', async () => {
    const res = await upload(
      'pile',
      await xlsx([
        HEADER,
        [
          unique('IP'),
          'Host',
          unique('ICP-'),
          String(made['station']['number']),
          'Alternating current (AC)',
          1000,
          1000,
          'Under construction',
          null,
          1,
          'ocpp1.6',
          PASSWORD,
          null,
        ],
      ]),
      '?lang=en-US',
      maintainer,
    ).expect(422);
    expect(rejected(res.body)).toEqual([[2, 'Station', `No station '${String(made['station']['number'])}'`]]);
  });
});

describe('guns', () => {
  const HEADER = [
    'Charging host',
    'Gun name',
    'Channel number',
    'QR code',
    'Connector type',
    'Maximum voltage (V)',
    'Minimum voltage (V)',
  ];

  it('a good sheet creates guns; the host by number, charge point id or name', async () => {
    const host = await create('pile', aPile(made['station'].id, { name: unique('Host ') }));
    const other = await create('pile', aPile(made['station'].id));
    const qr = [unique('IQR'), unique('IQR'), unique('IQR')];
    const res = await upload(
      'gun',
      await xlsx([
        ['充电主机', '枪名称', '通道号', '二维码', '接口类型', '地锁状态', '车位类型', '辅助电源(BMS)电压'],
        [String(host['number']), 'Gun 1', 1, qr[0], '直流接口枪头', '已上锁', '公交车位', '24V'],
        [String(host['chargePointId']), 'Gun 2', 2, qr[1], 'AC socket', null, 'social', null],
        // Channel 1 again, of another host: no repeat.
        [String(other['number']), 'Gun 1', 1, qr[2], '1', null, null, null],
      ]),
    ).expect(201);
    expect(res.body).toMatchObject({ total: 3, imported: 3, failed: 0 });
    const guns = await list('gun', { pileId: host.id });
    expect(guns).toEqual([
      expect.objectContaining({
        channelNumber: 1,
        qrCode: qr[0],
        connectorType: 4,
        groundLockStatus: 50,
        parkingPlaceType: 'bus',
        bmsPower: 2,
      }),
      expect.objectContaining({
        channelNumber: 2,
        qrCode: qr[1],
        connectorType: 2,
        parkingPlaceType: 'social',
      }),
    ]);
    expect(await list('gun', { pileId: other.id })).toEqual([expect.objectContaining({ qrCode: qr[2] })]);
    const byName = await upload(
      'gun',
      await xlsx([HEADER, [String(host['name']), 'Gun 2b', 2, unique('IQR'), 'DC gun', null, null]]),
      '?lang=en-US&mode=report',
    ).expect(201);
    // Found by name: the host's channel 2 is taken.
    expect(byName.body.errors).toEqual([
      expect.objectContaining({
        row: 2,
        field: 'channelNumber',
        message: `Charging host ${host.id} already has a gun on channel 2`,
      }),
    ]);
  });

  it('a sheet with bad rows is rejected whole, with the api’s rules (channels within the host’s gun count)', async () => {
    const host = await create('pile', aPile(made['station'].id, { gunCount: 2 }));
    const number = String(host['number']);
    const takenQr = String(made['gun']['qrCode']);
    const res = await upload(
      'gun',
      await xlsx([
        HEADER,
        [number, 'Gun 1', 1, unique('IQR'), 'DC gun', null, null],
        [number, 'Gun 3', 3, unique('IQR'), 'DC gun', null, null],
        ['NOPE', 'Gun 1', 1, unique('IQR'), 'DC gun', null, null],
        [number, 'Gun 2', 2, takenQr, 'DC gun', null, null],
        [number, 'Gun 1 again', 1, unique('IQR'), 'DC gun', null, null],
        [number, 'Gun 2', 2, null, 'Plug', null, null],
        // Cross-field rules are checked once the fields themselves are right, as for the api.
        [number, 'Gun 2', 2, unique('IQR'), 'DC gun', 400, 500],
      ]),
      '?lang=en-US',
    ).expect(422);
    expect(rejected(res.body)).toEqual([
      [3, 'Channel number', `Channel number 3 exceeds the number of guns (2) of charging host ${host.id}`],
      [4, 'Charging host', "No charging host 'NOPE'"],
      [5, 'QR code', `QR code '${takenQr}' is already used by another gun`],
      [6, 'Channel number', 'Repeats row 2'],
      [7, 'QR code', 'QR code cannot be empty'],
      [
        7,
        'Connector type',
        'Connector type must be one of Household socket, AC socket, AC plug, DC gun, Wireless pad, Other',
      ],
      [8, 'Minimum voltage (V)', 'Minimum voltage (V) must not exceed maximum voltage (V)'],
    ]);
    expect(await list('gun', { pileId: host.id })).toEqual([]);
  });
});

describe('box transformers', () => {
  it('a good sheet creates transformers; one name may be used at two stations', async () => {
    const name = unique('IT');
    const res = await upload(
      'transformer',
      await xlsx([
        ['名称', '充电站', '容量(kVA)', 'IP', '型号类型'],
        [name, String(made['station']['number']), 1600, '10.0.0.8', 'ZGS11'],
        [name, String(made['otherStation']['name']), null, null, null],
      ]),
    ).expect(201);
    expect(res.body).toMatchObject({ imported: 2, failed: 0 });
    expect(await list('transformer', { name })).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          stationId: made['station'].id,
          capacityKva: 1600,
          ip: '10.0.0.8',
          type: 'ZGS11',
        }),
        expect.objectContaining({ stationId: made['otherStation'].id, capacityKva: null }),
      ]),
    );
  });

  it('a sheet with bad rows is rejected whole', async () => {
    const fresh = unique('IT');
    const station = String(made['station']['number']);
    const existing = String(made['transformer']['name']);
    const res = await upload(
      'transformer',
      await xlsx([
        ['Name', 'Station', 'Capacity (kVA)'],
        [fresh, station, 1000],
        [null, station, 1000],
        [unique('IT'), 'Nowhere', 1000],
        [unique('IT'), station, 0],
        [existing, station, 1000],
        [fresh, station, 500],
        [unique('IT'), station, 'big'],
      ]),
      '?lang=en-US',
    ).expect(422);
    expect(rejected(res.body)).toEqual([
      [3, 'Name', 'Name cannot be empty'],
      [4, 'Station', "No station 'Nowhere'"],
      [5, 'Capacity (kVA)', 'Capacity (kVA) must be between 1 and 1000000'],
      [6, 'Name', `Station ${made['station'].id} already has a box transformer named '${existing}'`],
      [7, 'Name', 'Repeats row 2'],
      [8, 'Capacity (kVA)', 'Capacity (kVA) must be a number'],
    ]);
    expect(await list('transformer', { name: fresh })).toEqual([]);
  });
});

describe('templates', () => {
  it.each([
    [
      'station',
      [
        'Number*',
        'Name*',
        'Region*',
        'Company',
        'Operator',
        'Station type*',
        'Station status*',
        'Address*',
        'Longitude*',
        'Latitude*',
        'Opening time*',
        'Closing time*',
        'Open*',
        'Number of parking spaces',
        'Fee scope*',
        'Free parking (minutes)*',
        'Occupation unit price (fen)*',
        'Capped amount (fen)*',
        'Platform service phone',
        'Labels*',
        'Reservation support*',
        'Occupation interval (minutes)*',
        'Occupation fee',
        'Description',
        'Responsible person phone',
        'Construction site',
        'Area (m²)',
        'Parking lot owner',
        'Parking lot manager',
        'Parking floor',
        'Service fee free',
        'Service fee (fen/kWh)',
        'Service fee description',
        'Operated externally',
        'Shown on mobile',
      ],
    ],
    [
      'pile',
      [
        'Number*',
        'Name*',
        'Charge point id*',
        'Station*',
        'Type*',
        'Maximum power (W)*',
        'Rated power (W)*',
        'Device status*',
        'Manufacturer',
        'Guns*',
        'Protocol version*',
        'OCPP password*',
        'Voltage (V)',
        'Current (A)',
        'Charging type',
        'Start mode',
        'National standard',
        'Payment method',
        'Reservation support',
        'Model',
        'Host IP',
        'SIM number',
        'Production date',
        'External mapping ID',
        'Coordinate X',
        'Coordinate Y',
        'Box transformer',
      ],
    ],
    [
      'gun',
      [
        'Charging host*',
        'Gun name*',
        'Channel number*',
        'QR code*',
        'Connector type*',
        'Terminal name',
        'Rated voltage (V)',
        'Rated current (A)',
        'Rated power (W)',
        'Ground lock status',
        'Parking place type',
        'Maximum voltage (V)',
        'Minimum voltage (V)',
        'Auxiliary supply (BMS) voltage',
      ],
    ],
    ['transformer', ['Name*', 'Station*', 'Capacity (kVA)', 'IP', 'Type']],
  ])('%s: only the importable columns, required ones marked *', async (kind, headers) => {
    const res = await download(t.http().get(`/api/${kind}/import/template?lang=en-US`).set(admin)).expect(
      200,
    );
    expect(res.headers['content-disposition']).toContain('-import-template.xlsx');
    const [header] = await sheetRows(res.body as Buffer, { emptyAs: '' });
    expect(header).toEqual(headers);
  });

  it('the host template explains the password and the gun template how to name the host', async () => {
    const notes = async (kind: string) => {
      const res = await download(t.http().get(`/api/${kind}/import/template?lang=en-US`).set(admin)).expect(
        200,
      );
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(res.body as unknown as ArrayBuffer);
      const texts: Record<string, string> = {};
      workbook.worksheets[0].getRow(1).eachCell((cell) => {
        const note = cell.note as string | { texts: { text: string }[] } | undefined;
        texts[cell.text] = typeof note === 'string' ? note : (note?.texts.map((n) => n.text).join('') ?? '');
      });
      return texts;
    };
    expect((await notes('pile'))['OCPP password*']).toContain('never exported');
    expect((await notes('gun'))['Charging host*']).toContain(
      "The charging host's number, charge point id or name",
    );
    expect((await notes('station'))['Labels*']).toContain('Category:Name');
  });

  it('the import buttons: maintainers import equipment; a role without the button gets a 403', async () => {
    await download(t.http().get('/api/transformer/import/template').set(maintainer)).expect(200);
    const fleet = bearer(await t.login('fleet', DEMO_PASSWORD));
    for (const [kind, code] of [
      ['station', 'basic:station:import'],
      ['pile', 'basic:host:import'],
      ['gun', 'basic:gun:import'],
      ['transformer', 'basic:transformer:import'],
    ]) {
      const res = await upload(kind, await xlsx([['Name'], ['x']]), '', fleet).expect(403);
      expect(res.body.message).toBe(`Missing permission: ${code}`);
    }
  });
});
