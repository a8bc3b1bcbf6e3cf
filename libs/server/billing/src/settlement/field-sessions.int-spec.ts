import { randomUUID } from 'node:crypto';
import type { AuthPrincipal } from '@voltdepot/server-core';
import {
  createTestDatabase,
  insertPile,
  insertPricePlan,
  PileEvents,
  type TestDatabase,
} from '@voltdepot/server-testing';
import type { EventEnvelope, OrderAmendedV1, OrderSettledV2 } from '@voltdepot/shared-events';
import { ChargingOrderQueryRepository } from '../orders-query/charging-order-query.repository';
import { OrdersQueryService } from '../orders-query/orders-query.service';
import { OrderReviewService } from '../order-review/order-review.service';
import { OrderVersionRepository } from '../order-review/order-version.repository';
import { SettlementService } from './settlement.service';

/**
 * What real piles send, against the real database, in the events the gateway publishes: decimal
 * registers and samples around the stop, sessions the gateway abandoned and their late real stops,
 * repeated stops; each exactly once under redelivery and copies (the consumer is driven directly, one
 * transaction per batch as it runs).
 */
let db: TestDatabase;
const service = new SettlementService();
let orgPath: string;
const scopes = { scopeOf: async () => ({ pathPatterns: [`${orgPath}%`] }) };
const me = { userId: 1, username: 'admin' } as AuthPrincipal;
const start = 2_000_000;
const MINUTE = 60;
const T0 = Date.parse('2026-11-20T02:00:00Z');

beforeAll(async () => {
  db = await createTestDatabase();
  // One flat stage: 1.00 yuan/kWh electricity, 0.20 service.
  await insertPricePlan(db.dataSource, { name: 'Flat', isDefault: true });
  const [org] = await db.dataSource.query(`SELECT id, path FROM sys_organization WHERE code = 'FZ'`);
  orgPath = String(org.path);
});
afterAll(async () => {
  await db?.drop();
});

const settle = (events: EventEnvelope[]) => db.dataSource.transaction((m) => service.handleBatch(events, m));
/** The same event again under a new id (a gateway that published it twice). */
const copy = (e: EventEnvelope): EventEnvelope => ({ ...e, eventId: randomUUID() });
const aPile = async () => {
  const [org] = await db.dataSource.query(`SELECT id FROM sys_organization WHERE code = 'FZ'`);
  return new PileEvents(
    (await insertPile(db.dataSource, { organization_id: Number(org.id) })).chargePointId,
    T0,
  );
};
const orderOf = async (pile: PileEvents, tx = 1) =>
  (
    await db.dataSource.query(
      'SELECT * FROM charging_order WHERE charge_point_id = $1 AND transaction_id = $2',
      [pile.chargePointId, tx],
    )
  )[0] as Record<string, unknown> | undefined;
const eventsOf = async (pile: PileEvents, type: string) =>
  (
    await db.dataSource.query(`SELECT payload FROM outbox_event WHERE key = $1 AND type = $2 ORDER BY id`, [
      pile.chargePointId,
      type,
    ])
  ).map((r: { payload: unknown }) => r.payload);
const queries = () => new OrdersQueryService(new ChargingOrderQueryRepository(db.dataSource), scopes);

describe('meter data as piles send it', () => {
  it('bills decimal registers, a stop rounded below the last sample and a late sample after the stop', async () => {
    const pile = await aPile();
    const events = [
      pile.started(0, { transactionId: 1, idTag: 'CARD-1', meterStartWh: start }),
      pile.meterValues(20 * MINUTE, { transactionId: 1, energyWh: start + 3_333.333, soc: 40.5 }),
      pile.meterValues(40 * MINUTE, { transactionId: 1, energyWh: start + 6_666.667, soc: 60.2 }),
      pile.meterValues(59 * MINUTE, { transactionId: 1, energyWh: start + 10_000.26, soc: 79.9 }),
      // A periodic sample stamped 80 ms after the StopTransaction, sent before it, above meterStop.
      pile.meterValues(60 * MINUTE + 0.08, { transactionId: 1, energyWh: start + 10_000.41, soc: 80 }),
      // The stop's transactionData (Transaction.End): 10,000 after 10,000.26, flagged by the gateway.
      pile.meterValues(60 * MINUTE, {
        transactionId: 1,
        energyWh: start + 10_000,
        context: 'Transaction.End',
        flag: 'decreasing',
      }),
      pile.stopped(60 * MINUTE, { transactionId: 1, meterStartWh: start, meterStopWh: start + 10_000 }),
    ];
    await settle(events);
    expect(await orderOf(pile)).toMatchObject({
      pay_status: 0,
      abnormal_reasons: [],
      energy_wh: '10000',
      total_fen: '1200',
      normal_energy_wh: '10000',
      start_soc: 41,
      end_soc: 80,
    });
    // The samples are kept as sent (3 decimals), for the charts and reconciliation.
    const [{ value }] = await db.dataSource.query(
      `SELECT value FROM billing_reading WHERE charge_point_id = $1 AND at = $2 AND measurand = 'Energy.Active.Import.Register'`,
      [pile.chargePointId, pile.at(20 * MINUTE)],
    );
    expect(Number(value)).toBe(start + 3_333.333);
  });

  it('holds a session with a sample the gateway flagged as a jump, never one flagged after the stop', async () => {
    const pile = await aPile();
    await settle([
      pile.started(0, { transactionId: 1, idTag: 'CARD-1', meterStartWh: start }),
      pile.meterValues(10 * MINUTE, { transactionId: 1, energyWh: start + 9_000_000, flag: 'jump' }),
      pile.stopped(60 * MINUTE, { transactionId: 1, meterStartWh: start, meterStopWh: start + 40_000 }),
      pile.meterValues(61 * MINUTE, { transactionId: 1, energyWh: start + 9_000_000, flag: 'jump' }),
      pile.started(0, { transactionId: 2, idTag: 'CARD-1', meterStartWh: start }),
      pile.stopped(60 * MINUTE, { transactionId: 2, meterStartWh: start, meterStopWh: start + 40_000 }),
      pile.meterValues(61 * MINUTE, { transactionId: 2, energyWh: start + 9_000_000, flag: 'jump' }),
    ]);
    expect(await orderOf(pile, 1)).toMatchObject({ pay_status: 3, abnormal_reasons: ['meterJump'] });
    expect(await orderOf(pile, 2)).toMatchObject({ pay_status: 0, abnormal_reasons: [] });
  });
});

describe('sessions the gateway abandoned', () => {
  const abandon = (pile: PileEvents) =>
    pile.abandoned(90 * MINUTE, {
      transactionId: 1,
      idTag: 'CARD-1',
      meterStartWh: start,
      lastMeterWh: start + 7_500.4,
      lastSampleAt: pile.at(45 * MINUTE),
      rule: 'connectorIdle',
    });
  const realStop = (pile: PileEvents) =>
    pile.stopped(60 * MINUTE, {
      transactionId: 1,
      meterStartWh: start,
      meterStopWh: start + 10_000,
      reason: 'PowerLoss',
      stopKind: 'abnormal',
      afterAbandon: true,
    });

  it('settles a lost-stop order held for review once, and its real stop completes that same order once', async () => {
    const pile = await aPile();
    const started = pile.started(0, { transactionId: 1, idTag: 'CARD-1', meterStartWh: start });
    const sample = pile.meterValues(45 * MINUTE, { transactionId: 1, energyWh: start + 7_500.4 });
    const abandoned = abandon(pile);
    await settle([started, sample, abandoned]);
    await settle([copy(abandoned)]);
    const lost = await orderOf(pile);
    expect(lost).toMatchObject({
      pay_status: 3,
      abnormal_reasons: ['stopMissing'],
      abandon_rule: 'connectorIdle',
      energy_wh: '7500',
      meter_stop_wh: String(start + 7_500),
      stopped_at: new Date(pile.at(45 * MINUTE)),
      end_reason: 'Other',
      stop_kind: 'abnormal',
      version: 1,
    });
    expect(await eventsOf(pile, 'order.settled')).toEqual([
      expect.objectContaining({ payStatus: 3, totalFen: 0, abnormalReasons: ['stopMissing'] }),
    ]);

    // The pile replays its queue: the real stop, twice.
    const stop = realStop(pile);
    await settle([stop]);
    await settle([copy(stop)]);
    const completed = await orderOf(pile);
    expect(completed).toMatchObject({
      id: lost!['id'],
      order_no: lost!['order_no'],
      version: 2,
      pay_status: 0,
      abnormal_reasons: [],
      energy_wh: '10000',
      total_fen: '1200',
      end_reason: 'PowerLoss',
      stopped_at: new Date(pile.at(60 * MINUTE)),
    });
    expect(
      await db.dataSource.query('SELECT count(*)::int AS n FROM charging_order WHERE charge_point_id = $1', [
        pile.chargePointId,
      ]),
    ).toEqual([{ n: 1 }]);
    const amended = (await eventsOf(pile, 'order.amended')) as OrderAmendedV1[];
    expect(amended).toEqual([
      expect.objectContaining({
        orderNo: lost!['order_no'],
        version: 2,
        kind: 'completed',
        amendedBy: 'system',
        figures: {
          meterStopWh: start + 10_000,
          energyWh: 10_000,
          electricityFen: 1_000,
          serviceFen: 200,
          totalFen: 1_200,
          payStatus: 0,
        },
        difference: {
          meterStopWh: 2_500,
          energyWh: 2_500,
          electricityFen: 1_000,
          serviceFen: 200,
          totalFen: 1_200,
        },
      }),
    ]);
    expect((await eventsOf(pile, 'order.settled')) as OrderSettledV2[]).toHaveLength(1);

    const detail = await queries().detail(me, Number(lost!['id']));
    expect(detail).toMatchObject({ abandonRule: 'connectorIdle', version: 2 });
    expect(
      detail.versions.map((v) => [v.version, v.kind, v.by, v.energyWh, v.totalFen, v.totalDeltaFen]),
    ).toEqual([
      [1, 'settled', null, 7_500, 0, 0],
      [2, 'completed', 'system', 10_000, 1_200, 1_200],
    ]);
    expect(detail.log.map((e) => e.action)).toEqual(['started', 'stopped', 'held', 'completed']);
  });

  it('an approved lost stop stays billed, at the price of its completed session', async () => {
    const pile = await aPile();
    await settle([
      pile.started(0, { transactionId: 1, idTag: 'CARD-1', meterStartWh: start }),
      pile.meterValues(45 * MINUTE, { transactionId: 1, energyWh: start + 7_500.4 }),
      abandon(pile),
    ]);
    const id = Number((await orderOf(pile))!['id']);
    const review = new OrderReviewService(new OrderVersionRepository(db.dataSource), scopes);
    await review.review(id, { decision: 'approve', reason: 'bill what was measured' }, me);
    expect(await orderOf(pile)).toMatchObject({ version: 2, pay_status: 0, total_fen: '900' });
    await settle([realStop(pile)]);
    expect(await orderOf(pile)).toMatchObject({
      version: 3,
      pay_status: 0,
      total_fen: '1200',
      abnormal_reasons: ['stopMissing'], // what was reviewed
    });
    expect(
      ((await eventsOf(pile, 'order.amended')) as OrderAmendedV1[]).map((e) => [
        e.kind,
        e.difference.totalFen,
      ]),
    ).toEqual([
      ['approved', 900],
      ['completed', 300],
    ]);
  });
});

describe('repeated stops', () => {
  it('keeps the order billed on the first stop, records the repeat once and flags the order, queryable', async () => {
    const pile = await aPile();
    const first = pile.stopped(60 * MINUTE, {
      transactionId: 1,
      meterStartWh: start,
      meterStopWh: start + 10_000,
    });
    const repeat = pile.stopRepeated(61 * MINUTE, {
      transactionId: 1,
      meterStopWh: start + 10_072,
      firstMeterStopWh: start + 10_000,
      firstSeconds: 60 * MINUTE,
      reason: 'Remote',
    });
    // The repeat arrives before the first stop's start (so before its settlement), and again afterwards.
    await settle([first, repeat]);
    await settle([pile.started(0, { transactionId: 1, idTag: 'CARD-1', meterStartWh: start })]);
    await settle([copy(repeat)]);
    expect(await orderOf(pile)).toMatchObject({
      pay_status: 0,
      energy_wh: '10000',
      total_fen: '1200',
      abnormal_reasons: ['repeatedStop'],
    });
    const page = await queries().page(
      me,
      {
        start: new Date('2026-11-01T00:00:00Z'),
        end: new Date('2026-12-01T00:00:00Z'),
        abnormalReason: 'repeatedStop',
      },
      1,
      50,
    );
    expect(page.list.map((o) => o.chargePointId)).toContain(pile.chargePointId);
    const detail = await queries().detail(me, Number((await orderOf(pile))!['id']));
    expect(detail.repeatStops).toEqual([
      {
        stoppedAt: pile.at(61 * MINUTE),
        meterStopWh: start + 10_072,
        reason: 'Remote',
        disagrees: true,
        receivedAt: expect.any(String),
      },
    ]);
    expect(detail.reviewStatus).toBe('pending');
  });
});
