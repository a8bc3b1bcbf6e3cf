import {
  ADMIN_PASSWORD,
  ApiTestApp,
  bearer,
  DEMO_PASSWORD,
  errorOf,
  startApiTestApp,
} from '../fixtures/api-test-app';

const plan = {
  name: 'Fleet night discount',
  customerType: 2,
  priceDiscount: 95,
  serviceFeeDiscount: 80,
  validFrom: '2026-11-01T00:00:00+08:00',
  validTo: '2027-01-01T00:00:00+08:00',
  enabled: true,
  details: [{ idTag: 'BUS-0001' }, { idTag: 'BUS-0002' }],
};

describe('discount plans API', () => {
  let t: ApiTestApp;
  let admin: { authorization: string };

  beforeAll(async () => {
    t = await startApiTestApp();
    admin = bearer(await t.login('admin', ADMIN_PASSWORD));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates, reads, lists, updates and deletes a plan', async () => {
    const created = await t.http().post('/api/discountPlan').set(admin).send(plan).expect(201);
    const id = created.body.id as number;
    const got = await t.http().get(`/api/discountPlan/${id}`).set(admin).expect(200);
    expect(got.body).toMatchObject({
      id,
      name: plan.name,
      customerType: 2,
      priceDiscount: 95,
      serviceFeeDiscount: 80,
      validFrom: '2026-10-31T16:00:00.000Z',
      validTo: '2026-12-31T16:00:00.000Z',
      enabled: true,
      details: [{ idTag: 'BUS-0001' }, { idTag: 'BUS-0002' }],
    });
    const grid = await t.http().get('/api/discountPlan/page/1/size/10').set(admin).expect(200);
    expect(grid.body.total).toBeGreaterThanOrEqual(1);
    expect(grid.body.list.map((p: { id: number }) => p.id)).toContain(id);

    await t
      .http()
      .put(`/api/discountPlan/${id}`)
      .set(admin)
      .send({ ...plan, enabled: false, serviceFeeDiscount: 100, details: [{ idTag: 'BUS-0003' }] })
      .expect(200);
    const updated = await t.http().get(`/api/discountPlan/${id}`).set(admin).expect(200);
    expect(updated.body).toMatchObject({
      enabled: false,
      serviceFeeDiscount: 100,
      details: [{ idTag: 'BUS-0003' }],
    });

    await t.http().delete(`/api/discountPlan/${id}`).set(admin).expect(204);
    const gone = await t.http().get(`/api/discountPlan/${id}`).set(admin).expect(404);
    expect(errorOf(gone.body, 'DISCOUNT_PLAN_NOT_FOUND')).toBeDefined();
  });

  it.each([
    ['no name', { ...plan, name: '' }, /name.*Please enter the plan name/],
    [
      'no valid period',
      { ...plan, validFrom: undefined, validTo: undefined },
      /validFrom.*validTo|validTo.*validFrom/,
    ],
    [
      'a period that ends before it starts',
      { ...plan, validTo: '2026-10-01T00:00:00+08:00' },
      /validTo.*must be after/,
    ],
    ['no detail rows', { ...plan, details: [] }, /details.*at least one detail row/],
    ['a card listed twice', { ...plan, details: [{ idTag: 'A' }, { idTag: 'A' }] }, /listed twice/],
    [
      'no discount value',
      { ...plan, priceDiscount: undefined },
      /priceDiscount.*Please enter the price discount/,
    ],
    ['a discount above 100 %', { ...plan, serviceFeeDiscount: 120 }, /serviceFeeDiscount.*between 0 and 100/],
    // Not read as 0 %, a plan under which the customer would pay nothing.
    ['a null discount', { ...plan, priceDiscount: null }, /priceDiscount.*Please enter the price discount/],
    ['an empty discount', { ...plan, serviceFeeDiscount: '' }, /serviceFeeDiscount.*Please enter/],
    [
      'a boolean discount',
      { ...plan, priceDiscount: false },
      /priceDiscount.*Please enter the price discount/,
    ],
    ['a fractional discount text', { ...plan, priceDiscount: '95.5' }, /priceDiscount.*whole percentage/],
    ['an unknown customer type', { ...plan, customerType: 9 }, /customerType/],
  ])('refuses %s with 400 naming the field', async (_case, body, message) => {
    const res = await t.http().post('/api/discountPlan').set(admin).send(body).expect(400);
    expect(JSON.stringify(errorOf(res.body, 'VALIDATION_FAILED'))).toMatch(message);
  });

  it('refuses a duplicate name with 409 and an unknown plan with 404', async () => {
    await t
      .http()
      .post('/api/discountPlan')
      .set(admin)
      .send({ ...plan, name: 'Unique discount' })
      .expect(201);
    const dup = await t
      .http()
      .post('/api/discountPlan')
      .set(admin)
      .send({ ...plan, name: 'unique DISCOUNT' })
      .expect(409);
    expect(errorOf(dup.body, 'DISCOUNT_PLAN_DUPLICATE_NAME')).toBeDefined();
    await t.http().put('/api/discountPlan/999999').set(admin).send(plan).expect(404);
  });

  it('lets operators in and keeps maintenance staff out', async () => {
    const operator = bearer(await t.login('operator', DEMO_PASSWORD));
    await t.http().get('/api/discountPlan/page/1/size/10').set(operator).expect(200);
    const maintainer = bearer(await t.login('maintainer', DEMO_PASSWORD));
    await t.http().get('/api/discountPlan/page/1/size/10').set(maintainer).expect(403);
  });
});
