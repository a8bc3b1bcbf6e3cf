import { PileEvents } from '@voltdepot/server-testing';
import type { AbnormalReasonCode } from '@voltdepot/shared-contracts';
import {
  OrderAmended,
  OrderSettled,
  type EventEnvelope,
  type OrderAmendedV1,
  type OrderSettledV2,
  type TransactionStopRepeatedV1,
  type TransactionStoppedV1,
} from '@voltdepot/shared-events';
import type { EntityManager } from 'typeorm';
import type { OrderState, VersionedOrder } from '../order-review/order-version.repository';
import type { Discount } from '../pricing/discount';
import { NOTHING_BILLED } from '../pricing/order-amounts';
import type { PricePlan } from '../pricing/price-plan';
import { orderNumber } from './order-number';
import {
  sessionKey,
  type BillingSessionRow,
  type MatchedVehicle,
  type OrderRecord,
  type SessionCard,
  type SessionKey,
  type TransactionReading,
} from './settlement.repository';
import {
  DEFAULT_SETTLEMENT_OPTIONS,
  SettlementService,
  type SettlementStore,
  type SettlementVersionStore,
} from './settlement.service';

/** One stage over the day: 1.0000 yuan/kWh electricity, 0.2000 service. */
const FLAT: PricePlan = {
  stages: [
    { stageType: 'normal', startMinute: 0, endMinute: 1440, electricityPrice: 10_000, serviceFee: 2_000 },
  ],
};

/**
 * Settlement's tables: sessions (starts), readings, parked stops, orders once per transaction; and what
 * the inputs query joins in (the plan in force, the card, the bus, the discount, the pile's start mode).
 */
class FakeSettlement implements SettlementStore, SettlementVersionStore {
  readonly sessions = new Map<string, BillingSessionRow>();
  readonly readings: TransactionReading[] = [];
  readonly parked = new Map<string, TransactionStoppedV1>();
  readonly orders = new Map<string, OrderRecord>();
  /** Versions 2 and up of each order (by session key), as `saveVersion` stored them. */
  readonly versions = new Map<string, { state: OrderState; kind: string; requestKey: string }[]>();
  readonly repeats: TransactionStopRepeatedV1[] = [];
  plan: PricePlan | undefined = FLAT;
  discount?: Discount;
  readonly cards = new Map<string, SessionCard>();
  readonly vehicles = new Map<string, MatchedVehicle>();
  pileStartMode: number | null = null;

  async recordStarts(_m: EntityManager, starts: BillingSessionRow[]) {
    const released: TransactionStoppedV1[] = [];
    for (const start of starts) {
      const key = sessionKey(start);
      if (this.sessions.has(key)) continue;
      this.sessions.set(key, start);
      const stop = this.parked.get(key);
      if (stop) released.push(stop);
      this.parked.delete(key);
    }
    return released;
  }
  async recordReadings(_m: EntityManager, readings: TransactionReading[]) {
    this.readings.push(...readings);
  }
  async settlementInputsOf(_m: EntityManager, keys: (SessionKey & { idTag?: string })[]) {
    return new Map(
      keys.map((k) => {
        const key = sessionKey(k);
        const session = this.sessions.get(key);
        const tag = session?.idTag ?? k.idTag ?? '';
        const readings = this.readings
          .filter((r) => sessionKey(r) === key)
          .sort((a, b) => a.at.getTime() - b.at.getTime());
        const order = this.orders.get(key);
        const input = {
          session,
          order: order && {
            id: 1,
            abandoned: order.abandonRule !== undefined,
            completed: (this.versions.get(key) ?? []).some((v) => v.kind === 'completed'),
          },
          readings,
          plan: this.plan && { id: 3, version: 'v1' },
          discount: this.discount,
          card: this.cards.get(tag),
          vehicle: this.vehicles.get(tag),
          pileStartMode: this.pileStartMode,
          repeated: this.repeats.some((r) => sessionKey(r) === key && r.disagrees),
        };
        return [key, input];
      }),
    );
  }
  async planStages() {
    return this.plan;
  }
  async parkStops(_m: EntityManager, stops: TransactionStoppedV1[]) {
    for (const stop of stops) if (!this.parked.has(sessionKey(stop))) this.parked.set(sessionKey(stop), stop);
  }
  async takeLostStops() {
    const lost = [...this.parked.values()];
    this.parked.clear();
    return lost;
  }
  async insertOrders(_m: EntityManager, orders: OrderRecord[]) {
    const inserted = new Set<string>();
    for (const order of orders) {
      const key = sessionKey(order.stop);
      if (this.orders.has(key)) continue;
      this.orders.set(key, order);
      inserted.add(key);
    }
    return inserted;
  }
  async recordRepeatStops(_m: EntityManager, repeats: TransactionStopRepeatedV1[]) {
    for (const repeat of repeats) {
      const same = (r: TransactionStopRepeatedV1) =>
        sessionKey(r) === sessionKey(repeat) &&
        r.timestamp === repeat.timestamp &&
        r.meterStopWh === repeat.meterStopWh &&
        r.reason === repeat.reason;
      if (this.repeats.some(same)) continue;
      this.repeats.push(repeat);
      const order = this.orders.get(sessionKey(repeat));
      if (order && repeat.disagrees && !order.abnormalReasons.includes('repeatedStop'))
        order.abnormalReasons = [...order.abnormalReasons, 'repeatedStop'];
    }
  }
  /** The order as the versions see it: its current state (the last version's, else as settled). */
  async lock(_m: EntityManager, ref: SessionKey | { id: number }): Promise<VersionedOrder | undefined> {
    const key = sessionKey(ref as SessionKey);
    const order = this.orders.get(key);
    if (!order) return undefined;
    const versions = this.versions.get(key) ?? [];
    return {
      id: 1,
      orderNo: order.orderNo,
      chargePointId: order.stop.chargePointId,
      connectorId: order.stop.connectorId,
      transactionId: order.stop.transactionId,
      version: versions.length + 1,
      meterStartWh: order.session?.meterStartWh ?? null,
      abandonRule: order.abandonRule ?? null,
      state: versions.at(-1)?.state ?? {
        meterStopWh: order.stop.meterStopWh,
        stoppedAt: order.stop.timestamp,
        endReason: order.stop.reason,
        stopKind: order.stop.stopKind,
        energyWh: order.energyWh,
        startSoc: order.startSoc ?? null,
        endSoc: order.endSoc ?? null,
        payStatus: order.payStatus,
        abnormalReasons: order.abnormalReasons,
        pricePlanId: order.pricePlanId ?? null,
        amounts: order.amounts ?? NOTHING_BILLED,
      },
    };
  }
  async saveVersion(
    _m: EntityManager,
    order: VersionedOrder,
    next: OrderState,
    meta: { kind: string; requestKey: string },
  ) {
    const key = sessionKey(order);
    const versions = this.versions.get(key) ?? [];
    if (
      versions.some(
        (v) => v.requestKey === meta.requestKey || (meta.kind === 'completed' && v.kind === meta.kind),
      )
    )
      return false;
    this.versions.set(key, [...versions, { state: next, kind: meta.kind, requestKey: meta.requestKey }]);
    return true;
  }
}

const CP = 'CP-1';
const T0 = Date.parse('2026-11-20T07:00:00+08:00');
const MINUTE = 60;

function setup() {
  const repository = new FakeSettlement();
  const service = new SettlementService(
    repository,
    { ...DEFAULT_SETTLEMENT_OPTIONS, maxSessionEnergyWh: 500_000 },
    repository,
  );
  // The outbox insert goes through the manager: the fake keeps the events it was given.
  const outbox: EventEnvelope[] = [];
  const m = {
    query: async (_sql: string, [json]: [string]) => outbox.push(...(JSON.parse(json) as EventEnvelope[])),
  } as unknown as EntityManager;
  const pile = new PileEvents(CP, T0);
  const order = (transactionId: number) =>
    repository.orders.get(sessionKey({ chargePointId: CP, transactionId }));
  const settled = () => outbox.filter((e) => OrderSettled.is(e)).map((e) => e.payload as OrderSettledV2);
  const amended = () => outbox.filter((e) => OrderAmended.is(e)).map((e) => e.payload as OrderAmendedV1);
  const versions = (transactionId: number) =>
    repository.versions.get(sessionKey({ chargePointId: CP, transactionId })) ?? [];
  return { repository, service, m, pile, order, settled, amended, versions };
}

/** A one-hour session on connector 1: start, a sample half way (register and SoC), stop. */
function session(
  pile: PileEvents,
  transactionId: number,
  o: {
    idTag?: string;
    energyWh?: number;
    middleWh?: number;
    socs?: [number, number];
    flagged?: boolean;
  } = {},
) {
  const { idTag = 'CARD-1', energyWh = 10_000, socs = [30, 80] } = o;
  const meterStartWh = 1_000_000;
  const middle = pile.meterValues(30 * MINUTE, {
    transactionId,
    energyWh: meterStartWh + (o.middleWh ?? energyWh / 2),
    soc: socs[0],
  });
  const end = pile.meterValues(59 * MINUTE, {
    transactionId,
    energyWh: meterStartWh + energyWh,
    soc: socs[1],
  });
  if (o.flagged) (middle.payload as { samples: { flag?: string }[] }).samples[0].flag = 'implausible';
  return {
    start: pile.started(0, { transactionId, idTag, meterStartWh }),
    meter: [middle, end],
    stop: pile.stopped(60 * MINUTE, {
      transactionId,
      idTag,
      meterStartWh,
      meterStopWh: meterStartWh + energyWh,
    }),
  };
}

describe('SettlementService', () => {
  it('settles a stop into a priced order, announced once on the outbox', async () => {
    const { service, m, pile, order, settled, repository } = setup();
    repository.pileStartMode = 2;
    const s = session(pile, 1);
    await service.handleBatch([s.start, ...s.meter, s.stop], m);
    expect(order(1)).toMatchObject({
      orderNo: orderNumber(CP, 1, new Date(T0 + 3_600_000), 'Asia/Shanghai'),
      payStatus: 0,
      abnormalReasons: [],
      energyWh: 10_000,
      amounts: expect.objectContaining({ electricityFen: 1_000, serviceFen: 200, totalFen: 1_200 }),
      startMode: 2,
      startSoc: 30,
      endSoc: 80,
    });
    // The card travels with the order: the ledger finds the prepaid account it draws on by it.
    expect(settled()).toEqual([
      expect.objectContaining({ transactionId: 1, totalFen: 1_200, payStatus: 0, idTag: 'CARD-1' }),
    ]);
  });

  it("applies the card's discount", async () => {
    const { service, m, pile, order, repository } = setup();
    repository.discount = { planId: 8, pricePercent: 90, servicePercent: 50 };
    const s = session(pile, 1);
    await service.handleBatch([s.start, ...s.meter, s.stop], m);
    expect(order(1)?.amounts).toMatchObject({ discountPlanId: 8, totalFen: 1_000 });
  });

  it('parks a stop that overtook its start and settles it when the start arrives', async () => {
    const { service, m, pile, order, repository } = setup();
    const s = session(pile, 1);
    await service.handleBatch([s.stop], m);
    expect(order(1)).toBeUndefined();
    expect(repository.parked.size).toBe(1);
    await service.handleBatch([s.start, ...s.meter], m);
    expect(order(1)).toMatchObject({ payStatus: 0, energyWh: 10_000 });
  });

  it('settles at once a stop that precedes its start in the same batch', async () => {
    const { service, m, pile, order } = setup();
    const s = session(pile, 1);
    await service.handleBatch([s.stop, s.start, ...s.meter], m);
    expect(order(1)).toMatchObject({ payStatus: 0 });
  });

  it('takes the first of several copies of a stop, and never changes nor re-announces a settled order', async () => {
    const { service, m, pile, order, settled } = setup();
    const s = session(pile, 1);
    const copy = pile.stopped(61 * MINUTE, {
      transactionId: 1,
      meterStartWh: 1_000_000,
      meterStopWh: 1_050_000,
    });
    await service.handleBatch([s.start, ...s.meter, s.stop, copy], m);
    await service.handleBatch([copy], m);
    expect(order(1)?.energyWh).toBe(10_000);
    expect(settled()).toHaveLength(1);
  });

  it('holds a quarantined stop (no start will come) as a lost record at once', async () => {
    const { service, m, pile, order, settled } = setup();
    await service.handleBatch(
      [pile.stopped(0, { transactionId: 5, meterStopWh: 900, quarantined: true })],
      m,
    );
    expect(order(5)).toMatchObject({
      payStatus: 3,
      abnormalReasons: ['unknownTransaction'],
    });
    expect(settled()).toEqual([expect.objectContaining({ totalFen: 0, payStatus: 3 })]);
  });

  it('holds the stops the sweep takes (their start never came) as lost records', async () => {
    const { service, m, pile, order } = setup();
    await service.handleBatch([session(pile, 6).stop], m);
    await expect(service.sweepLostStops(m)).resolves.toBe(1);
    expect(order(6)?.abnormalReasons).toEqual(['startMissing']);
  });

  const bus: MatchedVehicle = {
    id: 1,
    plate: '闽A12345',
    vin: 'LVD00000000000001',
    batteryCapacityWh: 100_000,
  };
  it.each<[string, (r: FakeSettlement) => void, Parameters<typeof session>[2], AbnormalReasonCode]>([
    ['a register that runs backwards', () => {}, { middleWh: -500 }, 'meterDecreased'],
    ['a sample the gateway flagged', () => {}, { flagged: true }, 'meterFlagged'],
    [
      "more than 120 % of the matched bus's battery",
      (r) => r.vehicles.set('CARD-1', bus),
      { energyWh: 121_000 },
      'beyondCapacity',
    ],
    [
      'more than any battery holds when no capacity is known',
      () => {},
      { energyWh: 500_002 },
      'beyondCapacity',
    ],
    [
      'a driver card bound to no bus',
      (r) => r.cards.set('CARD-1', { type: 0, vehicleId: null }),
      {},
      'noVehicle',
    ],
    ['a VIN no bus has', () => {}, { idTag: 'LZZ1234567890ABCD' }, 'noVehicle'],
    ['an SoC above 100', () => {}, { socs: [30, 130] }, 'socOutOfRange'],
    ['a start SoC above the end SoC', () => {}, { socs: [80, 40] }, 'socFalling'],
    ['no price plan in force', (r) => (r.plan = undefined), {}, 'noPricePlan'],
  ])('holds a session with %s for review, unbilled', async (_case, given, spec, reason) => {
    const { service, m, pile, order, repository } = setup();
    given(repository);
    const s = session(pile, 1, spec);
    await service.handleBatch([s.start, ...s.meter, s.stop], m);
    expect(order(1)).toMatchObject({ payStatus: 3, amounts: undefined });
    expect(order(1)?.abnormalReasons).toEqual([reason]);
  });

  it('bills a bus within 120 % of its battery, and keeps the tariff of a held order for its review', async () => {
    const { service, m, pile, order, repository } = setup();
    repository.vehicles.set('CARD-1', bus);
    const within = session(pile, 1, { energyWh: 120_000 });
    await service.handleBatch([within.start, ...within.meter, within.stop], m);
    expect(order(1)).toMatchObject({ payStatus: 0, vehicle: bus });
    const held = session(pile, 2, { socs: [30, 130] });
    await service.handleBatch([held.start, ...held.meter, held.stop], m);
    expect(order(2)?.tariff).toEqual({ planId: 3, stages: FLAT.stages, discount: null });
  });
});

/**
 * Meter data as piles really send it, in the events the gateway publishes: registers in Wh with decimals,
 * integer meterStart/meterStop rounded from them, a stop's transactionData sample (Transaction.End), and a
 * periodic sample stamped just after the StopTransaction.
 */
describe('SettlementService: meter data as piles send it', () => {
  const start = 1_000_000;
  /** A one-hour session whose samples carry decimals; stop at 60 min. */
  function decimalSession(pile: PileEvents, transactionId: number, registers: number[], meterStopWh: number) {
    return [
      pile.started(0, { transactionId, idTag: 'CARD-1', meterStartWh: start }),
      ...registers.map((energyWh, i) =>
        pile.meterValues(((i + 1) * 60 * MINUTE) / (registers.length + 1), { transactionId, energyWh }),
      ),
      pile.stopped(60 * MINUTE, { transactionId, idTag: 'CARD-1', meterStartWh: start, meterStopWh }),
    ];
  }

  it('bills decimal registers: the energy is meterStop - meterStart, priced to the Wh', async () => {
    const { service, m, pile, order } = setup();
    await service.handleBatch(
      decimalSession(pile, 1, [start + 2_500.26, start + 5_000.5, start + 7_499.74], start + 10_000),
      m,
    );
    expect(order(1)).toMatchObject({
      payStatus: 0,
      abnormalReasons: [],
      energyWh: 10_000,
      amounts: expect.objectContaining({ totalFen: 1_200 }),
    });
    expect(order(1)?.amounts?.bands.normal.energyWh).toBe(10_000);
  });

  it.each([
    ['0.26 Wh', start + 10_000.26],
    ['exactly the tolerance (1 Wh)', start + 10_001],
  ])(
    'bills a stop up to 1 Wh below the last decimal sample (%s): rounding, not a decrease',
    async (_c, last) => {
      const { service, m, pile, order } = setup();
      await service.handleBatch(decimalSession(pile, 1, [start + 5_000.4, last], start + 10_000), m);
      expect(order(1)).toMatchObject({ payStatus: 0, abnormalReasons: [], energyWh: 10_000 });
      expect(order(1)?.amounts?.totalFen).toBe(1_200);
    },
  );

  it('holds a register that really decreases: more than 1 Wh below the highest reading before it', async () => {
    const { service, m, pile, order } = setup();
    await service.handleBatch(decimalSession(pile, 1, [start + 5_000, start + 10_001.01], start + 10_000), m);
    expect(order(1)).toMatchObject({ payStatus: 3, abnormalReasons: ['meterDecreased'] });
  });

  it("bills a stop whose Transaction.End sample the gateway flagged 'decreasing' for rounding", async () => {
    const { service, m, pile, order } = setup();
    // As the gateway publishes it: periodic 1,010,000.26 Wh, then the stop's transactionData sample of
    // 1,010,000 Wh at the stop's time (below the periodic one: flagged), then the stop.
    const [started, periodic, stop] = decimalSession(pile, 1, [start + 10_000.26], start + 10_000);
    const end = pile.meterValues(60 * MINUTE, {
      transactionId: 1,
      energyWh: start + 10_000,
      context: 'Transaction.End',
      flag: 'decreasing',
    });
    await service.handleBatch([started, periodic, end, stop], m);
    expect(order(1)).toMatchObject({ payStatus: 0, abnormalReasons: [], energyWh: 10_000 });
  });

  it.each<[string, (pile: PileEvents) => EventEnvelope[]]>([
    [
      'a periodic sample stamped 80 ms after the stop, above meterStop',
      (pile) => [pile.meterValues(60 * MINUTE + 0.08, { transactionId: 1, energyWh: start + 10_000.4 })],
    ],
    [
      'a sample after the stop the gateway flagged',
      (pile) => [
        pile.meterValues(60 * MINUTE + 0.08, {
          transactionId: 1,
          energyWh: start + 9_000,
          flag: 'decreasing',
        }),
      ],
    ],
    [
      'an SoC out of range after the stop',
      (pile) => [pile.meterValues(60 * MINUTE + 5, { transactionId: 1, energyWh: start + 10_000, soc: 130 })],
    ],
    [
      'a flagged sample before the start',
      (pile) => [pile.meterValues(-1, { transactionId: 1, energyWh: -5, flag: 'negative' })],
    ],
  ])('a sample outside the session never affects the order: %s', async (_case, outside) => {
    for (const late of [true, false]) {
      const { service, m, pile, order } = setup();
      const [started, middle, stop] = decimalSession(pile, 1, [start + 5_000.5], start + 10_000);
      // In the batch of the stop, before or after it.
      await service.handleBatch(
        late ? [started, middle, stop, ...outside(pile)] : [started, middle, ...outside(pile), stop],
        m,
      );
      expect(order(1)).toMatchObject({ payStatus: 0, abnormalReasons: [], energyWh: 10_000 });
      expect(order(1)?.amounts?.totalFen).toBe(1_200);
    }
  });

  it("holds a sample the gateway flagged as beyond the pile's power", async () => {
    const { service, m, pile, order } = setup();
    const [started, , stop] = decimalSession(pile, 1, [start], start + 10_000);
    const jump = pile.meterValues(30 * MINUTE, { transactionId: 1, energyWh: start + 900_000, flag: 'jump' });
    await service.handleBatch([started, jump, stop], m);
    expect(order(1)).toMatchObject({ payStatus: 3, abnormalReasons: ['meterJump'] });
  });
});

/** Sessions that never end: the gateway closes them by rule; their real stop may come later. */
describe('SettlementService: abandoned sessions', () => {
  const start = 1_000_000;
  const started = (pile: PileEvents, transactionId = 1) =>
    pile.started(0, { transactionId, idTag: 'CARD-1', meterStartWh: start });
  const abandoned = (pile: PileEvents, o: { lastMeterWh?: number; lastSampleAt?: string } = {}) =>
    pile.abandoned(90 * MINUTE, { transactionId: 1, idTag: 'CARD-1', meterStartWh: start, ...o });

  it('settles a lost-stop order held for review, with the energy of the last meter sample, once', async () => {
    const { service, m, pile, order, settled } = setup();
    const sample = pile.meterValues(45 * MINUTE, { transactionId: 1, energyWh: start + 7_500.4 });
    const closed = abandoned(pile, { lastMeterWh: start + 7_500.4, lastSampleAt: pile.at(45 * MINUTE) });
    await service.handleBatch([started(pile), sample, closed], m);
    await service.handleBatch([closed], m); // redelivered
    await service.handleBatch([{ ...closed, eventId: 'copy' }], m); // a copy under a new id
    expect(order(1)).toMatchObject({
      payStatus: 3,
      abnormalReasons: ['stopMissing'],
      energyWh: 7_500,
      abandonRule: 'rebooted',
      stop: expect.objectContaining({ meterStopWh: start + 7_500, timestamp: pile.at(45 * MINUTE) }),
      // What approving it would bill: the plan in force at the start.
      tariff: { planId: 3, stages: FLAT.stages, discount: null },
    });
    expect(settled()).toEqual([
      expect.objectContaining({
        transactionId: 1,
        payStatus: 3,
        totalFen: 0,
        abnormalReasons: ['stopMissing'],
      }),
    ]);
  });

  it('settles a session abandoned without any meter sample with no energy', async () => {
    const { service, m, pile, order } = setup();
    await service.handleBatch([abandoned(pile)], m);
    expect(order(1)).toMatchObject({ payStatus: 3, energyWh: 0, abnormalReasons: ['stopMissing'] });
    expect(order(1)?.stop.timestamp).toBe(pile.at(90 * MINUTE));
  });

  it('completes the same order with the real stop that comes later (a new version), once', async () => {
    const { service, m, pile, order, settled, amended, versions } = setup();
    const closed = abandoned(pile, { lastMeterWh: start + 7_500, lastSampleAt: pile.at(45 * MINUTE) });
    await service.handleBatch([started(pile), closed], m);
    const real = pile.stopped(60 * MINUTE, {
      transactionId: 1,
      meterStartWh: start,
      meterStopWh: start + 10_000,
      reason: 'PowerLoss',
      stopKind: 'abnormal',
      afterAbandon: true,
    });
    await service.handleBatch([real], m);
    await service.handleBatch([{ ...real, eventId: 'copy' }], m);
    expect(settled()).toHaveLength(1);
    expect(order(1)?.abandonRule).toBe('rebooted');
    expect(versions(1)).toEqual([
      expect.objectContaining({
        kind: 'completed',
        state: expect.objectContaining({
          meterStopWh: start + 10_000,
          energyWh: 10_000,
          endReason: 'PowerLoss',
          stoppedAt: pile.at(60 * MINUTE),
          // Nothing else is wrong with the session: billed as settlement would have.
          payStatus: 0,
          abnormalReasons: [],
          amounts: expect.objectContaining({ totalFen: 1_200 }),
        }),
      }),
    ]);
    expect(amended()).toEqual([
      expect.objectContaining({
        version: 2,
        kind: 'completed',
        amendedBy: 'system',
        figures: expect.objectContaining({ energyWh: 10_000, totalFen: 1_200, payStatus: 0 }),
        difference: expect.objectContaining({ energyWh: 2_500, totalFen: 1_200 }),
      }),
    ]);
  });

  it('completes it in the same batch too, and a plain stop (no afterAbandon flag) counts as the real one', async () => {
    const { service, m, pile, order, settled, versions } = setup();
    const real = pile.stopped(60 * MINUTE, {
      transactionId: 1,
      meterStartWh: start,
      meterStopWh: start + 10_000,
    });
    await service.handleBatch([started(pile), abandoned(pile), real], m);
    expect(settled()).toHaveLength(1);
    expect(order(1)?.abnormalReasons).toEqual(['stopMissing']);
    expect(versions(1).map((v) => v.state.payStatus)).toEqual([0]);
  });

  it('leaves an order settled from its real stop as it is when an abandonment comes after it', async () => {
    const { service, m, pile, order, settled, versions } = setup();
    const real = pile.stopped(60 * MINUTE, {
      transactionId: 1,
      meterStartWh: start,
      meterStopWh: start + 10_000,
    });
    await service.handleBatch([started(pile), real], m);
    await service.handleBatch([abandoned(pile)], m);
    expect(settled()).toHaveLength(1);
    expect(order(1)).toMatchObject({ payStatus: 0, abnormalReasons: [] });
    expect(versions(1)).toEqual([]);
  });
});

/** A pile sending StopTransaction twice for one transaction. */
describe('SettlementService: repeated stops', () => {
  const start = 1_000_000;
  const first = (pile: PileEvents) => [
    pile.started(0, { transactionId: 1, idTag: 'CARD-1', meterStartWh: start }),
    pile.stopped(60 * MINUTE, { transactionId: 1, meterStartWh: start, meterStopWh: start + 10_000 }),
  ];
  const repeat = (pile: PileEvents, meterStopWh = start + 10_072) =>
    pile.stopRepeated(61 * MINUTE, {
      transactionId: 1,
      meterStopWh,
      firstMeterStopWh: start + 10_000,
      firstSeconds: 60 * MINUTE,
    });

  it.each([
    ['after the first stop was settled', (f: EventEnvelope[], r: EventEnvelope) => [f, [r]]],
    ['in the batch of the first stop', (f: EventEnvelope[], r: EventEnvelope) => [[...f, r]]],
    [
      'before the first stop was settled (its start came late)',
      (f: EventEnvelope[], r: EventEnvelope) => [[f[1]], [r], [f[0]]],
    ],
  ])('keeps the one order billed on the first stop and flags it for review %s', async (_c, batches) => {
    const { service, m, pile, order, settled, repository } = setup();
    const again = repeat(pile);
    for (const batch of batches(first(pile), again)) await service.handleBatch(batch, m);
    await service.handleBatch([again, { ...again, eventId: 'copy' }], m); // redelivered, copied
    expect(order(1)).toMatchObject({
      payStatus: 0,
      energyWh: 10_000,
      amounts: expect.objectContaining({ totalFen: 1_200 }),
      abnormalReasons: ['repeatedStop'],
    });
    expect(settled()).toHaveLength(1);
    expect(repository.repeats).toEqual([
      expect.objectContaining({ meterStopWh: start + 10_072, disagrees: true }),
    ]);
  });

  it('records a repeat that agrees with the first stop without flagging the order', async () => {
    const { service, m, pile, order, repository } = setup();
    await service.handleBatch([...first(pile), repeat(pile, start + 10_000)], m);
    expect(order(1)?.abnormalReasons).toEqual([]);
    expect(repository.repeats).toHaveLength(1);
  });
});
