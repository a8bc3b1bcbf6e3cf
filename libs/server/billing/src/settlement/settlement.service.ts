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
import { orderNumber } from './order-number';
import { SettlementRepository, type Reading } from './settlement.repository';

export const SETTLEMENT_GROUP = 'billing.settlement';
export const ENERGY_REGISTER = 'Energy.Active.Import.Register';
export const SOC = 'SoC';

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

/**
 * Turns the gateway's transaction events into charging orders, exactly once per pile transaction.
 * Runs inside the idempotent consumer's transaction, so the read model, the order and the
 * `order.settled` event commit together.
 */
export class SettlementService {
  constructor(
    private readonly repository = new SettlementRepository(),
    private readonly options: SettlementOptions = DEFAULT_SETTLEMENT_OPTIONS,
  ) {}

  async handle(envelope: EventEnvelope, m: EntityManager): Promise<void> {
    if (TransactionStarted.is(envelope)) {
      const p = envelope.payload;
      // A stop that overtook its start is settled now.
      const parked = await this.repository.recordStart(m, {
        chargePointId: p.chargePointId,
        transactionId: p.transactionId,
        connectorId: p.connectorId,
        idTag: p.idTag,
        meterStartWh: p.meterStartWh,
        startedAt: new Date(p.timestamp),
      });
      if (parked) await this.settle(m, parked);
    } else if (MeterValuesReceived.is(envelope)) {
      const p = envelope.payload;
      if (p.transactionId === undefined) return;
      const readings: Reading[] = p.samples
        .filter((s) => s.measurand === ENERGY_REGISTER || s.measurand === SOC)
        .map((s) => ({
          measurand: s.measurand,
          at: new Date(s.timestamp),
          value: s.value,
          flag: s.flag ?? null,
        }));
      await this.repository.recordReadings(m, p.chargePointId, p.transactionId, readings);
    } else if (TransactionStopped.is(envelope)) {
      await this.settle(m, envelope.payload);
    }
  }

  /**
   * Build and store the order; a settled order is never changed. A stop whose start has not arrived
   * yet is parked until it does (a quarantined stop never gets one: it is held as abnormal at once).
   */
  async settle(m: EntityManager, stop: TransactionStoppedV1): Promise<void> {
    const inputs = await this.repository.settlementInputs(
      m,
      stop.chargePointId,
      stop.transactionId,
      undefined,
    );
    if (inputs.settled) return;
    const session = inputs.session;
    if (!session && !stop.quarantined) {
      await this.repository.parkStop(m, stop);
      return;
    }
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
      const within = energySamples.filter((r) => !r.flag && r.at > session!.startedAt && r.at < stoppedAt);
      meterReadings = [
        { at: session.startedAt.getTime(), energyWh: session.meterStartWh },
        ...within.map((r) => ({ at: r.at.getTime(), energyWh: r.value })),
        { at: stoppedAt.getTime(), energyWh: stop.meterStopWh },
      ];
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
    const payable = discounted ?? price;
    const payStatus = reasons.length ? 3 : 0;
    const orderNo = orderNumber(stop.chargePointId, stop.transactionId, stoppedAt, this.options.timeZone);
    const inserted = await this.repository.insertOrder(m, {
      orderNo,
      stop,
      session,
      startSoc: socs.length ? Math.round(socs[0]) : undefined,
      endSoc: socs.length ? Math.round(socs[socs.length - 1]) : undefined,
      price,
      pricePlanId: plan?.id,
      discounted,
      payStatus,
      abnormalReasons: reasons,
      energyWh,
    });
    if (!inserted) return;
    await addToOutbox(
      m,
      createEnvelope(OrderSettled, stop.chargePointId, {
        orderNo,
        chargePointId: stop.chargePointId,
        connectorId: stop.connectorId,
        transactionId: stop.transactionId,
        energyWh,
        totalFen: payable?.totalFen ?? 0,
        payStatus,
        abnormalReasons: reasons,
        stoppedAt: stoppedAt.toISOString(),
      }),
    );
  }
}
