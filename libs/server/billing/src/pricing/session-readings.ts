import type { MeterReading } from './session-pricing';

export const ENERGY_REGISTER = 'Energy.Active.Import.Register';
export const SOC = 'SoC';

/**
 * The energy register readings a session is priced on: the start, every unflagged sample strictly
 * inside the session, the stop. Settlement, the review of held orders and the detail charts share it.
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
