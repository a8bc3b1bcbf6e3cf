import { grantPermissions, insertStation } from '@voltdepot/server-testing';
import {
  ADMIN_PASSWORD,
  ApiTestApp,
  bearer,
  DEMO_PASSWORD,
  errorOf,
  startApiTestApp,
} from '../fixtures/api-test-app';

const fullDay = [
  { stageType: 'valley', startTime: '23:00', endTime: '07:00', electricityPrice: '0.3200', serviceFee: 0.4 },
  {
    stageType: 'normal',
    startTime: '07:00',
    endTime: '10:00',
    electricityPrice: '0.6400',
    serviceFee: '0.6',
  },
  { stageType: 'peak', startTime: '10:00', endTime: '17:00', electricityPrice: '0.8523', serviceFee: '0.8' },
  { stageType: 'sharp', startTime: '17:00', endTime: '19:00', electricityPrice: '1.18', serviceFee: '0.8' },
  { stageType: 'normal', startTime: '19:00', endTime: '23:00', electricityPrice: '0.64', serviceFee: '0.6' },
];

describe('price plans API', () => {
  let t: ApiTestApp;
  let admin: { authorization: string };

  beforeAll(async () => {
    t = await startApiTestApp();
    admin = bearer(await t.login('admin', ADMIN_PASSWORD));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates, reads, lists, updates and deletes a plan with exact 4-decimal prices', async () => {
    const created = await t
      .http()
      .post('/api/pricePlan')
      .set(admin)
      .send({ name: 'Depot A tariff', stages: fullDay })
      .expect(201);
    const id = created.body.id as number;
    const plan = (await t.http().get(`/api/pricePlan/${id}`).set(admin).expect(200)).body;
    expect(plan).toMatchObject({ id, name: 'Depot A tariff', isDefault: false });
    expect(plan.stages[2]).toEqual({
      stageType: 'peak',
      startTime: '10:00',
      endTime: '17:00',
      electricityPrice: '0.8523',
      serviceFee: '0.8000',
    });
    expect(plan.stages[0]).toMatchObject({ startTime: '23:00', endTime: '07:00', serviceFee: '0.4000' });

    const page = (await t.http().get('/api/pricePlan/page/1/size/10').set(admin).expect(200)).body;
    expect(page.total).toBeGreaterThanOrEqual(1);
    expect(page.list.map((p: { id: number }) => p.id)).toContain(id);

    await t
      .http()
      .put(`/api/pricePlan/${id}`)
      .set(admin)
      .send({ name: 'Depot A tariff 2027', isDefault: true, stages: fullDay })
      .expect(200);
    expect((await t.http().get(`/api/pricePlan/${id}`).set(admin).expect(200)).body).toMatchObject({
      name: 'Depot A tariff 2027',
      isDefault: true,
    });

    // The default plan prices sessions of stations without their own plan: it cannot be deleted.
    const inUse = await t.http().delete(`/api/pricePlan/${id}`).set(admin).expect(409);
    expect(errorOf(inUse.body, 'PRICE_PLAN_IN_USE').message).toMatch(/default plan/);

    const other = await t
      .http()
      .post('/api/pricePlan')
      .set(admin)
      .send({ name: 'Temporary', stages: fullDay })
      .expect(201);
    await t.http().delete(`/api/pricePlan/${other.body.id}`).set(admin).expect(204);
    await t.http().get(`/api/pricePlan/${other.body.id}`).set(admin).expect(404);
  });

  /** A station of organisation `org` (FZ: Fuzhou, HF: Hefei), straight into the table. */
  const station = (org: 'FZ' | 'HF') =>
    insertStation(t.db.dataSource, { organization: org, name: `${org} depot` });

  it('assigns a plan to a station from now or a later instant, and lists its history', async () => {
    const stationId = await station('FZ');
    const a = await t.http().post('/api/pricePlan').set(admin).send({ name: 'Station A', stages: fullDay });
    const b = await t.http().post('/api/pricePlan').set(admin).send({ name: 'Station B', stages: fullDay });
    const later = new Date(Date.now() + 7 * 24 * 3_600_000);
    later.setMilliseconds(0);
    await t
      .http()
      .post(`/api/pricePlan/station/${stationId}`)
      .set(admin)
      .send({ planId: b.body.id, effectiveFrom: later.toISOString() })
      .expect(204);
    const before = Date.now();
    await t
      .http()
      .post(`/api/pricePlan/station/${stationId}`)
      .set(admin)
      .send({ planId: a.body.id })
      .expect(204);
    const history = (await t.http().get(`/api/pricePlan/station/${stationId}`).set(admin).expect(200)).body;
    expect(history).toEqual([
      {
        planId: b.body.id,
        planName: 'Station B',
        from: later.toISOString(),
        until: null,
        assignedAt: expect.any(String),
        assignedBy: 'admin',
      },
      {
        planId: a.body.id,
        planName: 'Station A',
        from: expect.any(String),
        until: later.toISOString(),
        assignedAt: expect.any(String),
        assignedBy: 'admin',
      },
    ]);
    expect(Date.parse(history[1].from)).toBeGreaterThanOrEqual(before - 1000);
    // The station screen shows the plan in force now.
    const row = (await t.http().get(`/api/station/${stationId}`).set(admin).expect(200)).body;
    expect(row.pricePlanId).toBe(a.body.id);
  });

  describe('refusals of a station assignment', () => {
    let fz: number;
    let hf: number;
    let planId: number;
    beforeAll(async () => {
      fz = await station('FZ');
      hf = await station('HF');
      planId = (await t.http().post('/api/pricePlan').set(admin).send({ name: 'Refusals', stages: fullDay }))
        .body.id;
      // Maintenance staff (Hefei depot) may edit plans for this test: their scope is what is checked.
      await grantPermissions(t.db.dataSource, 'maintainer', ['price_plan:view', 'price_plan:edit']);
    });

    afterAll(async () => {
      await t.db.dataSource.query(
        `DELETE FROM sys_role_resource WHERE role_id = (SELECT id FROM sys_role WHERE code = 'maintainer')
            AND resource_id IN (SELECT id FROM sys_resource WHERE code IN ('price_plan:view', 'price_plan:edit'))`,
      );
    });

    const past = () => new Date(Date.now() - 3_600_000).toISOString();
    it.each([
      [
        'an instant in the past',
        () => `/api/pricePlan/station/${fz}`,
        () => ({ planId, effectiveFrom: past() }),
        400,
        'VALIDATION_FAILED',
        /effectiveFrom.*must not be in the past/,
      ],
      [
        'an instant without an offset',
        () => `/api/pricePlan/station/${fz}`,
        () => ({ planId, effectiveFrom: '2030-01-01 00:00:00' }),
        400,
        'VALIDATION_FAILED',
        /effectiveFrom.*ISO-8601/,
      ],
      ['no plan', () => `/api/pricePlan/station/${fz}`, () => ({}), 400, 'VALIDATION_FAILED', /planId/],
      [
        'an unknown plan',
        () => `/api/pricePlan/station/${fz}`,
        () => ({ planId: 424242 }),
        404,
        'PRICE_PLAN_NOT_FOUND',
        /Price plan 424242 does not exist/,
      ],
      [
        'an unknown station',
        () => '/api/pricePlan/station/424242',
        () => ({ planId }),
        404,
        'PRICE_PLAN_STATION_NOT_FOUND',
        /Station 424242 not found/,
      ],
      [
        'a station id that is not a number',
        () => '/api/pricePlan/station/abc',
        () => ({ planId }),
        400,
        'VALIDATION_FAILED',
        /id must be a positive whole number/,
      ],
    ])('refuses %s', async (_case, url, body, status, code, message) => {
      const res = await t.http().post(url()).set(admin).send(body()).expect(status);
      expect(JSON.stringify(errorOf(res.body, code))).toMatch(message);
    });

    it("treats a station outside the caller's data scope as missing, for assignment and history", async () => {
      const maintainer = bearer(await t.login('maintainer', DEMO_PASSWORD));
      const assign = await t
        .http()
        .post(`/api/pricePlan/station/${fz}`)
        .set(maintainer)
        .send({ planId })
        .expect(404);
      expect(errorOf(assign.body, 'PRICE_PLAN_STATION_NOT_FOUND').message).toBe(`Station ${fz} not found`);
      await t.http().get(`/api/pricePlan/station/${fz}`).set(maintainer).expect(404);
      await t.http().post(`/api/pricePlan/station/${hf}`).set(maintainer).send({ planId }).expect(204);
      const history = (await t.http().get(`/api/pricePlan/station/${hf}`).set(maintainer).expect(200)).body;
      expect(history).toMatchObject([{ planId, until: null, assignedBy: 'maintainer' }]);
      await t.http().get('/api/pricePlan/station/424242').set(admin).expect(404);
      expect((await t.http().get(`/api/pricePlan/station/${fz}`).set(admin).expect(200)).body).toEqual([]);
    });

    it('refuses plan stages effective in the past and schedules them for later', async () => {
      const res = await t
        .http()
        .put(`/api/pricePlan/${planId}`)
        .set(admin)
        .send({ name: 'Refusals', stages: fullDay, effectiveFrom: past() })
        .expect(400);
      expect(errorOf(res.body, 'VALIDATION_FAILED').details).toEqual([
        { field: 'effectiveFrom', message: expect.stringMatching(/^must not be in the past/) },
      ]);
      const later = new Date(Date.now() + 3_600_000);
      later.setMilliseconds(0);
      const cheaper = fullDay.map((s) => ({ ...s, serviceFee: '0.1' }));
      await t
        .http()
        .put(`/api/pricePlan/${planId}`)
        .set(admin)
        .send({ name: 'Refusals', stages: cheaper, effectiveFrom: later.toISOString() })
        .expect(200);
      const plan = (await t.http().get(`/api/pricePlan/${planId}`).set(admin).expect(200)).body;
      expect(plan.effectiveFrom).toBe(later.toISOString());
      expect(plan.stages[0].serviceFee).toBe('0.1000');
    });
  });

  const gap = fullDay.map((s, i) => (i === 1 ? { ...s, endTime: '09:00' } : s));
  const overlap = fullDay.map((s, i) => (i === 1 ? { ...s, endTime: '11:00' } : s));
  it.each([
    ['no name', { stages: fullDay }, 400, 'VALIDATION_FAILED', /name/],
    ['no stages', { name: 'x', stages: [] }, 400, 'VALIDATION_FAILED', /at least one stage is required/],
    [
      'a price with 5 decimals',
      { name: 'x', stages: [{ ...fullDay[0], electricityPrice: '0.85231' }] },
      400,
      'VALIDATION_FAILED',
      /at most 4 decimals/,
    ],
    [
      'a price as text',
      { name: 'x', stages: [{ ...fullDay[0], serviceFee: 'cheap' }] },
      400,
      'VALIDATION_FAILED',
      /at most 4 decimals/,
    ],
    [
      'an unknown stage type',
      { name: 'x', stages: [{ ...fullDay[0], stageType: 'superPeak' }] },
      400,
      'VALIDATION_FAILED',
      /must be one of/,
    ],
    [
      'a bad time',
      { name: 'x', stages: [{ ...fullDay[0], startTime: '7:00' }] },
      400,
      'VALIDATION_FAILED',
      /HH:mm/,
    ],
    [
      'a gap in the day',
      { name: 'x', stages: gap },
      422,
      'PRICE_PLAN_INVALID_STAGES',
      /gap between 09:00 and 10:00/,
    ],
    [
      'an overlap',
      { name: 'x', stages: overlap },
      422,
      'PRICE_PLAN_INVALID_STAGES',
      /overlap between 10:00 and 11:00/,
    ],
  ])('refuses %s with %i', async (_case, body, status, code, message) => {
    const res = await t.http().post('/api/pricePlan').set(admin).send(body).expect(status);
    expect(JSON.stringify(errorOf(res.body, code))).toMatch(message);
  });

  it('refuses a duplicate name with 409 and an unknown plan with 404', async () => {
    await t.http().post('/api/pricePlan').set(admin).send({ name: 'Unique', stages: fullDay }).expect(201);
    const dup = await t
      .http()
      .post('/api/pricePlan')
      .set(admin)
      .send({ name: 'unique', stages: fullDay })
      .expect(409);
    expect(errorOf(dup.body, 'PRICE_PLAN_DUPLICATE_NAME').message).toBe(
      "A price plan named 'unique' already exists",
    );
    const missing = await t
      .http()
      .put('/api/pricePlan/424242')
      .set(admin)
      .send({ name: 'y', stages: fullDay })
      .expect(404);
    expect(errorOf(missing.body, 'PRICE_PLAN_NOT_FOUND').message).toBe('Price plan 424242 does not exist');
    await t.http().get('/api/pricePlan/abc').set(admin).expect(400);
  });

  it('lets maintenance staff neither read nor edit price plans', async () => {
    const maintainer = bearer(await t.login('maintainer', DEMO_PASSWORD));
    const res = await t.http().get('/api/pricePlan/page/1/size/10').set(maintainer).expect(403);
    expect(errorOf(res.body, 'FORBIDDEN').message).toBe('Missing permission: price_plan:view');
  });
});
