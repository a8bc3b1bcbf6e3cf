import type { ChargingProfile, ChargingSchedulePeriod } from '@voltdepot/shared-ocpp';

/** A profile as the pile keeps it: on a connector (0 = the whole pile). */
export type InstalledProfile = { connectorId: number; profile: ChargingProfile };

export type LimitContext = {
  /** The connector whose limit is asked for (1..n). */
  connectorId: number;
  /** Time the limit is asked for (ms). */
  at: number;
  /** Start of the running transaction (ms), for Relative profiles and whether Tx profiles apply at all. */
  transactionStartedAt?: number;
  transactionId?: number;
  /** Converts an ampere limit to watts (the pile's supply voltage). */
  voltageV: number;
};

const DAY_MS = 86_400_000;

/** The profile's limit at `at` in W, or undefined when the profile does not apply then. */
export function profileLimitW(profile: ChargingProfile, ctx: LimitContext): number | undefined {
  if (profile.validFrom && ctx.at < Date.parse(profile.validFrom)) return undefined;
  if (profile.validTo && ctx.at >= Date.parse(profile.validTo)) return undefined;
  const schedule = profile.chargingSchedule;
  let start: number;
  switch (profile.chargingProfileKind) {
    case 'Relative':
      if (ctx.transactionStartedAt === undefined) return undefined;
      start = ctx.transactionStartedAt;
      break;
    case 'Recurring': {
      const anchor = schedule.startSchedule ? Date.parse(schedule.startSchedule) : ctx.at;
      const cycle = profile.recurrencyKind === 'Weekly' ? 7 * DAY_MS : DAY_MS;
      start = anchor + Math.floor((ctx.at - anchor) / cycle) * cycle;
      break;
    }
    default:
      start = schedule.startSchedule
        ? Date.parse(schedule.startSchedule)
        : (ctx.transactionStartedAt ?? (profile.validFrom ? Date.parse(profile.validFrom) : ctx.at));
  }
  const elapsedS = (ctx.at - start) / 1000;
  if (elapsedS < 0) return undefined;
  if (schedule.duration !== undefined && elapsedS >= schedule.duration) return undefined;
  let period: ChargingSchedulePeriod | undefined;
  for (const candidate of [...schedule.chargingSchedulePeriod].sort((a, b) => a.startPeriod - b.startPeriod))
    if (candidate.startPeriod <= elapsedS) period = candidate;
  if (!period) return undefined;
  return schedule.chargingRateUnit === 'W' ? period.limit : period.limit * ctx.voltageV;
}

/** The limit of the highest stack level of `purpose` that applies (connector-specific before connector 0). */
function purposeLimitW(
  profiles: InstalledProfile[],
  purpose: ChargingProfile['chargingProfilePurpose'],
  connectorIds: number[],
  ctx: LimitContext,
): number | undefined {
  for (const connectorId of connectorIds) {
    const candidates = profiles
      .filter((p) => p.connectorId === connectorId && p.profile.chargingProfilePurpose === purpose)
      .filter((p) => p.profile.transactionId === undefined || p.profile.transactionId === ctx.transactionId)
      .sort((a, b) => b.profile.stackLevel - a.profile.stackLevel);
    for (const { profile } of candidates) {
      const limit = profileLimitW(profile, ctx);
      if (limit !== undefined) return limit;
    }
  }
  return undefined;
}

/**
 * The power limit (W) the installed profiles put on a connector at `ctx.at`, or undefined when none does:
 * a TxProfile (only during a transaction) overrides a TxDefaultProfile, and ChargePointMaxProfile caps both.
 */
export function activeLimitW(profiles: InstalledProfile[], ctx: LimitContext): number | undefined {
  const inTransaction = ctx.transactionStartedAt !== undefined;
  const txLimit =
    (inTransaction ? purposeLimitW(profiles, 'TxProfile', [ctx.connectorId], ctx) : undefined) ??
    purposeLimitW(profiles, 'TxDefaultProfile', [ctx.connectorId, 0], ctx);
  const maxLimit = purposeLimitW(profiles, 'ChargePointMaxProfile', [0], ctx);
  if (txLimit === undefined) return maxLimit;
  return maxLimit === undefined ? txLimit : Math.min(txLimit, maxLimit);
}

/**
 * The composite schedule over `durationS` seconds from `ctx.at`: the effective limit (capped by the
 * connector's own maximum `maxPowerW`) sampled each second and merged into periods.
 */
export function compositeSchedule(
  profiles: InstalledProfile[],
  ctx: LimitContext,
  durationS: number,
  maxPowerW: number,
  unit: 'A' | 'W',
): ChargingProfile['chargingSchedule'] {
  const periods: ChargingSchedulePeriod[] = [];
  const horizon = Math.min(Math.max(0, Math.floor(durationS)), 7 * 86_400);
  for (let s = 0; s < Math.max(horizon, 1); s++) {
    const limitW = Math.min(
      activeLimitW(profiles, { ...ctx, at: ctx.at + s * 1000 }) ?? maxPowerW,
      maxPowerW,
    );
    const limit = unit === 'W' ? limitW : Math.round((limitW / ctx.voltageV) * 10) / 10;
    if (periods.at(-1)?.limit !== limit) periods.push({ startPeriod: s, limit });
  }
  return {
    duration: horizon,
    startSchedule: new Date(ctx.at).toISOString(),
    chargingRateUnit: unit,
    chargingSchedulePeriod: periods,
  };
}
