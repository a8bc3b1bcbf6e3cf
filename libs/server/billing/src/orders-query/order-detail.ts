import type { AbnormalReasonCode } from '@voltdepot/shared-contracts';
import type { OrderVersionEntry } from './charging-order-query.repository';
import type { ChargingOrderRow, OrderLogEntry, OrderVersionRow } from './dto/order-query.dto';
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
  // Registers may carry decimals: the chart shows whole Wh, as orders are kept.
  const energySeries = points.map((p) => ({
    at: new Date(p.at).toISOString(),
    energyWh: Math.round(p.energyWh - session.meterStartWh),
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

/**
 * The versions of an order, oldest first: version 1 as settled (the figures before the first change, or
 * the order's own when it never changed), then each stored version with its difference.
 */
export function orderVersions(
  order: Pick<ChargingOrderRow, 'settledAt' | 'energyWh' | 'totalFen' | 'payStatus'> & {
    meterStopWh: number;
  },
  versions: OrderVersionEntry[],
): OrderVersionRow[] {
  const first = versions[0]?.before;
  const settled: OrderVersionRow = {
    version: 1,
    kind: 'settled',
    at: order.settledAt,
    by: null,
    reason: null,
    meterStopWh: first?.meterStopWh ?? order.meterStopWh,
    energyWh: first?.energyWh ?? order.energyWh,
    totalFen: first?.amounts.totalFen ?? order.totalFen,
    payStatus: first?.payStatus ?? order.payStatus,
    energyDeltaWh: 0,
    totalDeltaFen: 0,
  };
  return [
    settled,
    ...versions.map((v) => ({
      version: v.version,
      kind: v.kind,
      at: v.at.toISOString(),
      by: v.by,
      reason: v.reason,
      meterStopWh: v.after.meterStopWh,
      energyWh: v.after.energyWh,
      totalFen: v.after.amounts.totalFen,
      payStatus: v.after.payStatus,
      energyDeltaWh: v.after.energyWh - v.before.energyWh,
      totalDeltaFen: v.after.amounts.totalFen - v.before.amounts.totalFen,
    })),
  ];
}

/** What happened to an order, oldest first: start and stop at the pile, settlement, review, amendments. */
export function orderLog(input: {
  session?: SessionStart;
  stoppedAt: Date;
  endReason: string;
  settledAt: Date;
  totalFen: number;
  abnormalReasons: AbnormalReasonCode[];
  review?: { decision: 'approve' | 'reject'; reason: string; reviewer: string; at: Date };
  versions: OrderVersionEntry[];
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
  // As settled: the figures before the first change, if any.
  const settled = input.versions[0]?.before;
  const reasons = settled?.abnormalReasons ?? input.abnormalReasons;
  log.push(
    (settled?.payStatus ?? (reasons.length ? 3 : 0)) === 3
      ? entry({ at: input.settledAt.toISOString(), action: 'held', reasons })
      : entry({
          at: input.settledAt.toISOString(),
          action: 'settled',
          amountFen: settled?.amounts.totalFen ?? input.totalFen,
          reasons,
        }),
  );
  const approval = input.versions.find((v) => v.kind === 'approved');
  if (input.review)
    log.push(
      entry({
        at: input.review.at.toISOString(),
        action: input.review.decision === 'approve' ? 'approved' : 'rejected',
        by: input.review.reviewer,
        detail: input.review.reason,
        amountFen:
          input.review.decision === 'approve' ? (approval?.after.amounts.totalFen ?? input.totalFen) : null,
      }),
    );
  for (const v of input.versions) {
    if (v.kind === 'approved') continue;
    log.push(
      entry({
        at: v.at.toISOString(),
        action: v.kind,
        by: v.by,
        detail: v.reason,
        amountFen: v.after.amounts.totalFen,
        reasons: v.after.abnormalReasons,
      }),
    );
  }
  return log.sort((a, b) => a.at.localeCompare(b.at));
}
