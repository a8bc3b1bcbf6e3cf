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

  it('assigns a plan to a station from a given instant', async () => {
    const created = await t
      .http()
      .post('/api/pricePlan')
      .set(admin)
      .send({ name: 'Station 7', stages: fullDay })
      .expect(201);
    await t
      .http()
      .post('/api/pricePlan/station/7')
      .set(admin)
      .send({ planId: created.body.id, effectiveFrom: '2026-12-01T00:00:00+08:00' })
      .expect(204);
    const rows = await t.db.dataSource.query('SELECT station_id, plan_id FROM station_price_plan');
    expect(rows).toEqual([{ station_id: 7, plan_id: created.body.id }]);
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
