import type { AbnormalReasonCode } from '@voltdepot/shared-contracts';
import { METER_ROUNDING_TOLERANCE_WH } from '@voltdepot/shared-ocpp';
import type { MeterReading } from './session-pricing';

export const ENERGY_REGISTER = 'Energy.Active.Import.Register';
export const SOC = 'SoC';

/** A stored meter sample of a transaction (register in Wh, SoC in %), with the gateway's flag. */
export type SessionSample = { measurand: string; at: Date; value: number; flag: string | null };

/** A session's own bounds: what its samples are measured against. */
export type SessionBounds = {
  session: { meterStartWh: number; startedAt: Date };
  stoppedAt: Date;
  meterStopWh: number;
};

/**
 * The samples of the session: taken at or after its start and at or before its stop. A sample outside
 * (a periodic sample stamped after the StopTransaction, one of a previous session) says nothing about
 * the order and never affects it.
 */
export function samplesOfSession<S extends { at: Date }>(samples: S[], bounds: SessionBounds): S[] {
  const from = bounds.session.startedAt.getTime();
  const to = bounds.stoppedAt.getTime();
  return samples.filter((s) => s.at.getTime() >= from && s.at.getTime() <= to);
}

/**
 * The energy register readings of a session as measured: the start, every unflagged register sample
 * strictly inside the session (values as sent, decimals kept), the stop. The detail charts draw them.
 */
export function sessionMeterReadings(
  session: { meterStartWh: number; startedAt: Date },
  samples: { at: Date; value: number; flag: string | null }[],
  stoppedAt: Date,
  meterStopWh: number,
): MeterReading[] {
  const within = samples.filter((r) => !r.flag && r.at > session.startedAt && r.at < stoppedAt);
  return [
    { at: session.startedAt.getTime(), energyWh: session.meterStartWh },
    ...within.map((r) => ({ at: r.at.getTime(), energyWh: r.value })),
    { at: stoppedAt.getTime(), energyWh: meterStopWh },
  ];
}

/**
 * The readings a session is billed on, in whole Wh and never decreasing, from start to stop: each
 * sample rounded half up to the Wh and held between the reading before it and `meterStopWh` (a decimal
 * sample within the rounding tolerance above the stop counts as the stop). The stages add up to
 * `meterStopWh - meterStartWh` exactly. Only for a session whose stop is not below its start.
 */
export function billableReadings(bounds: SessionBounds, samples: SessionSample[]): MeterReading[] {
  const { session, stoppedAt, meterStopWh } = bounds;
  const registers = samples.filter((s) => s.measurand === ENERGY_REGISTER);
  const measured = sessionMeterReadings(session, registers, stoppedAt, meterStopWh);
  let previous = session.meterStartWh;
  return measured.map((r, i) => {
    if (i === 0 || i === measured.length - 1) return r;
    previous = Math.min(meterStopWh, Math.max(previous, Math.round(r.energyWh)));
    return { at: r.at, energyWh: previous };
  });
}

/**
 * The meter anomalies of a session (docs/billing.md "Abnormal orders"), from its own samples only:
 * - `stopBeforeStart`: the stop is stamped before the start;
 * - `meterNegative`: a negative register (the start, the stop, or a sample the gateway flagged so);
 * - `meterDecreased`: a register reading more than METER_ROUNDING_TOLERANCE_WH (@voltdepot/shared-ocpp: the
 *   rounding of whole-Wh meterStart/meterStop against decimal samples) below the highest before
 *   it, the same tolerance the gateway's `decreasing` flag applies (billing judges the samples again);
 * - `meterJump`: a sample the gateway flagged as a jump (a rise faster than `OCPP_MAX_PLAUSIBLE_POWER_W`,
 *   about 1.5 times the depot's largest charger, could deliver; docs/ocpp-gateway.md);
 * - `meterFlagged`: a sample the gateway flagged for another reason (unparseable).
 */
export function meterAnomalies(bounds: SessionBounds, samples: SessionSample[]): AbnormalReasonCode[] {
  const { session, stoppedAt, meterStopWh } = bounds;
  const codes = new Set<AbnormalReasonCode>();
  if (stoppedAt < session.startedAt) codes.add('stopBeforeStart');
  const registers = samplesOfSession(
    samples.filter((s) => s.measurand === ENERGY_REGISTER),
    bounds,
  );
  for (const { flag } of registers) {
    if (flag === 'negative') codes.add('meterNegative');
    else if (flag === 'jump') codes.add('meterJump');
    else if (flag && flag !== 'decreasing') codes.add('meterFlagged');
  }
  // The register as it went: start, the samples inside the session (the gateway's 'decreasing' ones too,
  // judged here with the tolerance), stop.
  const inside = registers.filter(
    (s) => (!s.flag || s.flag === 'decreasing') && s.at > session.startedAt && s.at < stoppedAt,
  );
  const register = [session.meterStartWh, ...inside.map((s) => s.value), meterStopWh];
  if (register.some((wh) => wh < 0)) codes.add('meterNegative');
  let highest = -Infinity;
  for (const wh of register) {
    if (wh < highest - METER_ROUNDING_TOLERANCE_WH) codes.add('meterDecreased');
    highest = Math.max(highest, wh);
  }
  return [...codes];
}

/** The first and last SoC of the session (whole %), and whether any of its SoC samples is outside 0-100. */
export function sessionSoc(
  bounds: SessionBounds,
  samples: SessionSample[],
): { startSoc?: number; endSoc?: number; outOfRange: boolean } {
  const socs = samplesOfSession(
    samples.filter((s) => s.measurand === SOC && !s.flag),
    bounds,
  ).map((s) => s.value);
  return {
    startSoc: socs.length ? Math.round(socs[0]) : undefined,
    endSoc: socs.length ? Math.round(socs[socs.length - 1]) : undefined,
    outOfRange: socs.some((v) => v < 0 || v > 100),
  };
}
