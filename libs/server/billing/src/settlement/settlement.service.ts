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
   * A session drawing more than this is implausible for any bus battery and is held for review.
   * (Per-vehicle capacity checks come with the vehicle register.)
   */
  maxSessionEnergyWh: number;
};

export const DEFAULT_SETTLEMENT_OPTIONS: SettlementOptions = {
  timeZone: 'Asia/Shanghai',
  maxSessionEnergyWh: 1_000_000,
};

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
export class SettlementService {
  constructor(
    private readonly repository = new SettlementRepository(),
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
   * Build and store the orders; a settled order is never changed. A stop whose start has not arrived
   * yet is parked until it does (a quarantined stop never gets one: it is held as abnormal at once).
   */
  private async settleAll(m: EntityManager, items: StopToSettle[]): Promise<void> {
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
      if (!input.session && !stop.quarantined) {
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

    let meterReadings: MeterReading[] = [];
    if (!session) {
      reasons.push('unknown transaction: stop without a start (quarantined for reconciliation)');
    } else {
      if (stoppedAt < session.startedAt) reasons.push('stop time is before start time');
      if (energySamples.some((r) => r.flag)) reasons.push('implausible meter values reported by the pile');
      meterReadings = sessionMeterReadings(session, energySamples, stoppedAt, stop.meterStopWh);
      if (meterReadings.some((r) => r.energyWh < 0 || !Number.isInteger(r.energyWh)))
        reasons.push('negative or fractional meter value');
      if (meterReadings.some((r, i) => i > 0 && r.energyWh < meterReadings[i - 1].energyWh))
        reasons.push('meter register decreased');
      if (stop.meterStopWh - session.meterStartWh > this.options.maxSessionEnergyWh) {
        reasons.push(`energy beyond battery capacity (> ${this.options.maxSessionEnergyWh} Wh)`);
      }
    }
    if (socs.some((v) => v < 0 || v > 100)) reasons.push('SoC out of range 0-100');

    const energyWh = session ? stop.meterStopWh - session.meterStartWh : 0;
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
      startSoc: socs.length ? Math.round(socs[0]) : undefined,
      endSoc: socs.length ? Math.round(socs[socs.length - 1]) : undefined,
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
