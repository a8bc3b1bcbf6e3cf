import type { EntityManager } from 'typeorm';
import {
  MeterValuesReceived,
  OrderSettled,
  TransactionStarted,
  TransactionStopped,
  type EventEnvelope,
  type TransactionStoppedV1,
} from '@voltdepot/shared-events';
import { addToOutbox, createEnvelope } from '@voltdepot/server-messaging';
import { applyDiscount } from '../pricing/discount';
import { priceSession, type MeterReading } from '../pricing/session-pricing';
import { ENERGY_REGISTER, SOC, sessionMeterReadings } from '../pricing/session-readings';
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

/**
 * The prefix of every held order's reason: the spec's charging-record exception type (business-areas
 * §8). The console shows the type in the user's language; the rest of the sentence is the detail.
 */
export const ABNORMAL_TYPES = {
  lostRecord: 'lost record',
  electricityMismatch: 'electricity not matching meter',
  meterDataError: 'meter data error',
  socOrderError: 'start and end SOC error',
  vehicleMatchFailure: 'vehicle match failure',
  socAbnormal: 'SOC abnormal',
} as const;

/** Stops taken by one sweep transaction at most (the sweep repeats while it finds full batches). */
export const LOST_STOP_BATCH = 200;

/** A stop to settle, with the correlation id its `order.settled` event inherits. */
type StopToSettle = { stop: TransactionStoppedV1; correlationId?: string };

/**
 * Turns the gateway's transaction events into charging orders, exactly once per pile transaction.
 * Runs inside the idempotent consumer's transaction, so the read model, the orders and their
 * `order.settled` events commit together with the processed-event marks.
 *
 * A batch is handled set-wise, in a fixed number of statements whatever its size: all its starts (which
 * also release stops parked before them), then all its readings, then all its stops (one read of their
 * inputs, one insert of the orders, one insert of the events). A stop is therefore settled with every
 * reading of its transaction received up to the end of its batch, and a stop that precedes its start
 * in the same batch is settled at once. Of several copies of one start or stop, the first counts.
 */
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
>;

export class SettlementService {
  constructor(
    private readonly repository: SettlementStore = new SettlementRepository(),
    private readonly options: SettlementOptions = DEFAULT_SETTLEMENT_OPTIONS,
  ) {}

  async handle(envelope: EventEnvelope, m: EntityManager): Promise<void> {
    await this.handleBatch([envelope], m);
  }

  async handleBatch(envelopes: EventEnvelope[], m: EntityManager): Promise<void> {
    const starts = new Map<string, BillingSessionRow>();
    const readings: TransactionReading[] = [];
    const stops = new Map<string, StopToSettle>();
    for (const envelope of envelopes) {
      if (TransactionStarted.is(envelope)) {
        const p = envelope.payload;
        const key = sessionKey(p);
        if (!starts.has(key))
          starts.set(key, {
            chargePointId: p.chargePointId,
            transactionId: p.transactionId,
            connectorId: p.connectorId,
            idTag: p.idTag,
            meterStartWh: p.meterStartWh,
            startedAt: new Date(p.timestamp),
            reservationId: p.reservationId,
          });
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
      }
    }
    // Stops that overtook their starts in earlier batches came first, so they win over copies here.
    const parked = await this.repository.recordStarts(m, [...starts.values()]);
    const toSettle = new Map<string, StopToSettle>(parked.map((stop) => [sessionKey(stop), { stop }]));
    for (const [key, item] of stops) if (!toSettle.has(key)) toSettle.set(key, item);
    await this.repository.recordReadings(m, readings);
    await this.settleAll(m, [...toSettle.values()]);
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
   * Build and store the orders; a settled order is never changed. A stop whose start has not arrived
   * yet is parked until it does (a quarantined stop never gets one: it is held as abnormal at once), or,
   * when `lost` (the sweep), held as a lost record.
   */
  private async settleAll(m: EntityManager, items: StopToSettle[], lost = false): Promise<void> {
    if (!items.length) return;
    const inputs = await this.repository.settlementInputsOf(
      m,
      items.map(({ stop }) => stop),
    );
    const orders: { order: OrderRecord; correlationId?: string }[] = [];
    const toPark: TransactionStoppedV1[] = [];
    for (const { stop, correlationId } of items) {
      const input = inputs.get(sessionKey(stop))!;
      if (input.settled) continue;
      if (!input.session && !stop.quarantined && !lost) {
        toPark.push(stop);
        continue;
      }
      orders.push({ order: await this.buildOrder(m, stop, input), correlationId });
    }
    await this.repository.parkStops(m, toPark);
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
              totalFen: (order.discounted ?? order.price)?.totalFen ?? 0,
              payStatus: order.payStatus,
              abnormalReasons: order.abnormalReasons,
              stoppedAt: new Date(order.stop.timestamp).toISOString(),
            },
            correlationId ? { correlationId } : {},
          ),
        ),
    );
  }

  /** The order of a stop from its inputs: priced, discounted, or held as abnormal with the reasons. */
  private async buildOrder(
    m: EntityManager,
    stop: TransactionStoppedV1,
    inputs: SettlementInputs,
  ): Promise<OrderRecord> {
    const session = inputs.session;
    const reasons: string[] = [];
    const stoppedAt = new Date(stop.timestamp);
    const readings = session ? inputs.readings : [];
    const socs = readings.filter((r) => r.measurand === SOC).map((r) => r.value);
    const energySamples = readings.filter((r) => r.measurand === ENERGY_REGISTER);

    const T = ABNORMAL_TYPES;
    let meterReadings: MeterReading[] = [];
    const energyWh = session ? stop.meterStopWh - session.meterStartWh : 0;
    if (!session) {
      reasons.push(
        stop.quarantined
          ? `${T.lostRecord}: unknown transaction, a stop without a start (quarantined for reconciliation)`
          : `${T.lostRecord}: the start of the transaction did not arrive within ${this.options.lostStopMinutes} minutes of its stop`,
      );
    } else {
      if (stoppedAt < session.startedAt) reasons.push(`${T.meterDataError}: stop time is before start time`);
      if (energySamples.some((r) => r.flag))
        reasons.push(`${T.meterDataError}: implausible meter values reported by the pile`);
      meterReadings = sessionMeterReadings(session, energySamples, stoppedAt, stop.meterStopWh);
      if (meterReadings.some((r) => r.energyWh < 0 || !Number.isInteger(r.energyWh)))
        reasons.push(`${T.meterDataError}: negative or fractional meter value`);
      if (meterReadings.some((r, i) => i > 0 && r.energyWh < meterReadings[i - 1].energyWh))
        reasons.push(`${T.meterDataError}: meter register decreased`);
      const capacityWh = inputs.vehicle?.batteryCapacityWh ?? null;
      if (capacityWh !== null) {
        // energy > capacity x 1.2, in integers.
        if (energyWh * 100 > capacityWh * (100 + CAPACITY_TOLERANCE_PERCENT))
          reasons.push(
            `${T.electricityMismatch}: energy beyond battery capacity (${energyWh} Wh > ${100 + CAPACITY_TOLERANCE_PERCENT} % of ${inputs.vehicle!.plate}'s ${capacityWh} Wh)`,
          );
      } else if (energyWh > this.options.maxSessionEnergyWh) {
        reasons.push(
          `${T.electricityMismatch}: energy beyond battery capacity (${energyWh} Wh > ${this.options.maxSessionEnergyWh} Wh, no battery capacity known)`,
        );
      }
    }
    const vehicleProblem = vehicleMatchProblem(session?.idTag ?? stop.idTag, inputs);
    if (vehicleProblem) reasons.push(`${T.vehicleMatchFailure}: ${vehicleProblem}`);
    if (socs.some((v) => v < 0 || v > 100)) reasons.push(`${T.socAbnormal}: SoC out of range 0-100`);
    const startSoc = socs.length ? Math.round(socs[0]) : undefined;
    const endSoc = socs.length ? Math.round(socs[socs.length - 1]) : undefined;
    const inRange = (v: number | undefined): v is number => v !== undefined && v >= 0 && v <= 100;
    if (inRange(startSoc) && inRange(endSoc) && startSoc > endSoc)
      reasons.push(`${T.socOrderError}: start SoC ${startSoc} % is above end SoC ${endSoc} %`);

    const stages = session && inputs.plan ? await this.repository.planStages(m, inputs.plan) : undefined;
    const plan = stages && inputs.plan ? { id: inputs.plan.id, plan: stages } : undefined;
    if (session && !plan) reasons.push('no price plan in force for the session');
    const price =
      reasons.length === 0 && plan
        ? priceSession(plan.plan, meterReadings, this.options.timeZone)
        : undefined;
    const discounted =
      price && session && inputs.discount
        ? { ...applyDiscount(price, inputs.discount), planId: inputs.discount.planId }
        : undefined;
    return {
      orderNo: orderNumber(stop.chargePointId, stop.transactionId, stoppedAt, this.options.timeZone),
      stop,
      session,
      vehicle: inputs.vehicle,
      startMode: inputs.pileStartMode ?? 0,
      startSoc,
      endSoc,
      price,
      pricePlanId: plan?.id,
      discounted,
      payStatus: reasons.length ? 3 : 0,
      abnormalReasons: reasons,
      energyWh,
      ...(reasons.length && plan
        ? { tariff: { planId: plan.id, stages: plan.plan.stages, discount: inputs.discount ?? null } }
        : {}),
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
