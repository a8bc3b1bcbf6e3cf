import { randomUUID } from 'node:crypto';
import {
  ADMIN_PASSWORD,
  ApiTestApp,
  bearer,
  DEMO_PASSWORD,
  errorOf,
  fieldErrors,
} from '../fixtures/api-test-app';
import { startApiTestApp } from '../fixtures/api-test-app';

const company = {
  number: 'C-001',
  name: 'Volt Bus Co.',
  contacts: 'Li Lei',
  contactInformation: '13800000000',
};
const person = {
  clientType: 1,
  userName: 'Han Meimei',
  certificateType: 'ID card',
  certificateNumber: '11010519491231002X',
  customerType: 'private',
  phone: '13900000000',
  gender: 1,
};

const rid = () => randomUUID();

describe('IC cards API (real PostgreSQL)', () => {
  let t: ApiTestApp;
  let admin: { authorization: string };

  beforeAll(async () => {
    t = await startApiTestApp();
    admin = bearer(await t.login('admin', ADMIN_PASSWORD));
  });
  afterAll(async () => {
    await t?.close();
  });

  const act = (cardNo: string, action: string, body: Record<string, unknown>) =>
    t.http().post(`/api/iccard/card/${cardNo}/${action}`).set(admin).send(body);

  /** A customer with a made CPU card. */
  async function madeCard(cardNo: string, customer: Record<string, unknown> = person) {
    const c = await t.http().post('/api/iccard/customer').set(admin).send(customer).expect(201);
    await t
      .http()
      .post('/api/iccard/card')
      .set(admin)
      .send({ cardNo, chip: 'CPU', cardType: 1, customerId: c.body.id })
      .expect(201);
    await act(cardNo, 'makeCpu', { requestId: rid() }).expect(200);
    return c.body as { id: number; accountId: number };
  }

  it('answers duplicates sent at the same instant with 409, never a 500 (the unique index decides)', async () => {
    const same = { ...company, number: 'C-RACE-1' };
    const companies = await Promise.all(
      Array.from({ length: 6 }, () => t.http().post('/api/iccard/company').set(admin).send(same)),
    );
    expect(companies.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of companies.filter((x) => x.status === 409))
      errorOf(r.body, 'ICCARD_COMPANY_NUMBER_REPEATED');

    const c = await t.http().post('/api/iccard/customer').set(admin).send(person).expect(201);
    const cards = await Promise.all(
      Array.from({ length: 6 }, () =>
        t
          .http()
          .post('/api/iccard/card')
          .set(admin)
          .send({ cardNo: 'RACE-CARD-1', chip: 'CPU', cardType: 1, customerId: c.body.id }),
      ),
    );
    expect(cards.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });

  it('creates a company and a customer with a personal account, lists them', async () => {
    const co = await t.http().post('/api/iccard/company').set(admin).send(company).expect(201);
    expect(co.body).toMatchObject({ ...company, id: expect.any(Number) });
    const dup = await t.http().post('/api/iccard/company').set(admin).send(company).expect(409);
    errorOf(dup.body, 'ICCARD_COMPANY_NUMBER_REPEATED');

    const c = await t
      .http()
      .post('/api/iccard/customer')
      .set(admin)
      .send({ ...person, companyId: co.body.id })
      .expect(201);
    expect(c.body).toMatchObject({
      userName: 'Han Meimei',
      companyName: 'Volt Bus Co.',
      accountKind: 'personal',
      balanceFen: 0,
      identityVerified: false,
    });
    const updated = await t
      .http()
      .put(`/api/iccard/customer/${c.body.id}`)
      .set(admin)
      .send({ ...person, address: 'No. 1 Chang An Street', identityVerified: true })
      .expect(200);
    expect(updated.body).toMatchObject({
      address: 'No. 1 Chang An Street',
      identityVerified: true,
      companyId: null,
    });
    expect(updated.body.accountId).toBe(c.body.accountId);

    const grid = await t
      .http()
      .get('/api/iccard/customer/page/1/size/10?userName=meimei')
      .set(admin)
      .expect(200);
    expect(grid.body.list.map((r: { id: number }) => r.id)).toContain(c.body.id);
    const companies = await t
      .http()
      .get('/api/iccard/company/page/1/size/10?number=C-0')
      .set(admin)
      .expect(200);
    expect(companies.body.total).toBe(1);
  });

  it('keeps a company and a customer in their organisation when a modification names none', async () => {
    type Node = { id: number; children: Node[] };
    const tree = (await t.http().get('/api/organization/tree').set(admin).expect(200)).body as Node[];
    const child = tree[0].children[0].id;
    const co = await t
      .http()
      .post('/api/iccard/company')
      .set(admin)
      .send({ ...company, number: 'C-ORG', organizationId: child })
      .expect(201);
    expect(co.body.organizationId).toBe(child);
    const coAfter = await t
      .http()
      .put(`/api/iccard/company/${co.body.id}`)
      .set(admin)
      .send({ ...company, number: 'C-ORG', name: 'Renamed' })
      .expect(200);
    expect(coAfter.body).toMatchObject({ name: 'Renamed', organizationId: child });

    const c = await t
      .http()
      .post('/api/iccard/customer')
      .set(admin)
      .send({ ...person, organizationId: child })
      .expect(201);
    const cAfter = await t
      .http()
      .put(`/api/iccard/customer/${c.body.id}`)
      .set(admin)
      .send({ ...person, address: 'Elsewhere' })
      .expect(200);
    expect(cAfter.body).toMatchObject({ address: 'Elsewhere', organizationId: child });
  });

  it('makes a card, recharges it in yuan, refunds, and records every action with balances', async () => {
    await madeCard('CARD-0001');
    const recharge = await act('CARD-0001', 'recharge', {
      requestId: rid(),
      presentedCardNo: 'CARD-0001',
      amount: '100.50',
    }).expect(200);
    expect(recharge.body.card).toMatchObject({ status: 'normal', balanceFen: 10050 });
    expect(recharge.body.record).toMatchObject({
      action: 'recharge',
      amountFen: 10050,
      balanceBeforeFen: 0,
      balanceAfterFen: 10050,
    });
    const refund = await act('CARD-0001', 'refundWithCard', {
      requestId: rid(),
      presentedCardNo: 'CARD-0001',
      amount: 50,
    }).expect(200);
    expect(refund.body.card.balanceFen).toBe(5050);
    expect(refund.body.record).toMatchObject({
      amountFen: -5000,
      notes: ['askLogout'],
      balanceAfterFen: 5050,
    });

    const records = await t
      .http()
      .get('/api/iccard/action/page/1/size/10?cardNo=CARD-0001')
      .set(admin)
      .expect(200);
    expect(records.body.list.map((r: { action: string }) => r.action)).toEqual([
      'refundWithCard',
      'recharge',
      'makeCpu',
    ]);
    const cards = await t
      .http()
      .get('/api/iccard/card/page/1/size/10?status=normal&chip=CPU')
      .set(admin)
      .expect(200);
    expect(cards.body.list.map((c: { cardNo: string }) => c.cardNo)).toContain('CARD-0001');
  });

  it('posts a retried action once and refuses a request id reused for another request', async () => {
    await madeCard('CARD-0002');
    const body = { requestId: rid(), presentedCardNo: 'CARD-0002', amount: '20' };
    const first = await act('CARD-0002', 'recharge', body).expect(200);
    const again = await Promise.all([act('CARD-0002', 'recharge', body), act('CARD-0002', 'recharge', body)]);
    for (const res of again) {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ replayed: true, record: { id: first.body.record.id } });
    }
    const cards = await t
      .http()
      .get('/api/iccard/card/page/1/size/10?cardNo=CARD-0002')
      .set(admin)
      .expect(200);
    expect(cards.body.list[0].balanceFen).toBe(2000);
    const reused = await act('CARD-0002', 'recharge', { ...body, amount: '30' }).expect(409);
    errorOf(reused.body, 'ICCARD_IDEMPOTENCY_CONFLICT');
  });

  it('a card reported lost cannot be recharged ("an abnormal card cannot continue") until released', async () => {
    await madeCard('CARD-0003');
    const wrongId = await act('CARD-0003', 'reportLoss', {
      requestId: rid(),
      certificateNumber: '123',
    }).expect(422);
    expect(errorOf(wrongId.body, 'ICCARD_ACTION_REFUSED').details).toEqual({
      messageCode: 'idNumberMismatch',
    });
    await act('CARD-0003', 'reportLoss', {
      requestId: rid(),
      certificateNumber: person.certificateNumber.toLowerCase(),
    }).expect(200);
    const refused = await act('CARD-0003', 'recharge', {
      requestId: rid(),
      presentedCardNo: 'CARD-0003',
      amount: '10',
    }).expect(422);
    expect(errorOf(refused.body, 'ICCARD_ACTION_REFUSED')).toMatchObject({
      message: 'An abnormal card cannot continue',
      details: { messageCode: 'cardAbnormal' },
    });
    await act('CARD-0003', 'releaseLoss', {
      requestId: rid(),
      certificateNumber: person.certificateNumber,
    }).expect(200);
    await act('CARD-0003', 'recharge', {
      requestId: rid(),
      presentedCardNo: 'CARD-0003',
      amount: '10',
    }).expect(200);
  });

  it.each([
    [
      'a refund of an empty card',
      'refundWithCard',
      { presentedCardNo: 'CARD-0004' },
      'refundBalanceNotPositive',
    ],
    ['a recharge without the card', 'recharge', { amount: '10' }, 'abnormalCardReading'],
    ['a recharge of another card', 'recharge', { amount: '10', presentedCardNo: 'OTHER' }, 'idMismatch'],
    ['a recharge without an amount', 'recharge', { presentedCardNo: 'CARD-0004' }, 'rechargeAmountRequired'],
    ['making a made card', 'makeCpu', {}, 'cardAlreadyMade'],
  ])('refuses %s with 422 and its message code', async (_case, action, body, messageCode) => {
    if (!(await t.db.dataSource.query(`SELECT 1 FROM ic_card WHERE card_no = 'CARD-0004'`)).length)
      await madeCard('CARD-0004');
    const res = await act('CARD-0004', action, { requestId: rid(), ...body }).expect(422);
    expect(errorOf(res.body, 'ICCARD_ACTION_REFUSED').details).toEqual({ messageCode });
  });

  it('refuses a duplicate card number with 409 selfNumberRepeated', async () => {
    const c = await madeCard('CARD-0005');
    const dup = await t
      .http()
      .post('/api/iccard/card')
      .set(admin)
      .send({ cardNo: 'CARD-0005', chip: 'M1', cardType: 0, customerId: c.id })
      .expect(409);
    expect(errorOf(dup.body, 'ICCARD_CARD_NUMBER_REPEATED').details).toMatchObject({
      messageCode: 'selfNumberRepeated',
    });
  });

  it('allocates a group balance to a user and reclaims it', async () => {
    const group = await madeCard('GROUP-01', { ...person, clientType: 2, userName: 'Fleet group' });
    await act('GROUP-01', 'recharge', {
      requestId: rid(),
      presentedCardNo: 'GROUP-01',
      amount: '100',
    }).expect(200);
    const member = await t
      .http()
      .post('/api/iccard/customer')
      .set(admin)
      .send({ ...person, clientType: 3, groupId: group.id, userName: 'Driver Wang' })
      .expect(201);
    expect(member.body.accountKind).toBe('group_sub');
    const body = { requestId: rid(), memberId: member.body.id, amount: '30' };
    const allocated = await t
      .http()
      .post(`/api/iccard/group/${group.id}/allocate`)
      .set(admin)
      .send(body)
      .expect(200);
    expect(allocated.body).toEqual({ groupBalanceFen: 7000, memberBalanceFen: 3000, replayed: false });
    const replay = await t
      .http()
      .post(`/api/iccard/group/${group.id}/allocate`)
      .set(admin)
      .send(body)
      .expect(200);
    expect(replay.body).toEqual({ groupBalanceFen: 7000, memberBalanceFen: 3000, replayed: true });
    const tooMuch = await t
      .http()
      .post(`/api/iccard/group/${group.id}/reclaim`)
      .set(admin)
      .send({ requestId: rid(), memberId: member.body.id, amount: '31' })
      .expect(422);
    expect(errorOf(tooMuch.body, 'ICCARD_ACTION_REFUSED').details).toEqual({
      messageCode: 'insufficientBalance',
    });
    const reclaimed = await t
      .http()
      .post(`/api/iccard/group/${group.id}/reclaim`)
      .set(admin)
      .send({ requestId: rid(), memberId: member.body.id, amount: 30 })
      .expect(200);
    expect(reclaimed.body).toMatchObject({ groupBalanceFen: 10000, memberBalanceFen: 0 });
  });

  it.each([
    [
      'no company number',
      '/api/iccard/company',
      { ...company, number: ' ' },
      /number.*Company number is required/,
    ],
    [
      'no contacts',
      '/api/iccard/company',
      { ...company, contacts: undefined },
      /contacts.*Contacts are required/,
    ],
    ['no user name', '/api/iccard/customer', { ...person, userName: '' }, /userName.*User name is required/],
    [
      'no certificate number',
      '/api/iccard/customer',
      { ...person, certificateNumber: undefined },
      /certificateNumber.*Certificate number is required/,
    ],
    ['an unknown client type', '/api/iccard/customer', { ...person, clientType: 7 }, /clientType/],
    ['a group card without its group', '/api/iccard/customer', { ...person, clientType: 3 }, /groupId/],
    ['a gender of 2', '/api/iccard/customer', { ...person, gender: 2 }, /gender/],
    [
      'a card of an unknown chip',
      '/api/iccard/card',
      { cardNo: 'X1', chip: 'NFC', cardType: 0, customerId: 1 },
      /chip/,
    ],
    [
      'a card type of 4',
      '/api/iccard/card',
      { cardNo: 'X1', chip: 'M1', cardType: 4, customerId: 1 },
      /cardType/,
    ],
    [
      'a card number with spaces',
      '/api/iccard/card',
      { cardNo: 'A B', chip: 'M1', cardType: 0, customerId: 1 },
      /cardNo/,
    ],
    [
      'a card number longer than the charging card number the pile sends',
      '/api/iccard/card',
      { cardNo: 'A'.repeat(17), chip: 'M1', cardType: 0, customerId: 1 },
      /cardNo.*at most 16 characters/,
    ],
    [
      'a recharge with three decimals',
      '/api/iccard/card/CARD-0001/recharge',
      { requestId: rid(), amount: '1.234' },
      /amount.*at most two decimals/,
    ],
    ['a recharge of 0', '/api/iccard/card/CARD-0001/recharge', { requestId: rid(), amount: 0 }, /amount/],
    ['an action without a request id', '/api/iccard/card/CARD-0001/recharge', { amount: '1' }, /requestId/],
    ['an unknown action', '/api/iccard/card/CARD-0001/burn', { requestId: rid() }, /action/],
  ])('refuses %s with 400 naming the field', async (_case, path, body, message) => {
    const res = await t.http().post(path).set(admin).send(body).expect(400);
    expect(JSON.stringify(fieldErrors(res.body))).toMatch(message);
  });

  it('answers 404 for an unknown card and keeps roles without the buttons out', async () => {
    await act('NO-SUCH-CARD', 'makeCpu', { requestId: rid() }).expect(404);
    const operator = bearer(await t.login('operator', DEMO_PASSWORD));
    await t.http().get('/api/iccard/card/page/1/size/10').set(operator).expect(200);
    const maintainer = bearer(await t.login('maintainer', DEMO_PASSWORD));
    await t.http().get('/api/iccard/card/page/1/size/10').set(maintainer).expect(403);
    await t
      .http()
      .post('/api/iccard/card/CARD-0001/recharge')
      .set(maintainer)
      .send({ requestId: rid(), presentedCardNo: 'CARD-0001', amount: '1' })
      .expect(403);
  });
});
