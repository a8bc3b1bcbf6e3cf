import type { EntityManager } from 'typeorm';
import { ConnectorStatusChanged, TransactionStopped, type EventEnvelope } from '@voltdepot/shared-events';
import { orderNumber } from '../settlement/order-number';
import { occupationFee } from './occupation-fee';
import {
  OccupationRepository,
  type OccupationOrderRecord,
  type OccupationRelease,
  type OccupationStop,
  type PileFeeSettings,
  type ReleasedStop,
  type StopOutcome,
} from './occupation.repository';

export const OCCUPATION_GROUP = 'billing.occupation';

/**
 * OCPP 1.6 connector statuses that end the occupation after a stop: the gun was put back (Available),
 * or the next session on it began (Preparing, Charging, SuspendedEV, SuspendedEVSE) or it was reserved.
 * Finishing, Faulted and Unavailable do not: the vehicle may still stand there.
 */
export const RELEASE_STATUSES = new Set([
  'Available',
  'Preparing',
  'Charging',
  'SuspendedEV',
  'SuspendedEVSE',
  'Reserved',
]);

/** A stop with this reason was caused by unplugging the vehicle: the gun was released at the stop. */
export const UNPLUGGED_REASON = 'EVDisconnected';

/**
 * A gun whose last status before its stop is Available, reported at most this long before the stop's
 * timestamp, was put back before the pile stamped the stop (Charging -> Available without Finishing, the
 * StatusNotification sent just before the StopTransaction): it is free from the stop on.
 */
export const AVAILABLE_BEFORE_STOP_MS = 60_000;

/** When the occupation after a stop ended, if it is known yet. */
export function occupationEnd(stop: ReleasedStop): Date | null {
  if (stop.reason === UNPLUGGED_REASON) return stop.stoppedAt;
  const before = stop.releasedBefore;
  if (
    before?.status === 'Available' &&
    stop.stoppedAt.getTime() - before.at.getTime() <= AVAILABLE_BEFORE_STOP_MS
  )
    return stop.stoppedAt;
  return stop.releasedAt;
}

export type OccupationOptions = {
  /** Business time zone, for the linked charging order's number (as settlement derives it). */
  timeZone: string;
  /** How long releases are kept for stops that arrive late (ms). */
  releaseRetentionMs: number;
};

export const DEFAULT_OCCUPATION_OPTIONS: OccupationOptions = {
  timeZone: 'Asia/Shanghai',
  releaseRetentionMs: 30 * 24 * 3600_000,
};

/** `OC` + local stop date + pile hash + transaction id: derived from the business key, like order numbers. */
export function occupationOrderNumber(
  chargePointId: string,
  transactionId: number,
  stoppedAt: Date,
  timeZone: string,
): string {
  return `OC${orderNumber(chargePointId, transactionId, stoppedAt, timeZone).slice(2)}`;
}

/**
 * Occupation fee orders from the gateway's stops and connector statuses. After a stop at a station that
 * charges occupation fees the gun counts as occupied until the first releasing status of its connector
 * at or after the stop time (or from the stop on, when it reported Available just before it: see
 * AVAILABLE_BEFORE_STOP_MS) (by the pile's timestamps, so it does not matter which of the two topics is
 * handled first); then the station's fee settings price the occupation and, if it costs anything, one
 * order is created for the transaction, linked to its charging order. Stops that cannot cost anything
 * (no station, fees off, unplugged) are closed at once. Every write is idempotent by key (stop, release, order per transaction,
 * a stop resolved once), so redelivered and replayed events change nothing.
 *
 * Statuses of one pile arrive in the order the pile sent them (the bus keeps per-key order), so when a
 * status is handled every earlier one of the pile has been recorded: the first release after a stop is
 * final once seen.
 */
/** What the service asks of the repository (its unit test fakes exactly this). */
export type OccupationStore = Pick<
  OccupationRepository,
  | 'feeSettingsOf'
  | 'recordClosedStops'
  | 'lockChargePoints'
  | 'recordStops'
  | 'recordReleases'
  | 'openStops'
  | 'insertOrders'
  | 'resolveStops'
  | 'pruneReleases'
>;

export class OccupationService {
  private lastPrune = 0;

  constructor(
    private readonly repository: OccupationStore = new OccupationRepository(),
    private readonly options: OccupationOptions = DEFAULT_OCCUPATION_OPTIONS,
  ) {}

  /** Whether the event can start or end an occupation (a stop, or a releasing status of a gun). */
  concerns(envelope: EventEnvelope): boolean {
    return (
      TransactionStopped.is(envelope) ||
      (ConnectorStatusChanged.is(envelope) &&
        RELEASE_STATUSES.has(envelope.payload.status) &&
        envelope.payload.connectorId !== 0)
    );
  }

  async handleBatch(envelopes: EventEnvelope[], m: EntityManager): Promise<void> {
    const stops: OccupationStop[] = [];
    /** Real stops of sessions the gateway had closed by rule: the pile was away, nothing occupied the gun. */
    const afterAbandon = new Set<OccupationStop>();
    const releases: OccupationRelease[] = [];
    for (const envelope of envelopes) {
      if (TransactionStopped.is(envelope)) {
        const p = envelope.payload;
        const stop: OccupationStop = {
          chargePointId: p.chargePointId,
          transactionId: p.transactionId,
          connectorId: p.connectorId,
          stoppedAt: new Date(p.timestamp),
          reason: p.reason,
        };
        stops.push(stop);
        if (p.afterAbandon) afterAbandon.add(stop);
      } else if (ConnectorStatusChanged.is(envelope) && RELEASE_STATUSES.has(envelope.payload.status)) {
        const p = envelope.payload;
        if (p.connectorId === 0) continue; // the pile as a whole, not a gun
        releases.push({
          chargePointId: p.chargePointId,
          connectorId: p.connectorId,
          at: new Date(p.timestamp),
          status: p.status,
        });
      }
    }
    if (!stops.length && !releases.length) return;
    const settings = await this.repository.feeSettingsOf(
      m,
      [...stops, ...releases].map((c) => c.chargePointId),
    );
    // A stop that can cost nothing is closed at once (the common case: most stations charge no
    // occupation fee); only stops at stations that charge, and their guns' releases, are tracked.
    const closed: { stop: OccupationStop; releasedAt: Date | null; outcome: StopOutcome }[] = [];
    const open: OccupationStop[] = [];
    for (const stop of stops) {
      const fees = settings.get(stop.chargePointId);
      if (!fees) closed.push({ stop, releasedAt: null, outcome: 'noStation' });
      else if (!fees.enabled) closed.push({ stop, releasedAt: null, outcome: 'disabled' });
      // Unplugged, or the stop of a session the pile abandoned (it comes when the pile is back: the time
      // since its stamp was the pile's outage, not a bus blocking the gun): the gun was free at the stop.
      else if (stop.reason === UNPLUGGED_REASON || afterAbandon.has(stop))
        closed.push({ stop, releasedAt: stop.stoppedAt, outcome: 'free' });
      else open.push(stop);
    }
    await this.repository.recordClosedStops(m, closed);
    const tracked = releases.filter((r) => settings.get(r.chargePointId)?.enabled);
    if (open.length || tracked.length) {
      const connectors = [...open, ...tracked];
      await this.repository.lockChargePoints(
        m,
        connectors.map((c) => c.chargePointId),
      );
      await this.repository.recordStops(m, open);
      await this.repository.recordReleases(m, tracked);
      await this.resolve(m, connectors, settings);
    }
    await this.prune(m);
  }

  /** Price and close every open stop of these connectors whose occupation is known to have ended. */
  private async resolve(
    m: EntityManager,
    connectors: { chargePointId: string; connectorId: number }[],
    settings: Map<string, PileFeeSettings>,
  ): Promise<void> {
    const ended: { stop: OccupationStop; releasedAt: Date }[] = [];
    for (const open of await this.repository.openStops(m, connectors)) {
      const end = occupationEnd(open);
      const { releasedAt: _after, releasedBefore: _before, ...stop } = open;
      if (end) ended.push({ stop, releasedAt: end });
    }
    if (!ended.length) return;
    const orders: OccupationOrderRecord[] = [];
    const resolved: { stop: OccupationStop; releasedAt: Date; outcome: StopOutcome }[] = [];
    for (const { stop, releasedAt } of ended) {
      const fees = settings.get(stop.chargePointId);
      let outcome: StopOutcome;
      if (!fees) outcome = 'noStation';
      else if (!fees.enabled) outcome = 'disabled';
      else {
        const fee = occupationFee(fees, stop.stoppedAt, releasedAt);
        outcome = fee.amountFen > 0 ? 'charged' : 'free';
        if (fee.amountFen > 0)
          orders.push({
            orderNo: occupationOrderNumber(
              stop.chargePointId,
              stop.transactionId,
              stop.stoppedAt,
              this.options.timeZone,
            ),
            chargingOrderNo: orderNumber(
              stop.chargePointId,
              stop.transactionId,
              stop.stoppedAt,
              this.options.timeZone,
            ),
            stop,
            releasedAt,
            settings: fees,
            billableIntervals: fee.billableIntervals,
            amountFen: fee.amountFen,
          });
      }
      resolved.push({ stop, releasedAt, outcome });
    }
    await this.repository.insertOrders(m, orders);
    await this.repository.resolveStops(m, resolved);
  }

  private async prune(m: EntityManager): Promise<void> {
    if (Date.now() - this.lastPrune < 3600_000) return;
    this.lastPrune = Date.now();
    await this.repository.pruneReleases(m, new Date(Date.now() - this.options.releaseRetentionMs));
  }
}
