import { PileEvents } from '@voltdepot/server-testing';
import {
  OrderSettled,
  type EventEnvelope,
  type OrderSettledV1,
  type TransactionStoppedV1,
} from '@voltdepot/shared-events';
import type { EntityManager } from 'typeorm';
import type { Discount } from '../pricing/discount';
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
import { DEFAULT_SETTLEMENT_OPTIONS, SettlementService, type SettlementStore } from './settlement.service';

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
class FakeSettlement implements SettlementStore {
  readonly sessions = new Map<string, BillingSessionRow>();
  readonly readings: TransactionReading[] = [];
  readonly parked = new Map<string, TransactionStoppedV1>();
  readonly orders = new Map<string, OrderRecord>();
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
        const input = {
          session,
          settled: this.orders.has(key),
          readings,
          plan: this.plan && { id: 3, version: 'v1' },
          discount: this.discount,
          card: this.cards.get(tag),
          vehicle: this.vehicles.get(tag),
          pileStartMode: this.pileStartMode,
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
}

const CP = 'CP-1';
const T0 = Date.parse('2026-11-20T07:00:00+08:00');
const MINUTE = 60;

function setup() {
  const repository = new FakeSettlement();
  const service = new SettlementService(repository, {
    ...DEFAULT_SETTLEMENT_OPTIONS,
    maxSessionEnergyWh: 500_000,
  });
  // The outbox insert goes through the manager: the fake keeps the events it was given.
  const outbox: EventEnvelope[] = [];
  const m = {
    query: async (_sql: string, [json]: [string]) => outbox.push(...(JSON.parse(json) as EventEnvelope[])),
  } as unknown as EntityManager;
  const pile = new PileEvents(CP, T0);
  const order = (transactionId: number) =>
    repository.orders.get(sessionKey({ chargePointId: CP, transactionId }));
  const settled = () => outbox.filter((e) => OrderSettled.is(e)).map((e) => e.payload as OrderSettledV1);
  return { repository, service, m, pile, order, settled };
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
      price: expect.objectContaining({ electricityFen: 1_000, serviceFen: 200, totalFen: 1_200 }),
      startMode: 2,
      startSoc: 30,
      endSoc: 80,
    });
    expect(settled()).toEqual([expect.objectContaining({ transactionId: 1, totalFen: 1_200, payStatus: 0 })]);
  });

  it("applies the card's discount", async () => {
    const { service, m, pile, order, repository } = setup();
    repository.discount = { planId: 8, pricePercent: 90, servicePercent: 50 };
    const s = session(pile, 1);
    await service.handleBatch([s.start, ...s.meter, s.stop], m);
    expect(order(1)?.discounted).toMatchObject({ planId: 8, totalFen: 1_000 });
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
      abnormalReasons: [expect.stringMatching(/^lost record: unknown transaction/)],
    });
    expect(settled()).toEqual([expect.objectContaining({ totalFen: 0, payStatus: 3 })]);
  });

  it('holds the stops the sweep takes (their start never came) as lost records', async () => {
    const { service, m, pile, order } = setup();
    await service.handleBatch([session(pile, 6).stop], m);
    await expect(service.sweepLostStops(m)).resolves.toBe(1);
    expect(order(6)?.abnormalReasons).toEqual([
      'lost record: the start of the transaction did not arrive within 10 minutes of its stop',
    ]);
  });

  const bus: MatchedVehicle = {
    id: 1,
    plate: '闽A12345',
    vin: 'LVD00000000000001',
    batteryCapacityWh: 100_000,
  };
  it.each<[string, (r: FakeSettlement) => void, Parameters<typeof session>[2], RegExp]>([
    [
      'a register that runs backwards',
      () => {},
      { middleWh: -500 },
      /^meter data error: meter register decreased/,
    ],
    ['a sample the pile flagged', () => {}, { flagged: true }, /^meter data error: implausible meter values/],
    [
      "more than 120 % of the matched bus's battery",
      (r) => r.vehicles.set('CARD-1', bus),
      { energyWh: 121_000 },
      /^electricity not matching meter: energy beyond battery capacity \(121000 Wh > 120 % of 闽A12345/,
    ],
    [
      'more than any battery holds when no capacity is known',
      () => {},
      { energyWh: 500_002 },
      /^electricity not matching meter: .*no battery capacity known/,
    ],
    [
      'a driver card bound to no bus',
      (r) => r.cards.set('CARD-1', { type: 0, vehicleId: null }),
      {},
      /^vehicle match failure: driver card CARD-1 is bound to no vehicle/,
    ],
    [
      'a VIN no bus has',
      () => {},
      { idTag: 'LZZ1234567890ABCD' },
      /^vehicle match failure: no vehicle has the VIN/,
    ],
    ['an SoC above 100', () => {}, { socs: [30, 130] }, /^SOC abnormal: SoC out of range 0-100/],
    [
      'a start SoC above the end SoC',
      () => {},
      { socs: [80, 40] },
      /^start and end SOC error: start SoC 80 % is above end SoC 40 %/,
    ],
    ['no price plan in force', (r) => (r.plan = undefined), {}, /^no price plan in force/],
  ])('holds a session with %s for review, unbilled', async (_case, given, spec, reason) => {
    const { service, m, pile, order, repository } = setup();
    given(repository);
    const s = session(pile, 1, spec);
    await service.handleBatch([s.start, ...s.meter, s.stop], m);
    expect(order(1)).toMatchObject({ payStatus: 3, price: undefined });
    expect(order(1)?.abnormalReasons).toEqual([expect.stringMatching(reason)]);
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
