import { METER_ROUNDING_TOLERANCE_WH, type MeterValue } from '@voltdepot/shared-ocpp';

export const ENERGY_REGISTER = 'Energy.Active.Import.Register';

/** One sampled value, normalised: energy in Wh, power in W (the units we store and publish). */
export type NormalizedSample = {
  sampledAt: string;
  measurand: string;
  phase: string;
  location: string;
  context: string;
  value: number;
  unit: string | undefined;
  flag?: string;
};

const SCALE: Record<string, [number, string]> = {
  kWh: [1000, 'Wh'],
  kvarh: [1000, 'varh'],
  kW: [1000, 'W'],
  kvar: [1000, 'var'],
  kVA: [1000, 'VA'],
};

/** Flatten OCPP meter values into samples in base units (OCPP defaults: measurand energy register, unit Wh). */
export function normalizeMeterValues(meterValues: MeterValue[]): NormalizedSample[] {
  const samples: NormalizedSample[] = [];
  for (const meterValue of meterValues) {
    for (const sampled of meterValue.sampledValue) {
      const measurand = sampled.measurand ?? ENERGY_REGISTER;
      let unit: string | undefined =
        sampled.unit ?? (measurand.startsWith('Energy.Active') ? 'Wh' : undefined);
      let value = sampled.format === 'SignedData' ? Number.NaN : Number(sampled.value);
      let flag: string | undefined;
      if (unit && SCALE[unit]) {
        const [factor, base] = SCALE[unit];
        value = Math.round(value * factor * 1000) / 1000;
        unit = base;
      }
      // Checked after scaling: '1e306' kWh is finite, in Wh it is not (stored as Infinity, it would
      // make every later reading of the transaction look decreasing).
      if (!Number.isFinite(value) || sampled.value.trim() === '') {
        value = Number.NaN;
        flag = 'unparseable';
      }
      samples.push({
        sampledAt: new Date(meterValue.timestamp).toISOString(),
        measurand,
        phase: sampled.phase ?? '',
        location: sampled.location ?? '',
        context: sampled.context ?? '',
        value,
        unit,
        flag,
      });
    }
  }
  return samples;
}

/** An earlier reading of the energy register: its value (Wh) and when it was taken (ms since epoch). */
export type RegisterReading = { valueWh: number; at: number };

/**
 * Slack allowed on top of the power bound, so that a register's rounding over a very short interval
 * (two readings a second apart, a register with 1 kWh resolution) is not mistaken for a jump.
 */
export const JUMP_SLACK_WH = 1_000;

/**
 * Plausibility of an energy register reading against the highest earlier reading of the same
 * transaction (or its meterStart at the start time). Implausible readings are kept and flagged, never
 * dropped: they are evidence for a meter fault or a tampered pile. Besides negative readings, a reading
 * more than METER_ROUNDING_TOLERANCE_WH below the previous one is 'decreasing' (a whole-Wh reading up to
 * that much below a decimal one is the register's rounding: 195 after 195.26), and a rise faster than
 * `maxPowerW` could deliver since the previous reading (plus JUMP_SLACK_WH) is a 'jump': flagged, it does
 * not become the baseline, so one wild reading does not make every later, correct one look decreasing.
 */
export function energyRegisterFlag(
  valueWh: number,
  previous: RegisterReading | undefined,
  at?: number,
  maxPowerW?: number,
): string | undefined {
  if (valueWh < 0) return 'negative';
  if (previous === undefined) return undefined;
  if (valueWh < previous.valueWh - METER_ROUNDING_TOLERANCE_WH) return 'decreasing';
  if (maxPowerW !== undefined && at !== undefined) {
    const hours = Math.max(0, at - previous.at) / 3_600_000;
    if (valueWh - previous.valueWh > maxPowerW * hours + JUMP_SLACK_WH) return 'jump';
  }
  return undefined;
}
