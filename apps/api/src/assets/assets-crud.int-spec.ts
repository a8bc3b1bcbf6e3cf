import {
  aBranch,
  aCard,
  aCompany,
  aFleet,
  aGun,
  aLabel,
  aLine,
  aManufacturer,
  anOperator,
  aPile,
  aRegion,
  aStation,
  aTransformer,
  aVehicle,
} from '@voltdepot/server-testing';
import { errorOf, fieldErrors } from '../fixtures/api-test-app';
import {
  AssetGridCases,
  type BadValueCase,
  type TooLongCase,
  type UnknownReferenceCase,
} from '../fixtures/asset-grid-cases';
import { type Body, useAssetsTestApp } from '../fixtures/assets-test-app';

const t = useAssetsTestApp();
/** Rows every case can refer to. */
const ids: Record<string, number> = {};

beforeAll(async () => {
  ids['region'] = (await t.create('region', aRegion())).id;
  ids['pileMaker'] = (await t.create('manufacturer', aManufacturer('pile'))).id;
  ids['carMaker'] = (await t.create('manufacturer', aManufacturer('car'))).id;
  ids['operator'] = (await t.create('operator', anOperator())).id;
  ids['company'] = (await t.create('company', aCompany())).id;
  ids['otherCompany'] = (await t.create('company', aCompany())).id;
  ids['branch'] = (await t.create('branch', aBranch(ids['company']))).id;
  ids['otherBranch'] = (await t.create('branch', aBranch(ids['otherCompany']))).id;
  ids['fleet'] = (await t.create('fleet', aFleet(ids['company'], { branchId: ids['branch'] }))).id;
  ids['otherFleet'] = (await t.create('fleet', aFleet(ids['otherCompany']))).id;
  ids['line'] = (await t.create('line', aLine(ids['fleet']))).id;
  ids['station'] = (await t.create('station', aStation(ids['region'], t.labelIds))).id;
  ids['pile'] = (await t.create('pile', aPile(ids['station']))).id;
});

/** Valid bodies per grid, built from the rows made in beforeAll. */
const VALID: Record<string, () => Body> = {
  company: () => aCompany(),
  branch: () => aBranch(ids['company']),
  fleet: () => aFleet(ids['company']),
  line: () => aLine(ids['fleet']),
  station: () => aStation(ids['region'], t.labelIds),
  pile: () => aPile(ids['station']),
  gun: () => aGun(ids['pile'], { channelNumber: 2 }),
  transformer: () => aTransformer(ids['station']),
  vehicle: () => aVehicle(ids['carMaker']),
  card: () => aCard(),
  manufacturer: () => aManufacturer('pile'),
  operator: () => anOperator(),
  region: () => aRegion(),
  label: () => aLabel('payment'),
};

const NOUN: Record<string, string> = {
  company: 'Company',
  branch: 'Branch',
  fleet: 'Fleet',
  line: 'Line',
  station: 'Station',
  pile: 'Charging host',
  gun: 'Gun',
  transformer: 'Box transformer',
  vehicle: 'Vehicle',
  card: 'Charging card',
  manufacturer: 'Manufacturer',
  operator: 'Operator',
  region: 'Region',
  label: 'Label',
};

/** Required fields and the label their "cannot be empty" message names (business-areas §5). */
const REQUIRED: Record<string, [field: string, label: string][]> = {
  company: [
    ['number', 'Number'],
    ['name', 'Name'],
  ],
  branch: [
    ['companyId', 'Company'],
    ['number', 'Number'],
    ['name', 'Name'],
  ],
  fleet: [
    ['companyId', 'Company'],
    ['number', 'Number'],
    ['name', 'Name'],
  ],
  line: [
    ['fleetId', 'Fleet'],
    ['number', 'Number'],
    ['name', 'Name'],
  ],
  station: [
    ['number', 'Number'],
    ['name', 'Name'],
    ['regionId', 'Region'],
    ['type', 'Station type'],
    ['status', 'Station status'],
    ['address', 'Address'],
    ['longitude', 'Longitude'],
    ['latitude', 'Latitude'],
    ['openingTime', 'Opening time'],
    ['closingTime', 'Closing time'],
    ['isOpen', 'Open flag'],
    ['supportsReservation', 'Reservation support'],
    ['feeScope', 'Fee scope (internal or external)'],
    ['freeParkingMinutes', 'Free parking minutes'],
    ['occupationIntervalMinutes', 'Occupation interval minutes'],
    ['occupationUnitPriceFen', 'Occupation unit price (fen)'],
    ['cappedAmountFen', 'Capped amount (fen)'],
  ],
  pile: [
    ['name', 'Name'],
    ['number', 'Number'],
    ['chargePointId', 'Charge point id'],
    ['ocppPassword', 'OCPP password'],
    ['type', 'Charger type'],
    ['maxPowerW', 'Maximum power (W)'],
    ['ratedPowerW', 'Rated power (W)'],
    ['deviceStatus', 'Device status'],
    ['gunCount', 'Number of guns'],
    ['stationId', 'Station'],
    ['protocolVersion', 'Protocol version'],
  ],
  gun: [
    ['pileId', 'Charging host'],
    ['name', 'Gun name'],
    ['channelNumber', 'Channel number'],
    ['qrCode', 'QR code'],
    ['connectorType', 'Connector type'],
  ],
  transformer: [
    ['name', 'Name'],
    ['stationId', 'Station'],
  ],
  vehicle: [
    ['vin', 'VIN'],
    ['plate', 'License plate'],
    ['manufacturerId', 'Manufacturer'],
  ],
  card: [
    ['physicalNumber', 'Physical number'],
    ['type', 'Card type'],
    ['selfNumber', 'Self number'],
    ['cardholder', 'Cardholder'],
  ],
  manufacturer: [
    ['name', 'Name'],
    ['type', 'Type'],
    ['contactName', 'Contact name'],
    ['contactNumber', 'Contact number'],
  ],
  operator: [
    ['number', 'Number'],
    ['name', 'Name'],
    ['contactName', 'Contact name'],
    ['fixedPhone', 'Fixed phone'],
    ['registeredAddress', 'Registered address'],
    ['creditCode', 'Credit code'],
  ],
  region: [
    ['name', 'Name'],
    ['areaCode', 'Area code'],
  ],
  label: [
    ['type', 'Label type'],
    ['name', 'Label name'],
  ],
};

/** Text limits (the "1 to N characters" hints of business-areas §5). */
const TOO_LONG: TooLongCase[] = [
  ['company', 'number', 'Number', 16],
  ['company', 'name', 'Name', 32],
  ['branch', 'name', 'Name', 32],
  ['fleet', 'number', 'Number', 16],
  ['line', 'name', 'Name', 32],
  ['station', 'name', 'Name', 32],
  ['station', 'address', 'Address', 128],
  ['pile', 'number', 'Number', 16],
  ['pile', 'chargePointId', 'Charge point id', 48],
  ['pile', 'ocppPassword', 'OCPP password', 40, 16],
  ['gun', 'name', 'Gun name', 32],
  ['transformer', 'name', 'Name', 32],
  ['vehicle', 'plate', 'License plate', 16],
  ['vehicle', 'vin', 'VIN', 17, 17],
  ['card', 'physicalNumber', 'Physical number', 16],
  ['card', 'selfNumber', 'Self number', 16],
  ['card', 'cardholder', 'Cardholder', 30],
  ['manufacturer', 'contactName', 'Contact name', 30],
  ['operator', 'registeredAddress', 'Registered address', 128],
  ['region', 'name', 'Name', 32],
  ['label', 'name', 'Label name', 32],
];

/** Wrong types and out-of-range values, with the exact field message. */
const BAD_VALUES: BadValueCase[] = [
  ['company', 'number', 12, 'Number must be text'],
  ['branch', 'companyId', '7', 'Company must be an id'],
  ['station', 'status', 4, 'Station status must be one of 0, 1, 2, 3'],
  ['station', 'type', 2, 'Station type must be one of 0, 1, 100, 101, 102, 103, 255'],
  ['station', 'longitude', 181, 'Longitude must be between -180 and 180'],
  ['station', 'openingTime', '25:00', 'Opening time must be a time of day HH:mm'],
  ['station', 'isOpen', 'yes', 'Open flag must be true or false'],
  ['station', 'feeScope', 'both', 'Fee scope (internal or external) must be one of internal, external'],
  ['station', 'occupationIntervalMinutes', 0, 'Occupation interval minutes must be between 1 and 1440'],
  ['station', 'occupationUnitPriceFen', 1.5, 'Occupation unit price (fen) must be a whole number'],
  ['station', 'labelIds', [], 'At least one label per category'],
  ['pile', 'deviceStatus', 2, 'Device status must be one of 1, 5, 6, 50'],
  ['pile', 'type', 9, 'Charger type must be one of 0, 1, 2, 3, 4, 5, 6, 7, 8, 255'],
  ['pile', 'maxPowerW', '240kW', 'Maximum power (W) must be a number'],
  [
    'pile',
    'chargePointId',
    '-bad id',
    'Charge point id must start with a letter or digit and contain only letters, digits and . _ : -',
  ],
  ['pile', 'ocppPassword', 'short', 'OCPP password must be 16 to 40 characters'],
  ['pile', 'ratedPowerW', 300_000, 'Rated power (W) must not exceed maximum power (W)'],
  ['gun', 'connectorType', 6, 'Connector type must be one of 1, 2, 3, 4, 5, 255'],
  ['gun', 'channelNumber', 0, 'Channel number must be between 1 and 16'],
  ['vehicle', 'vin', 'LSVAB1234IO123456', 'VIN must be 17 letters or digits (no I, O or Q)'],
  ['vehicle', 'vin', 'LSVAB', 'VIN must be 17 characters'],
  ['vehicle', 'supplementarySoc', 101, 'Supplementary charging SOC threshold must be between 0 and 100'],
  ['card', 'type', 4, 'Card type must be one of 0, 1, 2, 3'],
  [
    'card',
    'status',
    'stolen',
    'Card status must be one of notMade, normal, occupied, lost, cancelled, invalid',
  ],
  ['manufacturer', 'type', 'bus', 'Type must be one of pile, car'],
  ['operator', 'creditCode', '123', 'Credit code must be 18 digits or capital letters'],
  ['region', 'areaCode', '35x', 'Area code must be 6 to 12 digits'],
  [
    'label',
    'type',
    'colour',
    'Label type must be one of payment, nationalStandard, chargingType, stationType',
  ],
];

/** Ids in the body that name nothing: 404 naming the field. */
const UNKNOWN_REFERENCES: UnknownReferenceCase[] = [
  ['branch', 'companyId', 'Company'],
  ['fleet', 'branchId', 'Branch'],
  ['line', 'fleetId', 'Fleet'],
  ['station', 'regionId', 'Region'],
  ['station', 'companyId', 'Company'],
  ['station', 'operatorId', 'Operator'],
  ['station', 'labelIds', 'Label', () => [...t.labelIds, 999999]],
  ['pile', 'stationId', 'Station'],
  ['pile', 'manufacturerId', 'Manufacturer'],
  ['gun', 'pileId', 'Charging host'],
  ['transformer', 'stationId', 'Station'],
  ['vehicle', 'manufacturerId', 'Manufacturer'],
  ['vehicle', 'lineId', 'Line'],
  ['card', 'organizationId', 'Organization'],
];

const cases = new AssetGridCases(t, VALID);

describe('charging assets: every grid', () => {
  describe.each(Object.keys(VALID))('%s', (kind) => {
    it('creates, reads, lists, updates and deletes', () =>
      cases.roundTrip(kind, {
        noun: NOUN[kind],
        renamed: kind === 'card' ? 'cardholder' : kind === 'vehicle' ? 'vehicleModel' : 'name',
        check({ body, created, got, page }) {
          expect(created).toMatchObject({ id: expect.any(Number), createdAt: expect.any(String) });
          for (const [field] of REQUIRED[kind].filter(([f]) => f !== 'ocppPassword')) {
            expect(got[field]).toEqual(field === 'vin' ? String(body[field]).toUpperCase() : body[field]);
          }
          expect(got).not.toHaveProperty('ocppPassword');
          expect(got).not.toHaveProperty('ocppPasswordHash');
          expect(page.total).toBeGreaterThanOrEqual(1);
        },
      }));

    cases.itRequiresEveryField(kind, REQUIRED[kind]);

    it('unknown ids: 404 for get, update and delete; 400 for a non-numeric id', async () => {
      const message = `${NOUN[kind]} 999999 does not exist`;
      for (const req of [
        t.http().get(`/api/${kind}/999999`),
        t.http().put(`/api/${kind}/999999`).send(VALID[kind]()),
        t.http().delete(`/api/${kind}/999999`),
      ]) {
        const res = await req.set(t.admin).expect(404);
        expect(errorOf(res.body, 'ASSET_NOT_FOUND').message).toBe(message);
      }
      const bad = await t.http().get(`/api/${kind}/abc`).set(t.admin).expect(400);
      expect(fieldErrors(bad.body).map((d) => d.field)).toEqual(['id']);
      await t.http().get(`/api/${kind}/page/0/size/10`).set(t.admin).expect(400);
    });

    it('rejects unknown body fields', async () => {
      const res = await cases.postValid(kind, { colour: 'red' }, 400);
      expect(fieldErrors(res.body)[0].message).toMatch(/Unrecognized key\(s\) in object: 'colour'/);
    });
  });

  cases.itRejectsTooLong(TOO_LONG);
  cases.itRejectsBadValues(BAD_VALUES);
  cases.itRejectsUnknownReferences(UNKNOWN_REFERENCES);
});

describe('charging assets: duplicates and business rules', () => {
  const DUPLICATES: [kind: string, field: string, message: (v: Body) => string][] = [
    ['company', 'number', (v) => `A company numbered '${String(v['number'])}' already exists`],
    [
      'branch',
      'number',
      (v) => `Company ${String(v['companyId'])} already has a branch numbered '${String(v['number'])}'`,
    ],
    [
      'fleet',
      'number',
      (v) => `Company ${String(v['companyId'])} already has a fleet numbered '${String(v['number'])}'`,
    ],
    [
      'line',
      'number',
      (v) => `Fleet ${String(v['fleetId'])} already has a line numbered '${String(v['number'])}'`,
    ],
    ['station', 'number', (v) => `A station numbered '${String(v['number'])}' already exists`],
    ['pile', 'number', (v) => `A charging host numbered '${String(v['number'])}' already exists`],
    [
      'pile',
      'chargePointId',
      (v) => `A charging host with charge point id '${String(v['chargePointId'])}' already exists`,
    ],
    ['gun', 'qrCode', (v) => `QR code '${String(v['qrCode'])}' is already used by another gun`],
    [
      'transformer',
      'name',
      (v) => `Station ${String(v['stationId'])} already has a box transformer named '${String(v['name'])}'`,
    ],
    ['vehicle', 'vin', (v) => `A vehicle with VIN '${String(v['vin'])}' already exists`],
    ['vehicle', 'plate', (v) => `A vehicle with license plate '${String(v['plate'])}' already exists`],
    [
      'card',
      'physicalNumber',
      (v) => `A card with physical number '${String(v['physicalNumber'])}' already exists`,
    ],
    [
      'card',
      'selfNumber',
      (v) => `Card self number '${String(v['selfNumber'])}' is repeated: card self numbers must be unique`,
    ],
    ['manufacturer', 'name', (v) => `A pile manufacturer named '${String(v['name'])}' already exists`],
    [
      'operator',
      'creditCode',
      (v) => `An operator with credit code '${String(v['creditCode'])}' already exists`,
    ],
    ['region', 'areaCode', (v) => `A region with area code '${String(v['areaCode'])}' already exists`],
    ['label', 'name', (v) => `A payment label named '${String(v['name'])}' already exists`],
  ];

  it.each(DUPLICATES)('%s: a repeated %s -> 409 naming it', async (kind, field, message) => {
    const first = VALID[kind]();
    if (kind === 'gun') first['channelNumber'] = 1;
    const created = await t.create(kind, first);
    const second = { ...VALID[kind](), [field]: first[field] };
    if (kind === 'branch' || kind === 'fleet') second['companyId'] = first['companyId'];
    if (kind === 'gun') second['channelNumber'] = 2;
    const res = await t.http().post(`/api/${kind}`).set(t.admin).send(second).expect(409);
    const text = message(second);
    expect(res.body).toEqual({
      code: 'ASSET_DUPLICATE',
      message: text,
      details: [{ field, message: text }],
      correlationId: expect.any(String),
    });
    // Updating another row to the taken value is the same conflict.
    const other = await t.create(
      kind,
      kind === 'gun' ? aGun(ids['pile'], { channelNumber: 2 }) : VALID[kind](),
    );
    await t.http().put(`/api/${kind}/${other.id}`).set(t.admin).send(second).expect(409);
    await t.http().delete(`/api/${kind}/${other.id}`).set(t.admin).expect(204);
    await t.http().delete(`/api/${kind}/${created.id}`).set(t.admin).expect(204);
  });

  it('a gun on the same channel of the same host -> 409', async () => {
    const gun = await t.create('gun', aGun(ids['pile'], { channelNumber: 1 }));
    const res = await t
      .http()
      .post('/api/gun')
      .set(t.admin)
      .send(aGun(ids['pile'], { channelNumber: 1 }))
      .expect(409);
    expect(errorOf(res.body, 'ASSET_DUPLICATE').message).toBe(
      `Charging host ${ids['pile']} already has a gun on channel 1`,
    );
    await t.http().delete(`/api/gun/${gun.id}`).set(t.admin).expect(204);
  });

  it.each([
    [
      'a station without a label of every category',
      'station',
      () => aStation(ids['region'], [t.labels.payment.id]),
      400,
      'VALIDATION_FAILED',
      'Validation failed: labelIds: At least one label per category (missing: nationalStandard, chargingType)',
    ],
    [
      'a gun channel beyond the host’s gun count',
      'gun',
      () => aGun(ids['pile'], { channelNumber: 3 }),
      422,
      'ASSET_RULE_VIOLATED',
      () => `Channel number 3 exceeds the number of guns (2) of charging host ${ids['pile']}`,
    ],
    [
      'a fleet whose branch belongs to another company',
      'fleet',
      () => aFleet(ids['company'], { branchId: ids['otherBranch'] }),
      422,
      'ASSET_RULE_VIOLATED',
      () => `Branch ${ids['otherBranch']} does not belong to company ${ids['company']}`,
    ],
    [
      'a vehicle built by a pile manufacturer',
      'vehicle',
      () => aVehicle(ids['pileMaker']),
      422,
      'ASSET_RULE_VIOLATED',
      () => `Manufacturer ${ids['pileMaker']} is not a car manufacturer`,
    ],
    [
      'a host built by a car manufacturer',
      'pile',
      () => aPile(ids['station'], { manufacturerId: ids['carMaker'] }),
      422,
      'ASSET_RULE_VIOLATED',
      () => `Manufacturer ${ids['carMaker']} is not a charging pile manufacturer`,
    ],
    [
      'a vehicle whose fleet belongs to another company',
      'vehicle',
      () => aVehicle(ids['carMaker'], { companyId: ids['company'], fleetId: ids['otherFleet'] }),
      422,
      'ASSET_RULE_VIOLATED',
      () => `Fleet ${ids['otherFleet']} does not belong to company ${ids['company']}`,
    ],
  ] as const)('%s -> %s', async (_name, kind, body, status, code, message) => {
    const res = await t.http().post(`/api/${kind}`).set(t.admin).send(body()).expect(status);
    errorOf(res.body, code);
    expect(res.body.message).toBe(typeof message === 'function' ? message() : message);
  });

  it('a row still used cannot be deleted: 409 naming what uses it', async () => {
    const res = await t.http().delete(`/api/company/${ids['otherCompany']}`).set(t.admin).expect(409);
    expect(errorOf(res.body, 'ASSET_IN_USE').message).toMatch(
      new RegExp(`^Company ${ids['otherCompany']} is still used by (branches|fleets) and cannot be deleted$`),
    );
    const region = await t.http().delete(`/api/region/${ids['region']}`).set(t.admin).expect(409);
    expect(region.body.message).toBe(
      `Region ${ids['region']} is still used by stations and cannot be deleted`,
    );
  });

  it('a station keeps its labels and fee settings; money in integer fen', async () => {
    const station = await t.create(
      'station',
      aStation(ids['region'], t.labelIds, { occupationUnitPriceFen: 150 }),
    );
    expect(station).toMatchObject({
      labelIds: [...t.labelIds].sort((a, b) => a - b),
      feeScope: 'internal',
      occupationUnitPriceFen: 150,
      cappedAmountFen: 5000,
      openingTime: '00:00',
      longitude: 119.296494,
      pricePlanId: null,
    });
    // Billing owns the station -> price plan link; the station shows the plan in force.
    const plan = await t
      .http()
      .post('/api/pricePlan')
      .set(t.admin)
      .send({
        name: `Depot plan ${station.id}`,
        stages: [
          {
            stageType: 'normal',
            startTime: '00:00',
            endTime: '24:00',
            electricityPrice: '0.6',
            serviceFee: '0.4',
          },
        ],
      })
      .expect(201);
    await t
      .http()
      .post(`/api/pricePlan/station/${station.id}`)
      .set(t.admin)
      .send({ planId: plan.body.id }) // from now: a plan never applies from the past
      .expect(204);
    expect((await t.http().get(`/api/station/${station.id}`).set(t.admin).expect(200)).body.pricePlanId).toBe(
      plan.body.id,
    );
    const res = await t
      .http()
      .post('/api/station')
      .set(t.admin)
      .send(aStation(ids['region'], t.labelIds, { cappedAmountFen: 12.5 }))
      .expect(400);
    expect(fieldErrors(res.body)).toEqual([
      { field: 'cappedAmountFen', message: 'Capped amount (fen) must be a whole number' },
    ]);
  });
});

describe('charging assets: data scope', () => {
  it('a maintainer (Hefei depot) neither sees nor uses rows of other organisations', async () => {
    const page = (await t.http().get('/api/station/page/1/size/100').set(t.maintainer).expect(200)).body;
    expect(page.list.map((s: Body) => s['id'])).not.toContain(ids['station']);
    const hidden = await t.http().get(`/api/station/${ids['station']}`).set(t.maintainer).expect(404);
    expect(hidden.body.message).toBe(`Station ${ids['station']} does not exist`);
    const ref = await t.http().post('/api/pile').set(t.maintainer).send(aPile(ids['station'])).expect(404);
    expect(ref.body.message).toBe(`Station ${ids['station']} does not exist`);

    const [fz] = await t.db.dataSource.query(`SELECT id FROM sys_organization WHERE code = 'FZ'`);
    const outside = await t
      .http()
      .post('/api/station')
      .set(t.maintainer)
      .send(aStation(ids['region'], t.labelIds, { organizationId: Number(fz.id) }))
      .expect(403);
    expect(errorOf(outside.body, 'ASSET_OUT_OF_DATA_SCOPE').message).toBe(
      `Organization ${fz.id} is outside your data scope`,
    );

    const own = await t.create('station', aStation(ids['region'], t.labelIds), t.maintainer);
    const [hf] = await t.db.dataSource.query(`SELECT id FROM sys_organization WHERE code = 'HF'`);
    expect(own.organizationId).toBe(Number(hf.id));
    const pile = await t.create('pile', aPile(own.id), t.maintainer);
    expect(pile.organizationId).toBe(Number(hf.id));
    const mine = (await t.http().get('/api/pile/page/1/size/100').set(t.maintainer).expect(200)).body;
    expect(mine.list.map((p: Body) => p['id'])).toEqual([pile.id]);
  });

  it('the maintainer may not add companies (403 naming the permission)', async () => {
    const res = await t.http().post('/api/company').set(t.maintainer).send(aCompany()).expect(403);
    expect(errorOf(res.body, 'FORBIDDEN').message).toBe('Missing permission: basic:company:add');
  });
});
