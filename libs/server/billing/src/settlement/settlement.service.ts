import type { EntityManager } from 'typeorm';
import type { AbnormalReasonCode } from '@voltdepot/shared-contracts';
import {
  MeterValuesReceived,
  OrderSettled,
  TransactionAbandoned,
  TransactionStarted,
  TransactionStopped,
  TransactionStopRepeated,
  type EventEnvelope,
  type TransactionAbandonedV1,
  type TransactionStopRepeatedV1,
  type TransactionStoppedV1,
} from '@voltdepot/shared-events';
import { addToOutbox, createEnvelope } from '@voltdepot/server-messaging';
import { OrderVersionRepository } from '../order-review/order-version.repository';
import { OrderVersionWriter } from '../order-review/order-version.writer';
import { billedAmounts, NOTHING_BILLED } from '../pricing/order-amounts';
import {
  billableReadings,
  ENERGY_REGISTER,
  meterAnomalies,
  SOC,
  sessionSoc,
  type SessionBounds,
} from '../pricing/session-readings';
import { orderNumber } from './order-number';
import {
  SettlementRepository,
  sessionKey,
  type BillingSessionRow,
  type OrderRecord,
  type SettlementInputs,
  type TransactionReading,
} from './settlement.repository';

export const SETTLEMENT_GROUP = 'billing.settlement';
export { ENERGY_REGISTER, SOC } from '../pricing/session-readings';

export type SettlementOptions = {
  /** Business time zone of the price stages. */
  timeZone: string;
  /**
   * A session without a known battery capacity (no matched bus, or a bus without one) drawing more than
   * this is implausible for any bus battery and is held for review.
   */
  maxSessionEnergyWh: number;
  /** A parked stop whose start has not arrived after this many minutes becomes a "lost record" order. */
  lostStopMinutes: number;
};

export const DEFAULT_SETTLEMENT_OPTIONS: SettlementOptions = {
  timeZone: 'Asia/Shanghai',
  maxSessionEnergyWh: 1_000_000,
  lostStopMinutes: 10,
};

/** A matched bus may take at most its battery capacity plus this share (spec: "by 20", read as 20 %). */
export const CAPACITY_TOLERANCE_PERCENT = 20;

/** Spec card type 0: a driver's card, issued for a bus, so its sessions must name one. */
export const DRIVER_CARD_TYPE = 0;

/**
 * A 17-character VIN (ISO 3779: no I, O, Q). Cards' physical numbers have at most 16 characters, so an
 * idTag of this shape can only be a pile identifying the bus by its VIN.
 */
const VIN_SHAPE = /^[A-HJ-NPR-Z0-9]{17}$/;

/** Reasons that flag a billed order for review without holding it. */
const FLAGS_ONLY: ReadonlySet<AbnormalReasonCode> = new Set(['repeatedStop']);

/** The end reason of a lost-stop order: the pile gave none (the rule is kept in `abandon_rule`). */
export const ABANDONED_END_REASON = 'Other';

/** Stops taken by one sweep transaction at most (the sweep repeats while it finds full batches). */
export const LOST_STOP_BATCH = 200;

/** A stop to settle, with the correlation id its `order.settled` event inherits. */
type StopToSettle = { stop: TransactionStoppedV1; correlationId?: string };
type AbandonToSettle = { abandoned: TransactionAbandonedV1; correlationId?: string };

/** What the service asks of the repository (its unit test fakes exactly this). */
export type SettlementStore = Pick<
  SettlementRepository,
  | 'recordStarts'
  | 'recordReadings'
  | 'settlementInputsOf'
  | 'planStages'
  | 'parkStops'
  | 'takeLostStops'
  | 'insertOrders'
  | 'recordRepeatStops'
>;

/** What completing a lost stop asks of the order versions. */
export type SettlementVersionStore = Pick<OrderVersionRepository, 'lock' | 'saveVersion'>;

/** The session a start (or an abandonment, which repeats its start) records. */
function sessionOf(
  p: Pick<BillingSessionRow, 'chargePointId' | 'transactionId' | 'connectorId' | 'idTag' | 'meterStartWh'>,
  startedAt: string,
  reservationId?: number,
): BillingSessionRow {
  const { chargePointId, transactionId, connectorId, idTag, meterStartWh } = p;
  return {
    chargePointId,
    transactionId,
    connectorId,
    idTag,
    meterStartWh,
    startedAt: new Date(startedAt),
    reservationId,
  };
}

/**
 * The stop a session the gateway abandoned is settled with: the last meter sample of the session as its
 * register (rounded half up to the Wh) at that sample's time; without a sample, no energy at the close.
 */
export function lostStopOf(a: TransactionAbandonedV1): TransactionStoppedV1 {
  const sampled = a.lastMeterWh !== undefined && a.lastSampleAt !== undefined;
  const meterStopWh = sampled ? Math.round(a.lastMeterWh!) : a.meterStartWh;
  return {
    chargePointId: a.chargePointId,
    connectorId: a.connectorId,
    transactionId: a.transactionId,
    idTag: a.idTag,
    meterStartWh: a.meterStartWh,
    meterStopWh,
    energyWh: meterStopWh - a.meterStartWh,
    timestamp: sampled ? a.lastSampleAt! : a.closedAt,
    reason: ABANDONED_END_REASON,
    stopKind: 'abnormal',
    quarantined: false,
  };
}

/**
 * Turns the gateway's transaction events into charging orders, exactly once per pile transaction.
 * Runs inside the idempotent consumer's transaction, so the read model, the orders and their
 * `order.settled` (and `order.amended`) events commit together with the processed-event marks.
 *
 * A batch is handled set-wise, in a fixed number of statements whatever its size: all its starts (which
 * also release stops parked before them), then all its readings, then all its stops (one read of their
 * inputs, one insert of the orders, one insert of the events). A stop is therefore settled with every
 * reading of its transaction received up to the end of its batch, and a stop that precedes its start
 * in the same batch is settled at once. Of several copies of one start or stop, the first counts.
 *
 * Sessions the gateway abandoned (their pile never stopped them) become lost-stop orders held for review
 * before the batch's stops are settled, so that the real stop of such a session, whenever it comes,
 * completes that order (a new version) instead of making a second one. Second StopTransactions are
 * recorded last and flag the order for review when they disagree with the billed one.
 */
export class SettlementService {
  private readonly versionWriter: OrderVersionWriter;

  constructor(
    private readonly repository: SettlementStore = new SettlementRepository(),
    private readonly options: SettlementOptions = DEFAULT_SETTLEMENT_OPTIONS,
    private readonly versions: SettlementVersionStore = new OrderVersionRepository(),
  ) {
    this.versionWriter = new OrderVersionWriter(versions);
  }

  async handle(envelope: EventEnvelope, m: EntityManager): Promise<void> {
    await this.handleBatch([envelope], m);
  }

  async handleBatch(envelopes: EventEnvelope[], m: EntityManager): Promise<void> {
    const starts = new Map<string, BillingSessionRow>();
    const readings: TransactionReading[] = [];
    const stops = new Map<string, StopToSettle>();
    const abandons = new Map<string, AbandonToSettle>();
    const repeats: TransactionStopRepeatedV1[] = [];
    const start = (row: BillingSessionRow) => {
      const key = sessionKey(row);
      if (!starts.has(key)) starts.set(key, row);
    };
    for (const envelope of envelopes) {
      if (TransactionStarted.is(envelope)) {
        const p = envelope.payload;
        start(sessionOf(p, p.timestamp, p.reservationId));
      } else if (MeterValuesReceived.is(envelope)) {
        const p = envelope.payload;
        if (p.transactionId === undefined) continue;
        for (const s of p.samples) {
          if (s.measurand !== ENERGY_REGISTER && s.measurand !== SOC) continue;
          readings.push({
            chargePointId: p.chargePointId,
            transactionId: p.transactionId,
            measurand: s.measurand,
            at: new Date(s.timestamp),
            value: s.value,
            flag: s.flag ?? null,
          });
        }
      } else if (TransactionStopped.is(envelope)) {
        const key = sessionKey(envelope.payload);
        if (!stops.has(key))
          stops.set(key, { stop: envelope.payload, correlationId: envelope.correlationId });
      } else if (TransactionAbandoned.is(envelope)) {
        const p = envelope.payload;
        // The abandonment carries the session's start: a session whose start event was lost is known too.
        start(sessionOf(p, p.startedAt));
        const key = sessionKey(p);
        if (!abandons.has(key)) abandons.set(key, { abandoned: p, correlationId: envelope.correlationId });
      } else if (TransactionStopRepeated.is(envelope)) {
        repeats.push(envelope.payload);
      }
    }
    // Stops that overtook their starts in earlier batches came first, so they win over copies here.
    const parked = await this.repository.recordStarts(m, [...starts.values()]);
    const toSettle = new Map<string, StopToSettle>(parked.map((stop) => [sessionKey(stop), { stop }]));
    for (const [key, item] of stops) if (!toSettle.has(key)) toSettle.set(key, item);
    await this.repository.recordReadings(m, readings);
    if (abandons.size) await this.settleAbandoned(m, [...abandons.values()]);
    await this.settleAll(m, [...toSettle.values()]);
    await this.repository.recordRepeatStops(m, repeats);
  }

  /**
   * Turn the stops that waited `lostStopMinutes` for their start into orders held as "lost record", at
   * most `LOST_STOP_BATCH` per call; returns how many stops it took. Run it in its own transaction: the
   * stops are taken with FOR UPDATE SKIP LOCKED, so sweeps on several replicas never take the same stop,
   * and a start recorded concurrently either takes its stop first (the sweep skips it) or finds it gone
   * (the order is the held one, and the start changes nothing).
   */
  async sweepLostStops(m: EntityManager): Promise<number> {
    const lost = await this.repository.takeLostStops(m, this.options.lostStopMinutes, LOST_STOP_BATCH);
    await this.settleAll(
      m,
      lost.map((stop) => ({ stop })),
      true,
    );
    return lost.length;
  }

  /**
   * Build and store the orders. A stop whose start has not arrived yet is parked until it does (a
   * quarantined stop never gets one: it is held as abnormal at once), or, when `lost` (the sweep), held as
   * a lost record. A settled order is never settled again: a copy of its stop changes nothing, except the
   * first real stop of a lost-stop order, which completes it.
   */
  private async settleAll(m: EntityManager, items: StopToSettle[], lost = false): Promise<void> {
    if (!items.length) return;
    const inputs = await this.repository.settlementInputsOf(
      m,
      items.map(({ stop }) => stop),
    );
    const orders: { order: OrderRecord; correlationId?: string }[] = [];
    const toPark: TransactionStoppedV1[] = [];
    const completions: StopToSettle[] = [];
    for (const item of items) {
      const { stop, correlationId } = item;
      const input = inputs.get(sessionKey(stop))!;
      if (input.order) {
        if (input.order.abandoned && !input.order.completed) completions.push(item);
        continue;
      }
      if (!input.session && !stop.quarantined && !lost) {
        toPark.push(stop);
        continue;
      }
      orders.push({ order: await this.buildOrder(m, stop, input), correlationId });
    }
    await this.repository.parkStops(m, toPark);
    await this.insertOrders(m, orders);
    for (const item of completions) await this.completeLostStop(m, item, inputs.get(sessionKey(item.stop))!);
  }

  /** Lost-stop orders of abandoned sessions, held for review; a session settled already is left as it is. */
  private async settleAbandoned(m: EntityManager, items: AbandonToSettle[]): Promise<void> {
    const stops = items.map(({ abandoned }) => lostStopOf(abandoned));
    const inputs = await this.repository.settlementInputsOf(m, stops);
    const built: { order: OrderRecord; correlationId?: string }[] = [];
    for (const [i, { abandoned, correlationId }] of items.entries()) {
      const input = inputs.get(sessionKey(abandoned))!;
      if (input.order) continue;
      const order = await this.buildOrder(m, stops[i], input, ['stopMissing']);
      built.push({ order: { ...order, abandonRule: abandoned.rule }, correlationId });
    }
    await this.insertOrders(m, built);
  }

  /** Insert orders (each once) and announce those inserted with `order.settled`. */
  private async insertOrders(
    m: EntityManager,
    orders: { order: OrderRecord; correlationId?: string }[],
  ): Promise<void> {
    const inserted = await this.repository.insertOrders(
      m,
      orders.map((o) => o.order),
    );
    await addToOutbox(
      m,
      orders
        .filter(({ order }) => inserted.has(sessionKey(order.stop)))
        .map(({ order, correlationId }) =>
          createEnvelope(
            OrderSettled,
            order.stop.chargePointId,
            {
              orderNo: order.orderNo,
              chargePointId: order.stop.chargePointId,
              connectorId: order.stop.connectorId,
              transactionId: order.stop.transactionId,
              energyWh: order.energyWh,
              totalFen: order.amounts?.totalFen ?? 0,
              payStatus: order.payStatus,
              abnormalReasons: order.abnormalReasons,
              stoppedAt: new Date(order.stop.timestamp).toISOString(),
              ...idTagOf(order),
            },
            correlationId ? { correlationId } : {},
          ),
        ),
    );
  }

  /**
   * The real StopTransaction of a session settled as a lost stop: the same order gets a new version with
   * this stop. Not reviewed yet, it is settled again as settlement would settle the stop (billed when
   * nothing else is wrong, else held with the reasons found); approved, it stays billed at the completed
   * session's price; rejected, it stays unbilled. Once: the order is completed at most one time.
   */
  private async completeLostStop(
    m: EntityManager,
    item: StopToSettle,
    input: SettlementInputs,
  ): Promise<void> {
    const { stop, correlationId } = item;
    const order = await this.versions.lock(m, stop);
    if (!order || !order.abandonRule) return;
    const built = await this.buildOrder(m, stop, input);
    const decision = order.review?.decision;
    let payStatus = built.payStatus;
    let amounts = built.amounts ?? NOTHING_BILLED;
    let abnormalReasons = built.abnormalReasons;
    if (decision) {
      // The review stands: its reasons are what was reviewed.
      abnormalReasons = order.state.abnormalReasons;
      if (decision === 'reject') {
        payStatus = 3;
        amounts = NOTHING_BILLED;
      } else {
        payStatus = 0;
        amounts = built.amounts ?? this.priceRegardless(stop, input, built) ?? order.state.amounts;
      }
    }
    await this.versionWriter.write(
      m,
      order,
      {
        meterStopWh: stop.meterStopWh,
        stoppedAt: new Date(stop.timestamp).toISOString(),
        endReason: stop.reason,
        stopKind: stop.stopKind,
        energyWh: built.energyWh,
        startSoc: built.startSoc ?? null,
        endSoc: built.endSoc ?? null,
        payStatus,
        abnormalReasons,
        pricePlanId: built.pricePlanId ?? order.state.pricePlanId,
        amounts,
      },
      {
        kind: 'completed',
        reason: `StopTransaction (${stop.reason}) of a session closed by rule ${order.abandonRule}`,
        actorId: null,
        actorName: 'system',
        requestKey: `stop:${new Date(stop.timestamp).toISOString()}:${stop.meterStopWh}`,
      },
      correlationId,
    );
  }

  /** An approved order's amounts for a session with anomalies: billed on its clamped readings. */
  private priceRegardless(stop: TransactionStoppedV1, input: SettlementInputs, built: OrderRecord) {
    const session = input.session;
    if (!session || !built.tariff || stop.meterStopWh < session.meterStartWh) return undefined;
    const bounds = { session, stoppedAt: new Date(stop.timestamp), meterStopWh: stop.meterStopWh };
    if (bounds.stoppedAt < session.startedAt) return undefined;
    return billedAmounts(built.tariff, billableReadings(bounds, input.readings), this.options.timeZone);
  }

  /**
   * The order of a stop from its inputs: billed (priced, discounted), or held as abnormal with the reasons
   * (codes) found; `held` adds reasons found elsewhere (a lost stop). A disagreeing repeated stop only
   * flags the order.
   */
  private async buildOrder(
    m: EntityManager,
    stop: TransactionStoppedV1,
    inputs: SettlementInputs,
    held: AbnormalReasonCode[] = [],
  ): Promise<OrderRecord> {
    const session = inputs.session;
    const reasons: AbnormalReasonCode[] = [...held];
    const stoppedAt = new Date(stop.timestamp);
    const energyWh = session ? stop.meterStopWh - session.meterStartWh : 0;
    const bounds: SessionBounds | undefined = session
      ? { session, stoppedAt, meterStopWh: stop.meterStopWh }
      : undefined;
    let soc: ReturnType<typeof sessionSoc> = { outOfRange: false };
    if (!bounds) {
      reasons.push(stop.quarantined ? 'unknownTransaction' : 'startMissing');
    } else {
      reasons.push(...meterAnomalies(bounds, inputs.readings));
      const capacityWh = inputs.vehicle?.batteryCapacityWh ?? null;
      // energy > capacity x 1.2, in integers; without a capacity, more than any bus battery holds.
      if (
        capacityWh !== null
          ? energyWh * 100 > capacityWh * (100 + CAPACITY_TOLERANCE_PERCENT)
          : energyWh > this.options.maxSessionEnergyWh
      )
        reasons.push('beyondCapacity');
      soc = sessionSoc(bounds, inputs.readings);
      if (soc.outOfRange) reasons.push('socOutOfRange');
      const inRange = (v: number | undefined): v is number => v !== undefined && v >= 0 && v <= 100;
      if (inRange(soc.startSoc) && inRange(soc.endSoc) && soc.startSoc > soc.endSoc)
        reasons.push('socFalling');
    }
    if (vehicleMatchProblem(session?.idTag ?? stop.idTag, inputs)) reasons.push('noVehicle');

    const stages = session && inputs.plan ? await this.repository.planStages(m, inputs.plan) : undefined;
    const tariff =
      stages && inputs.plan
        ? { planId: inputs.plan.id, stages: stages.stages, discount: inputs.discount ?? null }
        : undefined;
    if (session && !tariff) reasons.push('noPricePlan');
    const holds = reasons.filter((r) => !FLAGS_ONLY.has(r));
    if (inputs.repeated) reasons.push('repeatedStop');
    const amounts =
      holds.length === 0 && tariff && bounds
        ? billedAmounts(tariff, billableReadings(bounds, inputs.readings), this.options.timeZone)
        : undefined;
    return {
      orderNo: orderNumber(stop.chargePointId, stop.transactionId, stoppedAt, this.options.timeZone),
      stop,
      session,
      vehicle: inputs.vehicle,
      startMode: inputs.pileStartMode ?? 0,
      startSoc: soc.startSoc,
      endSoc: soc.endSoc,
      amounts,
      pricePlanId: tariff?.planId,
      payStatus: holds.length ? 3 : 0,
      abnormalReasons: reasons,
      energyWh,
      tariff,
    };
  }
}

/**
 * Why a session that should name a bus names none, or undefined. A plain card without a bus is fine;
 * only these must match one:
 * - a driver card (card type 0): issued for a bus, so a driver card bound to no bus whose idTag is no
 *   bus's VIN or plate cannot be attributed;
 * - an idTag shaped like a VIN that is no card: the pile identified the bus, and the register knows no
 *   such bus.
 */
export function vehicleMatchProblem(
  idTag: string | undefined,
  inputs: Pick<SettlementInputs, 'card' | 'vehicle'>,
): string | undefined {
  if (inputs.vehicle || !idTag) return undefined;
  if (inputs.card?.type === DRIVER_CARD_TYPE)
    return `driver card ${idTag} is bound to no vehicle and no vehicle has it as VIN or plate`;
  if (!inputs.card && VIN_SHAPE.test(idTag)) return `no vehicle has the VIN ${idTag}`;
  return undefined;
}

/** The order's idTag for its `order.settled` event (the session's, else the stop's), when it has one. */
function idTagOf(order: OrderRecord): { idTag?: string } {
  const idTag = order.session?.idTag ?? order.stop.idTag;
  return idTag ? { idTag } : {};
}
