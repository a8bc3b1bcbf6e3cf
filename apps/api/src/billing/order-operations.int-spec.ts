/**
 * The order operation log through the api: operator actions on orders (reviews of held orders, written
 * here as the review endpoint writes them), filtered, paged, limited to the caller's data scope and
 * exported as .xlsx.
 */
import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { grantPermissions, insertDepot } from '@voltdepot/server-testing';
import type { OrderOperationRow } from '@voltdepot/server-billing';
import { ApiTestApp, bearer, DEMO_PASSWORD, errorOf, startApiTestApp } from '../fixtures/api-test-app';
import { binary } from '../fixtures/xlsx';

type Auth = { authorization: string };
let t: ApiTestApp;
let operator: Auth;
const orders: Record<string, { id: number; orderNo: string }> = {};
/** Actions happen on 2026-11-21 (+08:00); every query below looks at that day. */
const DAY = { start: '2026-11-21 00:00:00', end: '2026-11-21 23:59:59' };

/** A station of organisation `org` with one pile; returns the pile's charge point id. */
async function depot(org: 'FZ' | 'HF'): Promise<string> {
  const { chargePointId } = await insertDepot(t.db.dataSource, {
    organization: org,
    station: { name: `${org} depot` },
    pile: { name: `${org} pile` },
    guns: [],
  });
  return chargePointId;
}

/** A held order at `cp` reviewed by `reviewer` at `at` (how POST /api/chargingOrder/{id}/review records it). */
async function reviewed(
  key: string,
  cp: string,
  decision: 'approve' | 'reject',
  reviewer: string,
  at: string,
): Promise<void> {
  const db = t.db.dataSource;
  const orderNo = `OP${randomUUID().replace(/-/g, '').slice(0, 18)}`;
  const [{ id }] = await db.query(
    `INSERT INTO charging_order (order_no, charge_point_id, connector_id, transaction_id, stopped_at, meter_stop_wh,
                                 end_reason, stop_kind, pay_status, abnormal_reasons, total_fen)
     VALUES ($1, $2, 1, $3, $4, 1000, 'Local', 'normal', $5, '{beyondCapacity}', $6) RETURNING id`,
    [orderNo, cp, Math.floor(Math.random() * 1e9), at, decision === 'approve' ? 0 : 3, 12_345],
  );
  await db.query(
    `INSERT INTO charging_order_review (order_id, decision, reason, reviewer_name, reviewed_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [id, decision, `${decision} ${key}`, reviewer, at],
  );
  orders[key] = { id: Number(id), orderNo };
}

beforeAll(async () => {
  t = await startApiTestApp();
  operator = bearer(await t.login('operator', DEMO_PASSWORD));
  const fz = await depot('FZ');
  const hf = await depot('HF');
  await reviewed('fzApproved', fz, 'approve', 'alice', '2026-11-21T09:00:00+08:00');
  await reviewed('fzRejected', fz, 'reject', 'bob', '2026-11-21T10:00:00+08:00');
  await reviewed('hfApproved', hf, 'approve', 'bob', '2026-11-21T11:00:00+08:00');
  await reviewed('yesterday', fz, 'approve', 'alice', '2026-11-20T11:00:00+08:00');
});
afterAll(async () => {
  await t?.close();
});

async function page(query: Record<string, unknown>, auth: Auth = operator, size = 20) {
  const res = await t
    .http()
    .get(`/api/orderOperation/page/1/size/${size}`)
    .query(query)
    .set(auth)
    .expect(200);
  return res.body as { list: OrderOperationRow[]; total: number };
}
const keysOf = (list: OrderOperationRow[]) =>
  list.map((r) => Object.keys(orders).find((k) => orders[k].id === r.orderId));

describe('order operation log', () => {
  it('lists the reviews of the period newest first, with operator, reason and amount', async () => {
    const { list, total } = await page(DAY);
    expect(total).toBe(3);
    expect(keysOf(list)).toEqual(['hfApproved', 'fzRejected', 'fzApproved']);
    expect(list[2]).toEqual({
      id: `review:${orders['fzApproved'].id}`,
      at: '2026-11-21T01:00:00.000Z',
      action: 'approved',
      operator: 'alice',
      orderId: orders['fzApproved'].id,
      orderNo: orders['fzApproved'].orderNo,
      stationName: 'FZ depot',
      detail: 'approve fzApproved',
      amountFen: 12_345,
    });
    expect(list[1]).toMatchObject({ action: 'rejected', amountFen: null });
  });

  it.each([
    ['order number (part)', () => ({ orderNo: orders['fzRejected'].orderNo.slice(2, 14) }), ['fzRejected']],
    ['operator (part, any case)', () => ({ operator: 'ALI' }), ['fzApproved']],
    ['action', () => ({ action: 'rejected' }), ['fzRejected']],
    ['time range', () => ({ end: '2026-11-21 09:30:00' }), ['fzApproved']],
  ])('filters by %s', async (_case, query, expected) => {
    expect(keysOf((await page({ ...DAY, ...query() })).list)).toEqual(expected);
  });

  it('pages', async () => {
    const first = await page(DAY, operator, 2);
    expect(first.total).toBe(3);
    expect(keysOf(first.list)).toEqual(['hfApproved', 'fzRejected']);
    const second = (
      await t.http().get('/api/orderOperation/page/2/size/2').query(DAY).set(operator).expect(200)
    ).body;
    expect(keysOf(second.list)).toEqual(['fzApproved']);
  });

  it.each([
    ['an unknown action', { action: 'deleted' }, /action.*must be one of approved, rejected/],
    ['a bad time', { start: '21/11/2026' }, /start.*must be a date-time/],
    [
      'an end before the start',
      { start: '2026-11-21 10:00:00', end: '2026-11-21 09:00:00' },
      /end.*must not be before start/,
    ],
  ])('refuses %s with 400', async (_case, query, message) => {
    const res = await t
      .http()
      .get('/api/orderOperation/page/1/size/20')
      .query(query)
      .set(operator)
      .expect(400);
    expect(JSON.stringify(errorOf(res.body, 'VALIDATION_FAILED'))).toMatch(message);
  });

  it("needs its permission and shows only actions on orders in the caller's data scope", async () => {
    const maintainer = bearer(await t.login('maintainer', DEMO_PASSWORD));
    const denied = await t.http().get('/api/orderOperation/page/1/size/20').set(maintainer).expect(403);
    expect(errorOf(denied.body, 'FORBIDDEN').message).toBe('Missing permission: order_operation:view');
    await t.http().get('/api/orderOperation/export/xlsx').set(maintainer).expect(403);
    // Maintenance staff (Hefei depot) may read the log for this test.
    await grantPermissions(t.db.dataSource, 'maintainer', ['order_operation:view']);
    expect(keysOf((await page(DAY, maintainer)).list)).toEqual(['hfApproved']);
  });

  it('exports the filtered log as .xlsx with headers in the chosen language', async () => {
    const res = await t
      .http()
      .get('/api/orderOperation/export/xlsx')
      .query({ ...DAY, action: 'approved', lang: 'en-US' })
      .set(operator)
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(res.headers['content-disposition']).toContain('order-operation-log.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.body as ArrayBuffer);
    const rows: unknown[][] = [];
    workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows).toEqual([
      ['Operated at', 'Action', 'Operator', 'Order number', 'Station', 'Remark', 'Amount (yuan)'],
      [
        '2026-11-21 11:00:00',
        'Approved',
        'bob',
        orders['hfApproved'].orderNo,
        'HF depot',
        'approve hfApproved',
        123.45,
      ],
      [
        '2026-11-21 09:00:00',
        'Approved',
        'alice',
        orders['fzApproved'].orderNo,
        'FZ depot',
        'approve fzApproved',
        123.45,
      ],
    ]);
  });
});
