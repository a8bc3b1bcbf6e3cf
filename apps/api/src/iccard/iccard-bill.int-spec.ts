import { LedgerService } from '@voltdepot/server-ledger';
import { randomUUID } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { DataSource } from 'typeorm';
import {
  ADMIN_PASSWORD,
  type ApiTestApp,
  bearer,
  DEMO_PASSWORD,
  errorOf,
  fieldErrors,
  startApiTestApp,
} from '../fixtures/api-test-app';
import { download, sheetRows } from '../fixtures/xlsx';

const person = {
  clientType: 1,
  userName: '张三',
  certificateType: 'ID card',
  certificateNumber: '11010519491231002X',
  customerType: 'private',
};

/** `YYYY-MM` of an instant in Shanghai (the seeded business time zone). */
const shanghaiMonth = (at: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit' })
    .format(at)
    .slice(0, 7);
const shift = (month: string, by: number) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + by, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
};

/** The PDF's deflated streams as text (ToUnicode maps, page contents). */
function pdfStreams(pdf: Buffer): string {
  const text = pdf.toString('latin1');
  const out: string[] = [];
  const re = /stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const start = m.index + m[0].length;
    try {
      out.push(inflateSync(pdf.subarray(start, text.indexOf('endstream', start))).toString('latin1'));
    } catch {
      // not deflated
    }
  }
  return out.join('\n');
}
const unicodeHex = (ch: string) => `<${ch.codePointAt(0)!.toString(16).padStart(4, '0')}>`;

describe('IC-card bills API (real PostgreSQL)', () => {
  let t: ApiTestApp;
  let admin: { authorization: string };
  let ledger: LedgerService;
  let db: DataSource;
  let account: number;
  let groupAccount: number;
  const month = shanghaiMonth(new Date());
  const key = () => randomUUID();

  beforeAll(async () => {
    t = await startApiTestApp();
    admin = bearer(await t.login('admin', ADMIN_PASSWORD));
    ledger = t.app.get(LedgerService, { strict: false });
    db = t.app.get(DataSource);
    const customer = await t.http().post('/api/iccard/customer').set(admin).send(person).expect(201);
    account = customer.body.accountId;
    const group = await t
      .http()
      .post('/api/iccard/customer')
      .set(admin)
      .send({ ...person, clientType: 2, userName: 'Fleet group' })
      .expect(201);
    groupAccount = group.body.accountId;
    const member = await t
      .http()
      .post('/api/iccard/customer')
      .set(admin)
      .send({ ...person, clientType: 3, groupId: group.body.id, userName: 'Driver Wang' })
      .expect(201);

    // Real postings through the ledger: 张三 recharges 100.00, charges two orders (one amended), is
    // refunded 10.00; the group gets 50.00 and allocates 20.00 to its driver.
    await ledger.recharge({ idempotencyKey: key(), accountId: account, amountFen: 10_000 });
    await ledger.consume({
      idempotencyKey: key(),
      kind: 'consumption',
      accountId: account,
      amountFen: 3_000,
      reference: 'ORD-B-1',
    });
    await ledger.consume({
      idempotencyKey: key(),
      kind: 'consumption_amendment',
      accountId: account,
      amountFen: -500,
      reference: 'ORD-B-1',
    });
    await ledger.consume({
      idempotencyKey: key(),
      kind: 'consumption',
      accountId: account,
      amountFen: 1_234,
      reference: 'ORD-B-2',
    });
    await ledger.refund({ idempotencyKey: key(), accountId: account, amountFen: 1_000 });
    await ledger.recharge({ idempotencyKey: key(), accountId: groupAccount, amountFen: 5_000 });
    await ledger.allocate({
      idempotencyKey: key(),
      groupId: groupAccount,
      subId: member.body.accountId,
      amountFen: 2_000,
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const figures = {
    openingFen: 0,
    rechargedFen: 10_000,
    consumedFen: 3_734,
    refundedFen: 1_000,
    transferredFen: 0,
    correctedFen: 0,
    closingFen: 5_266,
    orderCount: 2,
  };

  it("lists the month's bills with the figures, which add up", async () => {
    const res = await t.http().get(`/api/iccard/bill/page/1/size/50?month=${month}`).set(admin).expect(200);
    const mine = res.body.list.find((b: { accountId: number }) => b.accountId === account);
    expect(mine).toEqual({
      accountId: account,
      kind: 'personal',
      customerId: expect.any(Number),
      name: '张三',
      month,
      ...figures,
    });
    const group = res.body.list.find((b: { accountId: number }) => b.accountId === groupAccount);
    expect(group).toMatchObject({
      kind: 'group',
      rechargedFen: 5_000,
      transferredFen: -2_000,
      closingFen: 3_000,
    });
    const sub = res.body.list.find((b: { kind: string; name: string }) => b.name === 'Driver Wang');
    expect(sub).toMatchObject({ kind: 'group_sub', transferredFen: 2_000, closingFen: 2_000 });
    for (const b of res.body.list) {
      expect(
        b.openingFen + b.rechargedFen - b.consumedFen - b.refundedFen + b.transferredFen + b.correctedFen,
      ).toBe(b.closingFen);
    }
    const filtered = await t
      .http()
      .get(`/api/iccard/bill/page/1/size/50?month=${month}&kind=group_sub&name=wang`)
      .set(admin)
      .expect(200);
    expect(filtered.body).toEqual({ list: [sub], total: 1 });
    // The month before: the accounts did not exist yet.
    const before = await t
      .http()
      .get(`/api/iccard/bill/page/1/size/50?month=${shift(month, -1)}`)
      .set(admin)
      .expect(200);
    expect(before.body.list.find((b: { accountId: number }) => b.accountId === account)).toBeUndefined();
  });

  it('shows the statement with one line per order, amendments folded in', async () => {
    const res = await t.http().get(`/api/iccard/bill/${account}/${month}`).set(admin).expect(200);
    expect(res.body.summary).toMatchObject(figures);
    expect(
      res.body.lines.map(
        (l: { kind: string; reference: string | null; amountFen: number; balanceAfterFen: number }) => [
          l.kind,
          l.reference,
          l.amountFen,
          l.balanceAfterFen,
        ],
      ),
    ).toEqual([
      ['recharge', null, 10_000, 10_000],
      ['consumption', 'ORD-B-1', -2_500, 7_500],
      ['consumption', 'ORD-B-2', -1_234, 6_266],
      ['refund', null, -1_000, 5_266],
    ]);
    expect(res.body.lines[0].occurredAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('downloads the statement as xlsx and as a PDF in Chinese, named in the language', async () => {
    const xlsx = await download(
      t.http().get(`/api/iccard/bill/${account}/${month}/xlsx?lang=zh-CN`).set(admin),
    ).expect(200);
    expect(xlsx.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent(`账单-张三-${month}.xlsx`)}`,
    );
    const rows = await sheetRows(xlsx.body as Buffer);
    expect(rows[0]).toEqual(['账户月度账单']);
    expect(rows).toContainEqual(['期初余额(元)', '0.00']);
    expect(rows).toContainEqual(['期末余额(元)', '52.66']);
    expect(rows).toContainEqual(['时间', '类型', '订单号', '金额(元)', '余额(元)']);
    expect(rows.find((r) => r[2] === 'ORD-B-1')?.slice(1)).toEqual(['充电消费', 'ORD-B-1', '-25', '75']);
    // Amounts are numbers in yuan (formatted 0.00 in the sheet), so the sheet can sum them.
    expect(rows.at(-2)).toEqual(['合计', '', '', '52.66', '52.66']);

    const pdf = await download(
      t.http().get(`/api/iccard/bill/${account}/${month}/pdf?lang=zh-CN`).set(admin),
    ).expect(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent(`账单-张三-${month}.pdf`)}`,
    );
    const body = pdf.body as Buffer;
    expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(body.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansCJKsc-Regular/);
    const streams = pdfStreams(body);
    for (const ch of '账户月度账单张三充电消费') expect(streams).toContain(unicodeHex(ch));

    const en = await download(
      t.http().get(`/api/iccard/bill/${account}/${month}/pdf?lang=en-US`).set(admin),
    ).expect(200);
    expect(en.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent(`bill-张三-${month}.pdf`)}`,
    );
  });

  it('exports the bill list as xlsx', async () => {
    const res = await download(
      t.http().get(`/api/iccard/bill/export/xlsx?month=${month}&lang=en-US&kind=personal`).set(admin),
    ).expect(200);
    expect(res.headers['content-disposition']).toContain(`bills-${month}.xlsx`);
    const rows = await sheetRows(res.body as Buffer);
    expect(rows[0]).toEqual([
      'Month',
      'Account',
      'Customer',
      'Account type',
      'Opening balance (yuan)',
      'Recharges (yuan)',
      'Consumption (yuan)',
      'Refunds (yuan)',
      'Group transfers, net (yuan)',
      'Corrections (yuan)',
      'Closing balance (yuan)',
      'Orders',
    ]);
    expect(rows).toContainEqual([
      month,
      String(account),
      '张三',
      'Personal account',
      '0',
      '100',
      '37.34',
      '10',
      '0',
      '0',
      '52.66',
      '2',
    ]);
  });

  it('puts a posting at 23:30 on the last day of a month (Shanghai) in that month, per the business time zone', async () => {
    const other = await t
      .http()
      .post('/api/iccard/customer')
      .set(admin)
      .send({ ...person, userName: 'Late Li' })
      .expect(201);
    const posted = await ledger.recharge({
      idempotencyKey: key(),
      accountId: other.body.accountId,
      amountFen: 777,
    });
    // The ledger is append-only: this test moves its own transaction to the boundary behind the triggers' back.
    const last = shift(month, -1);
    const [y, m] = last.split('-').map(Number) as [number, number];
    const lastDay = new Date(Date.UTC(y, m, 0)).getUTCDate();
    const lateEvening = new Date(Date.UTC(y, m - 1, lastDay, 15, 30)); // 23:30 in Shanghai
    await db.transaction(async (q) => {
      await q.query(`ALTER TABLE ledger_transaction DISABLE TRIGGER USER`);
      await q.query(`UPDATE ledger_transaction SET occurred_at = $1 WHERE id = $2`, [lateEvening, posted.id]);
      await q.query(`UPDATE ic_customer SET created_at = $1 WHERE id = $2`, [
        new Date(Date.UTC(y, m - 1, 1)),
        other.body.id,
      ]);
      await q.query(`ALTER TABLE ledger_transaction ENABLE TRIGGER USER`);
    });
    const statement = await t
      .http()
      .get(`/api/iccard/bill/${other.body.accountId}/${last}`)
      .set(admin)
      .expect(200);
    expect(statement.body.summary).toMatchObject({ openingFen: 0, rechargedFen: 777, closingFen: 777 });
    expect(statement.body.lines).toEqual([
      {
        occurredAt: `${last}-${lastDay} 23:30:00`,
        kind: 'recharge',
        reference: null,
        amountFen: 777,
        balanceAfterFen: 777,
      },
    ]);
    const next = await t
      .http()
      .get(`/api/iccard/bill/${other.body.accountId}/${month}`)
      .set(admin)
      .expect(200);
    expect(next.body.summary).toMatchObject({ openingFen: 777, rechargedFen: 0, closingFen: 777 });
    expect(next.body.lines).toEqual([]);

    // In UTC the same instant is 15:30 on the same day: still that month. In Tokyo (UTC+9) it is the next.
    await db.query(
      `UPDATE sys_platform_config SET config_value = 'Asia/Tokyo' WHERE config_key = 'businessTimeZone'`,
    );
    try {
      const tokyo = await t
        .http()
        .get(`/api/iccard/bill/${other.body.accountId}/${month}`)
        .set(admin)
        .expect(200);
      expect(tokyo.body.summary).toMatchObject({ openingFen: 0, rechargedFen: 777 });
      expect(tokyo.body.lines[0].occurredAt).toBe(`${month}-01 00:30:00`);
    } finally {
      await db.query(
        `UPDATE sys_platform_config SET config_value = 'Asia/Shanghai' WHERE config_key = 'businessTimeZone'`,
      );
    }
  });

  it.each([
    ['no month', '/api/iccard/bill/page/1/size/10', /month/],
    ['a malformed month', '/api/iccard/bill/page/1/size/10?month=2026-13', /month/],
    ['the month 0000-01', '/api/iccard/bill/page/1/size/10?month=0000-01', /month must be 1970-01 or later/],
    ['a statement month before 1970', '/api/iccard/bill/1/0099-12', /month must be 1970-01 or later/],
    ['an account id beyond integer', '/api/iccard/bill/2147483648/2026-01', /accountId/],
    [
      'a month to come',
      `/api/iccard/bill/page/1/size/10?month=${shift(shanghaiMonth(new Date()), 1)}`,
      /future/,
    ],
    ['an unknown kind', `/api/iccard/bill/page/1/size/10?month=2026-01&kind=company`, /kind/],
    ['a bad page size', '/api/iccard/bill/page/1/size/0?month=2026-01', /size/],
    ['a bad account id', '/api/iccard/bill/abc/2026-01', /accountId/],
    ['a malformed statement month', '/api/iccard/bill/1/2026-1', /month/],
    ['a statement month to come', `/api/iccard/bill/1/${shift(shanghaiMonth(new Date()), 2)}/pdf`, /future/],
    ['an unknown language', '/api/iccard/bill/1/2026-01/pdf?lang=fr', /lang/],
    ['an export without month', '/api/iccard/bill/export/xlsx?lang=en-US', /month/],
  ])('refuses %s with 400 naming the field', async (_case, path, message) => {
    const res = await t.http().get(path).set(admin).expect(400);
    expect(JSON.stringify(fieldErrors(res.body))).toMatch(message);
  });

  it('answers 404 for an account that is not a customer account in scope', async () => {
    const res = await t.http().get(`/api/iccard/bill/999999/${month}`).set(admin).expect(404);
    errorOf(res.body, 'ICCARD_CUSTOMER_NOT_FOUND');
  });

  it('lets the operator in and keeps roles without the button out', async () => {
    const operator = bearer(await t.login('operator', DEMO_PASSWORD));
    await t.http().get(`/api/iccard/bill/page/1/size/10?month=${month}`).set(operator).expect(200);
    const maintainer = bearer(await t.login('maintainer', DEMO_PASSWORD));
    await t.http().get(`/api/iccard/bill/page/1/size/10?month=${month}`).set(maintainer).expect(403);
    await t.http().get(`/api/iccard/bill/${account}/${month}/pdf`).set(maintainer).expect(403);
    await t.http().get(`/api/iccard/bill/export/xlsx?month=${month}`).set(maintainer).expect(403);
  });
});
