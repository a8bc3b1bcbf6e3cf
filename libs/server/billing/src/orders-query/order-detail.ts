import type { OrderLogEntry } from './dto/order-query.dto';
import { ENERGY_REGISTER, SOC, sessionMeterReadings } from '../pricing/session-readings';

export type SessionStart = { idTag: string; meterStartWh: number; startedAt: Date };
export type StoredReading = { measurand: string; at: Date; value: number; flag: string | null };

/**
 * The detail page's charts from the stored meter samples: session energy (Wh since the start) at each
 * reading, the average power over each interval between two readings (W, at the interval's end), and
 * the state of charge.
 */
export function orderSeries(
  session: SessionStart | undefined,
  readings: StoredReading[],
  stoppedAt: Date,
  meterStopWh: number,
): {
  energySeries: { at: string; energyWh: number }[];
  powerSeries: { at: string; powerW: number }[];
  socSeries: { at: string; soc: number }[];
} {
  const socSeries = readings
    .filter((r) => r.measurand === SOC && r.value >= 0 && r.value <= 100)
    .map((r) => ({ at: r.at.toISOString(), soc: r.value }));
  if (!session || stoppedAt < session.startedAt) return { energySeries: [], powerSeries: [], socSeries };
  const points = sessionMeterReadings(
    session,
    readings.filter((r) => r.measurand === ENERGY_REGISTER),
    stoppedAt,
    meterStopWh,
  );
  const energySeries = points.map((p) => ({
    at: new Date(p.at).toISOString(),
    energyWh: p.energyWh - session.meterStartWh,
  }));
  const powerSeries: { at: string; powerW: number }[] = [];
  for (let i = 1; i < points.length; i++) {
    const ms = points[i].at - points[i - 1].at;
    if (ms <= 0) continue;
    powerSeries.push({
      at: new Date(points[i].at).toISOString(),
      powerW: Math.round(((points[i].energyWh - points[i - 1].energyWh) * 3_600_000) / ms),
    });
  }
  return { energySeries, powerSeries, socSeries };
}

/** What happened to an order, oldest first: start and stop at the pile, settlement, review. */
export function orderLog(input: {
  session?: SessionStart;
  stoppedAt: Date;
  endReason: string;
  settledAt: Date;
  totalFen: number;
  abnormalReasons: string[];
  review?: { decision: 'approve' | 'reject'; reason: string; reviewer: string; at: Date };
}): OrderLogEntry[] {
  const entry = (e: Partial<OrderLogEntry> & Pick<OrderLogEntry, 'at' | 'action'>): OrderLogEntry => ({
    by: null,
    detail: null,
    amountFen: null,
    reasons: [],
    ...e,
  });
  const log: OrderLogEntry[] = [];
  if (input.session)
    log.push(
      entry({ at: input.session.startedAt.toISOString(), action: 'started', detail: input.session.idTag }),
    );
  log.push(entry({ at: input.stoppedAt.toISOString(), action: 'stopped', detail: input.endReason }));
  const held = input.abnormalReasons.length > 0;
  log.push(
    held
      ? entry({ at: input.settledAt.toISOString(), action: 'held', reasons: input.abnormalReasons })
      : entry({ at: input.settledAt.toISOString(), action: 'settled', amountFen: input.totalFen }),
  );
  if (input.review) {
    log.push(
      entry({
        at: input.review.at.toISOString(),
        action: input.review.decision === 'approve' ? 'approved' : 'rejected',
        by: input.review.reviewer,
        detail: input.review.reason,
        amountFen: input.review.decision === 'approve' ? input.totalFen : null,
      }),
    );
  }
  return log;
}
