import { randomUUID } from 'node:crypto';
import { LedgerService } from '@voltdepot/server-ledger';
import { insertRole, organizationId } from '@voltdepot/server-testing';
import {
  ADMIN_PASSWORD,
  ApiTestApp,
  bearer,
  DEMO_PASSWORD,
  errorOf,
  fieldErrors,
  startApiTestApp,
} from '../fixtures/api-test-app';
import { binary, sheetRows } from '../fixtures/xlsx';

type Auth = { authorization: string };
type Body = Record<string, unknown>;

const person = {
  clientType: 1,
  certificateType: 'ID card',
  certificateNumber: '110105194912310021',
  customerType: 'private',
  phone: '13900000001',
};
const rid = () => randomUUID();

/**
 * The IC-card screens' reads and exports over real postings: a personal account recharged, refunded,
 * consumed into arrears (through the ledger's consumption) and recharged again; a group allocating to
 * its user; a customer of another organisation (Fuzhou North Yard) that a Hefei reader must not see.
 */
describe('IC cards: reads and exports (real PostgreSQL)', () => {
  let t: ApiTestApp;
  let admin: Auth;
  let hfReader: Auth;
  let maintainer: Auth;
  let adminName: string;
  const ids: Record<string, number> = {};

  const act = (cardNo: string, action: string, body: Body) =>
    t.http().post(`/api/iccard/card/${cardNo}/${action}`).set(admin).send(body).expect(200);
  const get = (path: string, who: Auth = admin) => t.http().get(path).set(who);

  async function customerWithCard(cardNo: string, body: Body, cardType = 1) {
    const c = await t.http().post('/api/iccard/customer').set(admin).send(body).expect(201);
    await t
      .http()
      .post('/api/iccard/card')
      .set(admin)
      .send({ cardNo, chip: 'CPU', cardType, customerId: c.body.id })
      .expect(201);
    await act(cardNo, 'makeCpu', { requestId: rid() });
    return c.body as { id: number; accountId: number };
  }

  beforeAll(async () => {
    t = await startApiTestApp();
    admin = bearer(await t.login('admin', ADMIN_PASSWORD));
    maintainer = bearer(await t.login('maintainer', DEMO_PASSWORD));
    const db = t.db.dataSource;
    [{ name: adminName }] = await db.query(
      `SELECT COALESCE(NULLIF(real_name, ''), username) AS name FROM sys_user WHERE username = 'admin'`,
    );
    const hf = await organizationId(db, 'HF');
    const fzn = await organizationId(db, 'FZ-N');

    const role = await insertRole(db, 'ic_reader', [
      'iccard:customer:query',
      'iccard:cardManage:query',
      'iccard:recharge:query',
    ]);
    await t
      .http()
      .post('/api/user')
      .set(admin)
      .send({
        username: 'ic.reader',
        password: 'Secret123',
        realName: 'IC reader',
        organizationId: hf,
        roleIds: [role],
      })
      .expect(201);
    hfReader = bearer(await t.login('ic.reader', 'Secret123'));

    const company = await t
      .http()
      .post('/api/iccard/company')
      .set(admin)
      .send({
        number: 'QC-1',
        name: 'Query Bus Co.',
        contacts: 'Li Lei',
        contactInformation: '0551-1234567',
        organizationId: hf,
      })
      .expect(201);
    ids['company'] = company.body.id;

    // A personal account: +100.00, -30.00, consumption 20.00, consumption 80.00 (30.00 into arrears),
    // +50.00 (settles the 30.00 of arrears first).
    const p = await customerWithCard('QC-CARD-1', {
      ...person,
      userName: 'QC Person',
      companyId: company.body.id,
      organizationId: hf,
    });
    ids['person'] = p.id;
    ids['personAccount'] = p.accountId;
    await act('QC-CARD-1', 'recharge', { requestId: rid(), presentedCardNo: 'QC-CARD-1', amount: '100' });
    await act('QC-CARD-1', 'refundWithCard', {
      requestId: rid(),
      presentedCardNo: 'QC-CARD-1',
      amount: '30',
    });
    const ledger = t.app.get(LedgerService);
    for (const [orderNo, fen] of [
      ['ORD-Q-1', 2000],
      ['ORD-Q-2', 8000],
    ] as const)
      await ledger.consume({
        kind: 'consumption',
        accountId: p.accountId,
        amountFen: fen,
        idempotencyKey: `order:${orderNo}:v1`,
        reference: orderNo,
      });
    await act('QC-CARD-1', 'recharge', { requestId: rid(), presentedCardNo: 'QC-CARD-1', amount: '50' });

    // A group of one user: +100.00, 40.00 allocated to the user, who consumes 15.00.
    const g = await customerWithCard('QC-GROUP-1', {
      ...person,
      clientType: 2,
      userName: 'QC Fleet',
      organizationId: hf,
    });
    ids['group'] = g.id;
    await act('QC-GROUP-1', 'recharge', { requestId: rid(), presentedCardNo: 'QC-GROUP-1', amount: '100' });
    const m = await customerWithCard(
      'QC-DRIVER-1',
      { ...person, clientType: 3, groupId: g.id, userName: 'QC Driver', organizationId: hf },
      0,
    );
    ids['member'] = m.id;
    await t
      .http()
      .post(`/api/iccard/group/${g.id}/allocate`)
      .set(admin)
      .send({ requestId: rid(), memberId: m.id, amount: '40' })
      .expect(200);
    await ledger.consume({
      kind: 'consumption',
      accountId: m.accountId,
      amountFen: 1500,
      idempotencyKey: 'order:ORD-Q-3:v1',
      reference: 'ORD-Q-3',
    });

    // Another organisation's customer.
    const o = await customerWithCard('QC-FZ-1', { ...person, userName: 'QC Elsewhere', organizationId: fzn });
    ids['other'] = o.id;
    await act('QC-FZ-1', 'recharge', { requestId: rid(), presentedCardNo: 'QC-FZ-1', amount: '10' });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('accounts', () => {
    it('lists an account with its balance, arrears settled, cumulative consumption and recharges', async () => {
      const res = await get('/api/iccard/account/page/1/size/10?name=QC%20Person').expect(200);
      expect(res.body).toEqual({
        total: 1,
        list: [
          {
            accountId: ids['personAccount'],
            kind: 'personal',
            customerId: ids['person'],
            name: 'QC Person',
            companyName: 'Query Bus Co.',
            balanceFen: 2000,
            arrearsFen: 0,
            frozen: false,
            consumedFen: 10000,
            rechargedFen: 15000,
            userCount: null,
            contacts: 'Li Lei',
            contactInformation: '0551-1234567',
            cardCount: 1,
          },
        ],
      });
    });

    it('filters by kind and company; a group counts its users', async () => {
      const groups = (await get('/api/iccard/account/page/1/size/10?kind=group').expect(200)).body;
      expect(groups.list).toEqual([
        expect.objectContaining({ name: 'QC Fleet', userCount: 1, balanceFen: 6000, rechargedFen: 10000 }),
      ]);
      const subs = (await get('/api/iccard/account/page/1/size/10?kind=group_sub').expect(200)).body;
      expect(subs.list).toEqual([
        expect.objectContaining({ name: 'QC Driver', balanceFen: 2500, consumedFen: 1500, rechargedFen: 0 }),
      ]);
      const ofCompany = (
        await get(`/api/iccard/account/page/1/size/10?companyId=${ids['company']}`).expect(200)
      ).body;
      expect(ofCompany.list.map((a: Body) => a['name'])).toEqual(['QC Person']);
    });

    it("hides another organisation's accounts from a reader whose scope is Hefei", async () => {
      const mine = (await get('/api/iccard/account/page/1/size/50', hfReader).expect(200)).body;
      expect(mine.list.map((a: Body) => a['name']).sort()).toEqual(['QC Driver', 'QC Fleet', 'QC Person']);
      const all = (await get('/api/iccard/account/page/1/size/50').expect(200)).body;
      expect(all.list.map((a: Body) => a['name'])).toContain('QC Elsewhere');
    });
  });

  describe('group info', () => {
    it('answers the group, its account and its users with their cards', async () => {
      const res = await get(`/api/iccard/group/${ids['group']}`).expect(200);
      expect(res.body.group).toMatchObject({ id: ids['group'], userName: 'QC Fleet', clientType: 2 });
      expect(res.body.account).toMatchObject({ kind: 'group', balanceFen: 6000, userCount: 1, cardCount: 1 });
      expect(res.body.members).toEqual([
        {
          customerId: ids['member'],
          userName: 'QC Driver',
          phone: person.phone,
          accountId: expect.any(Number),
          balanceFen: 2500,
          arrearsFen: 0,
          consumedFen: 1500,
          cards: [{ cardNo: 'QC-DRIVER-1', chip: 'CPU', status: 'normal' }],
        },
      ]);
    });

    it.each([
      ['a personal customer', () => ids['person'], (id: number) => `customer ${id} is not a group`],
      ['an unknown id', () => 999_999, (id: number) => `group ${id} not found`],
    ])('answers 404 for %s', async (_case, id, message) => {
      const res = await get(`/api/iccard/group/${id()}`).expect(404);
      expect(errorOf(res.body, 'ICCARD_GROUP_NOT_FOUND').message).toBe(message(id()));
    });

    it('answers 400 for an id that is not a number', async () => {
      const res = await get('/api/iccard/group/abc').expect(400);
      expect(JSON.stringify(fieldErrors(res.body))).toMatch(/id must be a positive whole number/);
    });
  });

  describe('records', () => {
    it('lists recharge details newest first, with card, balances, arrears settled, operator and sum', async () => {
      const res = await get(
        `/api/iccard/record/page/1/size/10?kind=recharge,refund&customerId=${ids['person']}`,
      ).expect(200);
      expect(res.body.total).toBe(3);
      expect(res.body.sumFen).toBe(12000);
      expect(res.body.list).toEqual([
        expect.objectContaining({
          kind: 'recharge',
          accountId: ids['personAccount'],
          customerName: 'QC Person',
          cardNo: 'QC-CARD-1',
          amountFen: 5000,
          arrearsChangeFen: -3000,
          balanceBeforeFen: 0,
          balanceAfterFen: 2000,
          operatorName: adminName,
        }),
        expect.objectContaining({ kind: 'refund', amountFen: -3000, balanceAfterFen: 7000 }),
        expect.objectContaining({ kind: 'recharge', amountFen: 10000, balanceBeforeFen: 0 }),
      ]);
      expect(res.body.list[0].operatorId).toEqual(expect.any(Number));
    });

    it('lists consumption details with the order number and the arrears booked', async () => {
      const res = await get(
        `/api/iccard/record/page/1/size/10?kind=consumption,consumption_amendment&accountId=${ids['personAccount']}`,
      ).expect(200);
      expect(res.body.sumFen).toBe(-10000);
      expect(res.body.list).toEqual([
        expect.objectContaining({
          reference: 'ORD-Q-2',
          amountFen: -8000,
          arrearsChangeFen: 3000,
          balanceBeforeFen: 5000,
          balanceAfterFen: 0,
          cardNo: null,
          operatorId: null,
          operatorName: null,
        }),
        expect.objectContaining({ reference: 'ORD-Q-1', amountFen: -2000, arrearsChangeFen: 0 }),
      ]);
    });

    it("a card number finds the card's actions and its account's consumption", async () => {
      const res = await get('/api/iccard/record/page/1/size/20?cardNo=QC-CARD-1').expect(200);
      expect(res.body.list.map((r: Body) => r['kind'])).toEqual([
        'recharge',
        'consumption',
        'consumption',
        'refund',
        'recharge',
      ]);
      const group = await get('/api/iccard/record/page/1/size/20?cardNo=QC-GROUP-1').expect(200);
      expect(group.body.list.map((r: Body) => [r['kind'], r['amountFen']])).toEqual([
        ['allocation', -4000],
        ['recharge', 10000],
      ]);
    });

    it('filters by time range', async () => {
      const future = await get(
        '/api/iccard/record/page/1/size/10?from=2999-01-01T00:00:00Z&to=2999-01-02T00:00:00%2B08:00',
      ).expect(200);
      expect(future.body).toEqual({ list: [], total: 0, sumFen: 0 });
      const since = await get('/api/iccard/record/page/1/size/10?from=2000-01-01T00:00:00.000Z').expect(200);
      expect(since.body.total).toBeGreaterThan(0);
    });

    it("hides another organisation's records", async () => {
      const mine = (await get('/api/iccard/record/page/1/size/100', hfReader).expect(200)).body;
      expect(mine.list.map((r: Body) => r['customerName'])).not.toContain('QC Elsewhere');
      expect(mine.total).toBeGreaterThan(0);
      const all = (await get('/api/iccard/record/page/1/size/100').expect(200)).body;
      expect(all.list.map((r: Body) => r['customerName'])).toContain('QC Elsewhere');
    });

    it.each([
      [
        'an unknown kind',
        'kind=recharge,gift',
        'kind',
        /"gift" unknown: must be a comma-separated list of recharge/,
      ],
      ['a date without a time', 'from=2026-01-01', 'from', /must be an ISO 8601 instant/],
      ['a time without its zone', 'to=2026-01-01T00:00:00', 'to', /must be an ISO 8601 instant/],
      [
        'a date that does not exist',
        'from=2026-02-31T00:00:00Z',
        'from',
        /^2026-02-31T00:00:00Z is not a date that exists$/,
      ],
      ['an hour that does not exist', 'to=2026-01-01T24:00:00Z', 'to', /is not a date that exists/],
      ['from after to', 'from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'to', /must not be before from/],
      ['an account id of letters', 'accountId=abc', 'accountId', /must be a positive whole number/],
    ])('refuses %s with 400 naming the field', async (_case, query, field, message) => {
      const res = await get(`/api/iccard/record/page/1/size/10?${query}`).expect(400);
      const errors = fieldErrors(res.body);
      expect(errors.find((e) => e.field === field)?.message).toMatch(message);
    });
  });

  describe('card detail', () => {
    it('answers the card, its holder, account, last actions and records', async () => {
      const res = await get('/api/iccard/card/QC-CARD-1/detail').expect(200);
      expect(res.body.card).toMatchObject({ cardNo: 'QC-CARD-1', status: 'normal', balanceFen: 2000 });
      expect(res.body.customer).toMatchObject({ id: ids['person'], userName: 'QC Person' });
      expect(res.body.account).toMatchObject({ consumedFen: 10000, rechargedFen: 15000 });
      expect(res.body.actions.map((a: Body) => a['action'])).toEqual([
        'recharge',
        'refundWithCard',
        'recharge',
        'makeCpu',
      ]);
      expect(res.body.records.map((r: Body) => [r['kind'], r['reference']])).toEqual([
        ['recharge', 'card:QC-CARD-1'],
        ['consumption', 'ORD-Q-2'],
        ['consumption', 'ORD-Q-1'],
        ['refund', 'card:QC-CARD-1'],
        ['recharge', 'card:QC-CARD-1'],
      ]);
    });

    it('answers 404 for an unknown card and for a card outside the scope', async () => {
      errorOf((await get('/api/iccard/card/NO-SUCH/detail').expect(404)).body, 'ICCARD_CARD_NOT_FOUND');
      await get('/api/iccard/card/QC-FZ-1/detail').expect(200);
      const hidden = await get('/api/iccard/card/QC-FZ-1/detail', hfReader).expect(404);
      expect(errorOf(hidden.body, 'ICCARD_CARD_NOT_FOUND').message).toBe('card QC-FZ-1 not found');
    });
  });

  it('filters the card grid by card type (driver cards are type 0)', async () => {
    const res = await get('/api/iccard/card/page/1/size/50?cardType=0').expect(200);
    expect(res.body.list.map((c: Body) => c['cardNo'])).toEqual(['QC-DRIVER-1']);
    const bad = await get('/api/iccard/card/page/1/size/50?cardType=9').expect(400);
    expect(JSON.stringify(fieldErrors(bad.body))).toMatch(/cardType.*must be one of 0, 1, 2, 3/);
  });

  describe('exports', () => {
    const download = async (path: string, who: Auth = admin) => {
      const res = await t.http().get(path).set(who).buffer(true).parse(binary).expect(200);
      return { res, rows: await sheetRows(res.body as Buffer, { emptyAs: '' }) };
    };
    const column = (rows: string[][], header: string) => {
      const i = rows[0].indexOf(header);
      expect(i).toBeGreaterThanOrEqual(0);
      return rows.slice(1).map((r) => r[i]);
    };

    it('exports the records in Chinese: labels, yuan and business time', async () => {
      const { res, rows } = await download(
        `/api/iccard/record/export/xlsx?kind=recharge,refund&customerId=${ids['person']}&lang=zh-CN`,
      );
      expect(res.headers['content-disposition']).toContain(
        `filename*=UTF-8''${encodeURIComponent('IC卡账户明细.xlsx')}`,
      );
      expect(column(rows, '类型')).toEqual(['充值', '退款', '充值']);
      expect(column(rows, '金额(元)')).toEqual(['50', '-30', '100']);
      expect(column(rows, '卡号')).toEqual(['QC-CARD-1', 'QC-CARD-1', 'QC-CARD-1']);
      expect(column(rows, '操作员')).toEqual([adminName, adminName, adminName]);
      for (const at of column(rows, '时间')) expect(at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      const newest = (
        await get(`/api/iccard/record/page/1/size/1?kind=recharge,refund&customerId=${ids['person']}`).expect(
          200,
        )
      ).body.list[0];
      const [{ shown }] = await t.db.dataSource.query(
        `SELECT to_char($1::timestamptz AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD HH24:MI:SS') AS shown`,
        [newest.occurredAt],
      );
      expect(column(rows, '时间')[0]).toBe(shown);
    });

    it('exports consumption in English with the order number', async () => {
      const { res, rows } = await download(
        `/api/iccard/record/export/xlsx?kind=consumption&accountId=${ids['personAccount']}&lang=en-US`,
      );
      expect(res.headers['content-disposition']).toContain('filename="ic-card-records.xlsx"');
      expect(column(rows, 'Type')).toEqual(['Charging consumption', 'Charging consumption']);
      expect(column(rows, 'Order number')).toEqual(['ORD-Q-2', 'ORD-Q-1']);
      expect(column(rows, 'Arrears change (yuan)')).toEqual(['30', '0']);
    });

    it('exports a recharge without an order number (its internal card: reference is not one)', async () => {
      const { rows } = await download(
        `/api/iccard/record/export/xlsx?kind=recharge&accountId=${ids['personAccount']}&lang=en-US`,
      );
      const numbers = column(rows, 'Order number');
      expect(numbers.length).toBeGreaterThan(0);
      for (const value of numbers) expect(value ?? '').toBe('');
    });

    it.each([
      [
        'companies',
        '/api/iccard/company/export/xlsx?number=QC-&lang=en-US',
        'ic-card-companies.xlsx',
        'Company name',
        ['Query Bus Co.'],
      ],
      [
        'customers',
        '/api/iccard/customer/export/xlsx?userName=QC%20Person&lang=zh-CN',
        'IC卡客户.xlsx',
        '客户类型',
        ['个人'],
      ],
      ['cards', '/api/iccard/card/export/xlsx?cardNo=QC-CARD&lang=zh-CN', 'IC卡.xlsx', '卡状态', ['正常']],
      [
        'driver cards',
        '/api/iccard/card/export/xlsx?cardType=0&lang=en-US',
        'driver-cards.xlsx',
        'Card type',
        ['Driver'],
      ],
      [
        'card actions',
        '/api/iccard/action/export/xlsx?cardNo=QC-CARD-1&lang=en-US',
        'ic-card-actions.xlsx',
        'Action',
        ['Recharge', 'Refund with card', 'Recharge', 'Make CPU card'],
      ],
      [
        'accounts',
        '/api/iccard/account/export/xlsx?kind=group&lang=zh-CN',
        'IC卡账户.xlsx',
        '账户类型',
        ['集团账户'],
      ],
    ])('exports the %s with labels, not codes', async (_case, path, file, header, cells) => {
      const { res, rows } = await download(path);
      const disposition = res.headers['content-disposition'] as string;
      expect(
        disposition.includes(`filename="${file}"`) || disposition.includes(encodeURIComponent(file)),
      ).toBe(true);
      expect(column(rows, header)).toEqual(cells);
    });

    it('money columns are yuan with two decimals', async () => {
      const { rows } = await download('/api/iccard/account/export/xlsx?name=QC%20Person&lang=en-US');
      expect(column(rows, 'Balance (yuan)')).toEqual(['20']);
      expect(column(rows, 'Consumed (yuan)')).toEqual(['100']);
      expect(column(rows, 'Recharged (yuan)')).toEqual(['150']);
    });

    it("keeps another organisation's rows out of an export", async () => {
      const { rows } = await download('/api/iccard/customer/export/xlsx?lang=en-US', hfReader);
      expect(column(rows, 'User name')).not.toContain('QC Elsewhere');
      expect(column(rows, 'User name')).toContain('QC Person');
    });

    it('refuses a bad language with 400', async () => {
      const res = await get('/api/iccard/company/export/xlsx?lang=fr-FR').expect(400);
      expect(JSON.stringify(fieldErrors(res.body))).toMatch(/lang.*must be zh-CN or en-US/);
    });
  });

  it.each([
    ['/api/iccard/account/page/1/size/10', 'iccard:customer:query'],
    ['/api/iccard/group/1', 'iccard:customer:query'],
    ['/api/iccard/record/page/1/size/10', 'iccard:recharge:query'],
    ['/api/iccard/card/QC-CARD-1/detail', 'iccard:cardManage:query'],
    ['/api/iccard/record/export/xlsx', 'iccard:recharge:query'],
    ['/api/iccard/account/export/xlsx', 'iccard:customer:query'],
  ])('refuses %s to a role without %s (403)', async (path, permission) => {
    const res = await get(path, maintainer).expect(403);
    expect(errorOf(res.body, 'FORBIDDEN').message).toBe(`Missing permission: ${permission}`);
  });
});
