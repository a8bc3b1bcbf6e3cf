import {
  aCamera,
  aCard,
  aGun,
  aJpeg,
  aMaintenancePerson,
  anAlarmCode,
  aParkingSpace,
  aPeakTime,
  aPile,
  aPng,
  aRegion,
  aStation,
  aStopCode,
  aTransformer,
  unique,
} from '@voltdepot/server-testing';
import { bearer, DEMO_PASSWORD, errorOf, fieldErrors } from '../fixtures/api-test-app';
import {
  AssetGridCases,
  type BadValueCase,
  type TooLongCase,
  type UnknownReferenceCase,
} from '../fixtures/asset-grid-cases';
import { type Auth, type Body, type Row, useAssetsTestApp } from '../fixtures/assets-test-app';

const t = useAssetsTestApp();
const ids: Record<string, number> = {};

beforeAll(async () => {
  ids['region'] = (await t.create('region', aRegion())).id;
  ids['station'] = (await t.create('station', aStation(ids['region'], t.labelIds))).id;
  ids['otherStation'] = (await t.create('station', aStation(ids['region'], t.labelIds))).id;
  ids['pile'] = (await t.create('pile', aPile(ids['station']))).id;
  ids['gun'] = (await t.create('gun', aGun(ids['pile']))).id;
  ids['otherPile'] = (await t.create('pile', aPile(ids['otherStation']))).id;
  ids['otherGun'] = (await t.create('gun', aGun(ids['otherPile']))).id;
});

let peakSlot = 0;
function halfHour(slot: number): { startTime: string; endTime: string } {
  const at = (minutes: number) =>
    `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  return { startTime: at(480 + slot * 30), endTime: at(510 + slot * 30) };
}

const VALID: Record<string, () => Body> = {
  parkingSpace: () => aParkingSpace(ids['station']),
  camera: () => aCamera(ids['station']),
  alarmCode: () => anAlarmCode(),
  stopCode: () => aStopCode(),
  maintenancePersonnel: () => aMaintenancePerson({ stationId: ids['station'] }),
  // Each valid peak time its own half hour from 08:00, so that they never overlap one another.
  peakTime: () => aPeakTime(ids['otherStation'], halfHour(peakSlot++ % 32)),
};

const NOUN: Record<string, string> = {
  parkingSpace: 'Parking space',
  camera: 'Camera',
  alarmCode: 'Alarm code',
  stopCode: 'Stop-charging code',
  maintenancePersonnel: 'Maintenance person',
  peakTime: 'Peak charging time',
};

/** Required fields and their "cannot be empty" labels (business-areas §5). */
const REQUIRED: Record<string, [field: string, label: string][]> = {
  parkingSpace: [
    ['stationId', 'Station'],
    ['number', 'Number'],
    ['type', 'Parking space type'],
  ],
  camera: [
    ['stationId', 'Station'],
    ['code', 'Camera id'],
    ['name', 'Name'],
    ['externalAddress', 'External address'],
  ],
  alarmCode: [
    ['protocolType', 'Protocol type'],
    ['code', 'Code'],
    ['name', 'Name'],
    ['level', 'Alarm level'],
    ['category', 'Alarm category'],
  ],
  // §5: "Stop-charging code: code, name, protocol type."
  stopCode: [
    ['protocolType', 'Protocol type'],
    ['code', 'Code'],
    ['name', 'Name'],
    ['normal', 'Stopped normally'],
  ],
  maintenancePersonnel: [
    ['number', 'Number'],
    ['name', 'Name'],
    ['phone', 'Phone'],
  ],
  peakTime: [
    ['periodType', 'Period type'],
    ['startTime', 'Start time'],
    ['endTime', 'End time'],
  ],
};

const TOO_LONG: TooLongCase[] = [
  ['parkingSpace', 'number', 'Number', 16],
  ['camera', 'name', 'Name', 32],
  ['camera', 'code', 'Camera id', 64],
  ['alarmCode', 'code', 'Code', 16],
  ['alarmCode', 'name', 'Name', 32],
  ['stopCode', 'name', 'Name', 32],
  ['stopCode', 'protocolType', 'Protocol type', 16],
  ['maintenancePersonnel', 'name', 'Name', 30],
  ['maintenancePersonnel', 'number', 'Number', 16],
  ['peakTime', 'remark', 'Remark', 255],
];

const BAD_VALUES: BadValueCase[] = [
  ['parkingSpace', 'type', 'truck', 'Parking space type must be one of bus, social'],
  ['parkingSpace', 'lengthM', 0, 'Length (m) must be between 0.01 and 100'],
  ['parkingSpace', 'lengthM', 12.345, 'Length (m) may have at most 2 decimals'],
  ['parkingSpace', 'transverseDistanceM', '1m', 'Transverse distance (m) must be a number'],
  ['camera', 'externalAddress', 'ftp://cam', 'External address must be an http, https, rtsp or rtmp address'],
  ['camera', 'code', 'cam 1', 'Camera id may contain only letters, digits and . _ : -'],
  ['camera', 'isShow', 'yes', 'Shown in the camera tree must be true or false'],
  ['alarmCode', 'level', 4, 'Alarm level must be one of 0, 1, 2, 3'],
  [
    'alarmCode',
    'category',
    'battery',
    'Alarm category must be one of general, energyStorage, driveMotor, engine, other',
  ],
  ['alarmCode', 'protocolType', 'ocpp 1.6', 'Protocol type may contain only letters, digits and . _ -'],
  ['stopCode', 'normal', 'no', 'Stopped normally must be true or false'],
  ['stopCode', 'code', 'a b', 'Code may contain only letters, digits and . _ : -'],
  ['maintenancePersonnel', 'phone', 'call me', 'Phone may contain only digits, spaces, + and -'],
  ['peakTime', 'periodType', 'offPeak', 'Period type must be one of valley, normal, peak, sharp, deepValley'],
  ['peakTime', 'startTime', '8:00', 'Start time must be a time of day HH:mm'],
  ['peakTime', 'endTime', '24:30', 'End time must be a time of day HH:mm'],
  ['peakTime', 'endTime', '07:00', 'End time must be later than start time'],
];

const UNKNOWN_REFERENCES: UnknownReferenceCase[] = [
  ['parkingSpace', 'stationId', 'Station'],
  ['parkingSpace', 'gunId', 'Gun'],
  ['camera', 'stationId', 'Station'],
  ['maintenancePersonnel', 'stationId', 'Station'],
  ['peakTime', 'stationId', 'Station'],
];

const cases = new AssetGridCases(t, VALID);

describe('basic data: the remaining grids of business-areas §3', () => {
  describe.each(Object.keys(VALID))('%s', (kind) => {
    it('creates, reads, lists, updates and deletes', () =>
      cases.roundTrip(kind, {
        noun: NOUN[kind],
        renamed: kind === 'peakTime' ? 'remark' : kind === 'parkingSpace' ? 'number' : 'name',
        check({ body, got }) {
          for (const [field] of REQUIRED[kind]) expect(got[field]).toEqual(body[field]);
        },
      }));

    cases.itRequiresEveryField(kind, REQUIRED[kind]);

    it('unknown ids are 404s and unknown body fields 400s', async () => {
      const res = await t.http().get(`/api/${kind}/999999`).set(t.admin).expect(404);
      expect(res.body.message).toBe(`${NOUN[kind]} 999999 does not exist`);
      const extra = await cases.postValid(kind, { colour: 'red' }, 400);
      expect(fieldErrors(extra.body)[0].message).toMatch(/Unrecognized key\(s\) in object: 'colour'/);
    });
  });

  cases.itRejectsTooLong(TOO_LONG);
  cases.itRejectsBadValues(BAD_VALUES);
  cases.itRejectsUnknownReferences(UNKNOWN_REFERENCES);

  const DUPLICATES: [kind: string, field: string, message: (v: Body) => string][] = [
    [
      'parkingSpace',
      'number',
      (v) =>
        `Station ${String(v['stationId'])} already has a parking space numbered '${String(v['number'])}'`,
    ],
    ['camera', 'code', (v) => `A camera with id '${String(v['code'])}' already exists`],
    [
      'alarmCode',
      'code',
      (v) => `Alarm code '${String(v['code'])}' already exists for protocol '${String(v['protocolType'])}'`,
    ],
    [
      'stopCode',
      'code',
      (v) =>
        `Stop-charging code '${String(v['code'])}' already exists for protocol '${String(v['protocolType'])}'`,
    ],
    [
      'maintenancePersonnel',
      'number',
      (v) => `A maintenance person numbered '${String(v['number'])}' already exists`,
    ],
  ];

  it.each(DUPLICATES)('%s: a repeated %s -> 409 naming it', async (kind, field, message) => {
    const first = await t.create(kind, VALID[kind]());
    const second = { ...VALID[kind](), [field]: first[field] };
    const res = await t.http().post(`/api/${kind}`).set(t.admin).send(second).expect(409);
    expect(res.body).toMatchObject({
      code: 'ASSET_DUPLICATE',
      message: message(second),
      details: [{ field, message: message(second) }],
    });
    await t.http().delete(`/api/${kind}/${first.id}`).set(t.admin).expect(204);
  });

  it('the same alarm or stop code may exist once per protocol', async () => {
    const code = unique('X');
    const a = await t.create('alarmCode', anAlarmCode({ code, protocolType: 'ocpp1.6' }));
    const b = await t.create('alarmCode', anAlarmCode({ code, protocolType: 'gbt27930' }));
    expect(b.code).toBe(a.code);
    const s = await t.create('stopCode', aStopCode({ code, protocolType: 'gbt27930' }));
    expect(s).toMatchObject({ code, normal: true, protocolType: 'gbt27930' });
  });
});

describe('basic data: cross-row rules', () => {
  it.each([
    [
      'a parking space served by a gun of another station',
      'parkingSpace',
      () => aParkingSpace(ids['station'], { gunId: ids['otherGun'] }),
      () => `Gun ${ids['otherGun']} is not at station ${ids['station']}`,
      'gunId',
    ],
    [
      'a host fed by a box transformer of another station',
      'pile',
      () => aPile(ids['station'], { transformerId: ids['otherTransformer'] }),
      () => `Box transformer ${ids['otherTransformer']} is not at station ${ids['station']}`,
      'transformerId',
    ],
  ] as const)('%s -> 422', async (_name, kind, body, message, field) => {
    ids['otherTransformer'] ??= (await t.create('transformer', aTransformer(ids['otherStation']))).id;
    const res = await t.http().post(`/api/${kind}`).set(t.admin).send(body()).expect(422);
    expect(res.body).toMatchObject({
      code: 'ASSET_RULE_VIOLATED',
      message: message(),
      details: [{ field, message: message() }],
    });
  });

  it('a parking space served by a gun of its station keeps the gun; deleting the host frees the space', async () => {
    const pile = await t.create('pile', aPile(ids['station']));
    const gun = await t.create('gun', aGun(pile.id));
    const space = await t.create('parkingSpace', aParkingSpace(ids['station'], { gunId: gun.id }));
    expect(space).toMatchObject({ gunId: gun.id, gunName: 'Gun 1', lengthM: 12.5, type: 'bus' });
    await t.http().delete(`/api/pile/${pile.id}`).set(t.admin).expect(204);
    const after = (await t.http().get(`/api/parkingSpace/${space.id}`).set(t.admin).expect(200)).body;
    expect(after.gunId).toBeNull();
  });

  it('a station with parking spaces or cameras cannot be deleted: 409 naming them', async () => {
    const station = await t.create('station', aStation(ids['region'], t.labelIds));
    const camera = await t.create('camera', aCamera(station.id));
    const res = await t.http().delete(`/api/station/${station.id}`).set(t.admin).expect(409);
    expect(errorOf(res.body, 'ASSET_IN_USE').message).toBe(
      `Station ${station.id} is still used by cameras and cannot be deleted`,
    );
    await t.http().delete(`/api/camera/${camera.id}`).set(t.admin).expect(204);
    await t.http().delete(`/api/station/${station.id}`).set(t.admin).expect(204);
  });

  it('peak charging times of one station never overlap; another station or the whole organisation may', async () => {
    const station = await t.create('station', aStation(ids['region'], t.labelIds));
    const morning = await t.create(
      'peakTime',
      aPeakTime(station.id, { startTime: '08:00', endTime: '11:00' }),
    );
    const clash = await t
      .http()
      .post('/api/peakTime')
      .set(t.admin)
      .send(aPeakTime(station.id, { startTime: '10:30', endTime: '12:00', periodType: 'sharp' }))
      .expect(422);
    const message = `The period overlaps 08:00-11:00 (peak charging time ${morning.id})`;
    expect(clash.body).toMatchObject({
      code: 'ASSET_RULE_VIOLATED',
      message,
      details: [{ field: 'startTime', message }],
    });
    // Touching periods are fine, and so is the end of the day written 24:00.
    await t.create('peakTime', aPeakTime(station.id, { startTime: '11:00', endTime: '12:00' }));
    const night = await t.create(
      'peakTime',
      aPeakTime(station.id, { startTime: '22:00', endTime: '24:00', periodType: 'valley' }),
    );
    expect(night).toMatchObject({ startTime: '22:00', endTime: '24:00', periodType: 'valley' });
    await t.create('peakTime', aPeakTime(null, { startTime: '08:00', endTime: '11:00' }));
    // Moving a period onto another is the same clash, and nothing is changed.
    const moved = await t
      .http()
      .put(`/api/peakTime/${night.id}`)
      .set(t.admin)
      .send(aPeakTime(station.id, { startTime: '07:00', endTime: '09:00' }))
      .expect(422);
    expect(moved.body.message).toBe(message);
    const kept = (await t.http().get(`/api/peakTime/${night.id}`).set(t.admin).expect(200)).body;
    expect(kept.startTime).toBe('22:00');
  });

  it('a box transformer shows what the hosts it feeds may draw (its load against its capacity)', async () => {
    const transformer = await t.create('transformer', aTransformer(ids['station'], { capacityKva: 630 }));
    await t.create(
      'pile',
      aPile(ids['station'], { transformerId: transformer.id, maxPowerW: 240_000, ratedPowerW: 240_000 }),
    );
    await t.create(
      'pile',
      aPile(ids['station'], { transformerId: transformer.id, maxPowerW: 120_000, ratedPowerW: 120_000 }),
    );
    const got = (await t.http().get(`/api/transformer/${transformer.id}`).set(t.admin).expect(200)).body;
    expect(got).toMatchObject({ capacityKva: 630, connectedPowerW: 360_000, hostCount: 2 });
    const filtered = (
      await t.http().get(`/api/pile/page/1/size/10?transformerId=${transformer.id}`).set(t.admin).expect(200)
    ).body;
    expect(filtered.total).toBe(2);
    const inUse = await t.http().delete(`/api/transformer/${transformer.id}`).set(t.admin).expect(409);
    expect(inUse.body.message).toBe(
      `Box transformer ${transformer.id} is still used by charging hosts and cannot be deleted`,
    );
  });

  it('stations, hosts, guns and vehicles keep every field of §3', async () => {
    const station = await t.create(
      'station',
      aStation(ids['region'], t.labelIds, {
        constructionSite: 'North lot B',
        areaSqm: 12000,
        parkingOwner: 'City Bus Group',
        parkingManager: 'Depot office',
        parkingFloor: 'B1',
        serviceFeeFree: false,
        serviceFeeFen: 40,
        serviceFeeDescription: '0.40 yuan per kWh',
        occupationFeeEnabled: true,
        operatedExternally: true,
        shownOnMobile: false,
      }),
    );
    expect(station).toMatchObject({
      constructionSite: 'North lot B',
      areaSqm: 12000,
      parkingFloor: 'B1',
      serviceFeeFen: 40,
      occupationFeeEnabled: true,
      operatedExternally: true,
      shownOnMobile: false,
      pictureIds: [],
    });
    const defaults = await t.create('station', aStation(ids['region'], t.labelIds));
    expect(defaults).toMatchObject({ serviceFeeFree: false, shownOnMobile: true, operatedExternally: false });
    const pile = await t.create(
      'pile',
      aPile(station.id, { chargingType: 0, startMode: 2, coordinateX: 120.5, coordinateY: -3.25 }),
    );
    expect(pile).toMatchObject({ chargingType: 0, startMode: 2, coordinateX: 120.5, coordinateY: -3.25 });
    const badStart = await t
      .http()
      .post('/api/pile')
      .set(t.admin)
      .send(aPile(station.id, { startMode: 5 }))
      .expect(400);
    expect(fieldErrors(badStart.body)).toEqual([
      { field: 'startMode', message: 'Start mode must be one of 0, 1, 2, 3, 4' },
    ]);
    const gun = await t.create(
      'gun',
      aGun(pile.id, { terminalName: 'T1', groundLockStatus: 50, parkingPlaceType: 'social' }),
    );
    expect(gun).toMatchObject({ terminalName: 'T1', groundLockStatus: 50, parkingPlaceType: 'social' });
    const badLock = await t
      .http()
      .post('/api/gun')
      .set(t.admin)
      .send(aGun(pile.id, { channelNumber: 2, groundLockStatus: 20 }))
      .expect(400);
    expect(fieldErrors(badLock.body)).toEqual([
      { field: 'groundLockStatus', message: 'Ground lock status must be one of 0, 10, 50' },
    ]);
  });
});

describe('station pictures (JPG or PNG, at most 2MB)', () => {
  const upload = (stationId: number, buffer: Buffer, name: string, who: Auth = t.admin) =>
    t.http().post(`/api/station/${stationId}/picture`).set(who).attach('file', buffer, name);

  it('uploads, lists, serves and deletes a picture', async () => {
    const png = aPng();
    const res = await upload(ids['station'], png, 'front.png').expect(201);
    const station = (await t.http().get(`/api/station/${ids['station']}`).set(t.admin).expect(200)).body;
    expect(station.pictureIds).toContain(res.body.id);
    const served = await t
      .http()
      .get(`/api/station/${ids['station']}/picture/${res.body.id}`)
      .set(t.admin)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(served.body as Buffer, png)).toBe(0);
    await upload(ids['station'], aJpeg(), 'side.JPEG').expect(201);
    await t.http().delete(`/api/station/${ids['station']}/picture/${res.body.id}`).set(t.admin).expect(204);
    const gone = await t
      .http()
      .get(`/api/station/${ids['station']}/picture/${res.body.id}`)
      .set(t.admin)
      .expect(404);
    expect(gone.body.message).toBe(`Station ${ids['station']} has no picture ${res.body.id}`);
  });

  it.each([
    ['a GIF', Buffer.from('GIF89a-------'), 'logo.gif', 'Station image must be JPG or PNG'],
    ['a PNG named .gif', aPng(), 'logo.gif', 'Station image must be JPG or PNG'],
    ['text named .png', Buffer.from('not an image at all'), 'fake.png', 'Station image must be JPG or PNG'],
    ['a JPEG named .png', aJpeg(), 'photo.png', 'Station image must be JPG or PNG'],
    ['a PNG over 2MB', aPng(2 * 1024 * 1024 + 1), 'big.png', 'Station image must be at most 2MB'],
  ])('%s -> 400 "%s"', async (_name, buffer, name, message) => {
    const res = await upload(ids['station'], buffer, name).expect(400);
    expect(fieldErrors(res.body)).toEqual([{ field: 'file', message }]);
  });

  it('no file -> 400; exactly 2MB is accepted', async () => {
    const res = await t.http().post(`/api/station/${ids['otherStation']}/picture`).set(t.admin).expect(400);
    expect(fieldErrors(res.body)).toEqual([{ field: 'file', message: 'Station image cannot be empty' }]);
    await upload(ids['otherStation'], aPng(2 * 1024 * 1024), 'max.png').expect(201);
  });

  it('a station has at most 9 pictures', async () => {
    const station = await t.create('station', aStation(ids['region'], t.labelIds));
    for (let i = 0; i < 9; i++) await upload(station.id, aPng(64), `p${i}.png`).expect(201);
    const res = await upload(station.id, aPng(64), 'p9.png').expect(422);
    expect(errorOf(res.body, 'STATION_PICTURE_REJECTED').message).toBe(
      'A station has at most 9 pictures: delete one first',
    );
  });

  it('keeps one site plan per station, apart from the nine pictures; a new one replaces it', async () => {
    const station = await t.create('station', aStation(ids['region'], t.labelIds));
    expect(station).toMatchObject({ pictureIds: [], sitePlanPictureId: null });
    for (let i = 0; i < 9; i++) await upload(station.id, aPng(64), `p${i}.png`).expect(201);
    const sitePlan = (name: string) =>
      t
        .http()
        .post(`/api/station/${station.id}/picture`)
        .query({ sitePlan: 'true' })
        .set(t.admin)
        .attach('file', aPng(128), name);
    const first = (await sitePlan('plan.png').expect(201)).body as { id: number };
    const second = (await sitePlan('plan-v2.png').expect(201)).body as { id: number };
    const view = (await t.http().get(`/api/station/${station.id}`).set(t.admin).expect(200)).body;
    expect(view.sitePlanPictureId).toBe(second.id);
    expect(view.pictureIds).toHaveLength(9);
    expect(view.pictureIds).not.toContain(second.id);
    await t.http().get(`/api/station/${station.id}/picture/${first.id}`).set(t.admin).expect(404);
    await t.http().get(`/api/station/${station.id}/picture/${second.id}`).set(t.admin).expect(200);
    const bad = await t
      .http()
      .post(`/api/station/${station.id}/picture`)
      .query({ sitePlan: 'yes' })
      .set(t.admin)
      .attach('file', aPng(64), 'x.png')
      .expect(400);
    expect(fieldErrors(bad.body)).toEqual([
      { field: 'sitePlan', message: "sitePlan must be 'true' or 'false'" },
    ]);
    await t.http().delete(`/api/station/${station.id}/picture/${second.id}`).set(t.admin).expect(204);
    expect(
      (await t.http().get(`/api/station/${station.id}`).set(t.admin).expect(200)).body.sitePlanPictureId,
    ).toBeNull();
  });

  it('pictures of a station outside the data scope look non-existent; without the edit button no upload', async () => {
    const res = await upload(ids['station'], aPng(), 'x.png', t.maintainer).expect(404);
    expect(res.body.message).toBe(`Station ${ids['station']} does not exist`);
    const operator = bearer(await t.login('operator', DEMO_PASSWORD));
    await upload(ids['station'], aPng(), 'ok.png', operator).expect(201);
  });
});

describe('station fee settings (basic:stationFee)', () => {
  const fee = {
    feeScope: 'external',
    freeParkingMinutes: 20,
    occupationIntervalMinutes: 10,
    occupationUnitPriceFen: 200,
    cappedAmountFen: 8000,
    occupationFeeEnabled: true,
    serviceFeeFree: true,
  };

  it('lists the stations’ fee settings and changes only them', async () => {
    const page = (await t.http().get('/api/stationFee/page/1/size/500').set(t.admin).expect(200)).body;
    const row = page.list.find((r: Body) => r['id'] === ids['station']);
    expect(row).toMatchObject({ feeScope: 'internal', occupationUnitPriceFen: 100 });
    expect(row).toHaveProperty('name');
    const updated = (
      await t.http().put(`/api/stationFee/${ids['station']}`).set(t.admin).send(fee).expect(200)
    ).body;
    expect(updated).toMatchObject(fee);
    const station = (await t.http().get(`/api/station/${ids['station']}`).set(t.admin).expect(200)).body;
    expect(station).toMatchObject({ ...fee, labelIds: [...t.labelIds].sort((a, b) => a - b) });
  });

  it.each([
    ['cappedAmountFen', 1.5, 'Capped amount (fen) must be a whole number'],
    ['feeScope', undefined, 'Fee scope (internal or external) cannot be empty'],
    ['occupationIntervalMinutes', 0, 'Occupation interval minutes must be between 1 and 1440'],
    ['name', 'Renamed', "Unrecognized key(s) in object: 'name'"],
  ])('%s = %j -> 400 "%s"', async (field, value, message) => {
    const res = await t
      .http()
      .put(`/api/stationFee/${ids['station']}`)
      .set(t.admin)
      .send({ ...fee, [field]: value })
      .expect(400);
    expect(fieldErrors(res.body)).toEqual([{ field: field === 'name' ? '(root)' : field, message }]);
  });

  it('maintainers read fee settings but may not change them', async () => {
    await t.http().get('/api/stationFee/page/1/size/10').set(t.maintainer).expect(200);
    const res = await t
      .http()
      .put(`/api/stationFee/${ids['station']}`)
      .set(t.maintainer)
      .send(fee)
      .expect(403);
    expect(res.body.message).toBe('Missing permission: basic:stationFee:edit');
  });
});

describe('charging-card actions (business-areas §4)', () => {
  async function card(status: string): Promise<Row> {
    return t.create('card', aCard({ status }));
  }
  const act = (id: number, action: string, body: Body = {}) =>
    t.http().post(`/api/card/${id}/${action}`).set(t.admin).send(body);
  const idTag = async (tag: unknown) =>
    (
      (await t.db.dataSource.query(`SELECT status FROM id_tag WHERE id_tag = $1`, [tag])) as {
        status: string;
      }[]
    )[0]?.status;

  it.each([
    ['make', 'notMade', 'normal', 'Accepted'],
    ['reportLoss', 'normal', 'lost', 'Blocked'],
    ['releaseLoss', 'lost', 'normal', 'Accepted'],
    ['logout', 'normal', 'cancelled', 'Blocked'],
  ])('%s: %s -> %s (id tag %s)', async (action, from, to, tagStatus) => {
    const c = await card(from);
    const res = await act(c.id, action).expect(200);
    expect(res.body).toMatchObject({ id: c.id, status: to, physicalNumber: c.physicalNumber });
    expect(await idTag(c.physicalNumber)).toBe(tagStatus);
  });

  it.each([
    ['replace', 'lost'],
    ['swap', 'normal'],
  ])('%s (%s card): a new physical number, the old one blocked', async (action, from) => {
    const c = await card(from);
    const physicalNumber = unique('NEW');
    const res = await act(c.id, action, { physicalNumber }).expect(200);
    expect(res.body).toMatchObject({ status: 'normal', physicalNumber, selfNumber: c.selfNumber });
    expect(await idTag(physicalNumber)).toBe('Accepted');
    expect(await idTag(c.physicalNumber)).toBe('Blocked');
  });

  it.each([
    ['reportLoss', 'lost', 'A card not in normal status cannot be operated'],
    ['reportLoss', 'notMade', 'A card not in normal status cannot be operated'],
    ['logout', 'cancelled', 'A card not in normal status cannot be operated'],
    ['swap', 'invalid', 'A card not in normal status cannot be operated'],
    ['make', 'normal', 'Only a card that has not been made can be made'],
    ['releaseLoss', 'normal', 'Only a card reported lost can have its loss released'],
    ['replace', 'normal', 'Only a card reported lost can be replaced'],
  ])('%s of a %s card -> 422 "%s"', async (action, from, message) => {
    const c = await card(from);
    const res = await act(c.id, action, { physicalNumber: unique('N') }).expect(422);
    expect(res.body).toMatchObject({
      code: 'ASSET_RULE_VIOLATED',
      message,
      details: [{ field: 'status', message }],
    });
    const after = (await t.http().get(`/api/card/${c.id}`).set(t.admin).expect(200)).body;
    expect(after.status).toBe(from);
  });

  it.each([
    [
      'replace without a new number',
      'replace',
      'lost',
      {},
      'physicalNumber',
      'Physical number cannot be empty',
    ],
    [
      'swap to the same number',
      'swap',
      'normal',
      'same',
      'physicalNumber',
      'The new physical number must differ from the current one',
    ],
    [
      'a number with spaces',
      'swap',
      'normal',
      { physicalNumber: 'A B' },
      'physicalNumber',
      'Physical number may contain only letters and digits',
    ],
    [
      'a number for report loss',
      'reportLoss',
      'normal',
      { physicalNumber: 'ABC' },
      'physicalNumber',
      'Physical number is given only to replace or swap a card',
    ],
    [
      'an unknown field',
      'logout',
      'normal',
      { reason: 'x' },
      '(root)',
      "Unrecognized key(s) in object: 'reason'",
    ],
  ] as const)('%s -> 400', async (_name, action, from, body, field, message) => {
    const c = await card(from);
    const sent = body === 'same' ? { physicalNumber: c.physicalNumber } : body;
    const res = await act(c.id, action, sent).expect(400);
    expect(fieldErrors(res.body)).toEqual([{ field, message }]);
  });

  it('swapping to a physical number another card has -> 409; unknown card -> 404', async () => {
    const a = await card('normal');
    const b = await card('normal');
    const res = await act(a.id, 'swap', { physicalNumber: b.physicalNumber }).expect(409);
    expect(res.body.message).toBe(`A card with physical number '${String(b.physicalNumber)}' already exists`);
    expect(await idTag(a.physicalNumber)).toBe('Accepted');
    const missing = await act(999999, 'reportLoss').expect(404);
    expect(missing.body.message).toBe('Charging card 999999 does not exist');
  });

  it('each action is its own button: the maintainer has none of them', async () => {
    const c = await card('normal');
    const res = await t.http().post(`/api/card/${c.id}/reportLoss`).set(t.maintainer).send({}).expect(403);
    expect(res.body.message).toBe('Missing permission: basic:cardConfig:reportLoss');
  });
});

describe('charging hosts: batch delivery', () => {
  it.each([
    [{}, 'At least one host must be selected'],
    [{ ids: [] }, 'At least one host must be selected'],
  ])('%j -> 400 "%s"', async (body, message) => {
    const res = await t.http().post('/api/pile/batch/delivery').set(t.admin).send(body).expect(400);
    expect(fieldErrors(res.body)).toEqual([{ field: 'ids', message }]);
  });

  it('writes the hosts’ settings to the gateway registry again and records when', async () => {
    const pile = await t.create('pile', aPile(ids['station'], { deviceStatus: 6 }));
    await t.db.dataSource.query(`DELETE FROM pile_registry WHERE charge_point_id = $1`, [pile.chargePointId]);
    const res = await t
      .http()
      .post('/api/pile/batch/delivery')
      .set(t.admin)
      .send({ ids: [pile.id, ids['pile']] })
      .expect(201);
    expect(res.body).toEqual({ updated: 2, deliveredAt: expect.any(String) });
    const [row] = await t.db.dataSource.query(
      `SELECT state, password_hash FROM pile_registry WHERE charge_point_id = $1`,
      [pile.chargePointId],
    );
    expect(row.state).toBe('disabled');
    expect(row.password_hash).toMatch(/^hmac-sha256\$v1\$dev\$/);
    const got = (await t.http().get(`/api/pile/${pile.id}`).set(t.admin).expect(200)).body;
    expect(got.deliveredAt).toBe(res.body.deliveredAt);
  });

  it('an unknown or invisible host fails the whole batch', async () => {
    const res = await t
      .http()
      .post('/api/pile/batch/delivery')
      .set(t.maintainer)
      .send({ ids: [ids['pile']] })
      .expect(404);
    expect(res.body.message).toBe(`Charging host ${ids['pile']} does not exist`);
  });
});

describe('data scope and permissions of the new grids', () => {
  it('a maintainer adds parking spaces and cameras at own stations but no alarm codes', async () => {
    const own = await t.create('station', aStation(ids['region'], t.labelIds), t.maintainer);
    const space = await t.create('parkingSpace', aParkingSpace(own.id), t.maintainer);
    const camera = await t.create('camera', aCamera(own.id), t.maintainer);
    expect(space.organizationId).toBe(own.organizationId);
    expect(camera.organizationId).toBe(own.organizationId);
    const hidden = await t
      .http()
      .post('/api/parkingSpace')
      .set(t.maintainer)
      .send(aParkingSpace(ids['station']))
      .expect(404);
    expect(hidden.body.message).toBe(`Station ${ids['station']} does not exist`);
    const list = (await t.http().get('/api/camera/page/1/size/100').set(t.maintainer).expect(200)).body;
    expect(list.list.map((c: Body) => c['id'])).toEqual([camera.id]);
    const codes = await t.http().post('/api/alarmCode').set(t.maintainer).send(anAlarmCode()).expect(403);
    expect(codes.body.message).toBe('Missing permission: basic:alarmCode:add');
    await t.http().get('/api/alarmCode/page/1/size/10').set(t.maintainer).expect(200);
    const person = await t
      .http()
      .post('/api/maintenancePersonnel')
      .set(t.maintainer)
      .send(aMaintenancePerson())
      .expect(403);
    expect(person.body.message).toBe('Missing permission: basic:maintenancePersonnel:add');
  });

  it('maintenance personnel and peak times without a station belong to the caller’s organisation', async () => {
    const person = await t.create('maintenancePersonnel', aMaintenancePerson());
    const [root] = await t.db.dataSource.query(`SELECT id FROM sys_organization WHERE code = 'ROOT'`);
    expect(person).toMatchObject({
      organizationId: Number(root.id),
      organizationName: 'Voltdepot Group',
      stationId: null,
    });
  });
});
