/**
 * A city bus battery on a depot DC charger. Constant power up to the taper point, then power falls
 * linearly to `finalPowerRatio` of the maximum at 100 % SoC (the usual CC/CV shape seen from the grid).
 */
export type BusBatteryOptions = {
  /** Usable capacity (Wh); a 12 m e-bus carries 280-420 kWh. */
  capacityWh?: number;
  /** SoC at plug-in, 0..100. */
  startSoc?: number;
  /** SoC at which the bus ends the session, 0..100. */
  targetSoc?: number;
  /** Charger limit per gun (W). */
  maxPowerW?: number;
  /** SoC where the taper begins. */
  taperFromSoc?: number;
  finalPowerRatio?: number;
  /** Charging efficiency from the meter to the cells. */
  efficiency?: number;
};

export class BusBattery {
  readonly capacityWh: number;
  readonly targetSoc: number;
  readonly maxPowerW: number;
  private readonly taperFromSoc: number;
  private readonly finalPowerRatio: number;
  private readonly efficiency: number;
  soc: number;
  /** A cap the charger puts on the power right now (e.g. from a charging profile), W; none when undefined. */
  powerLimitW?: number;

  constructor(options: BusBatteryOptions = {}) {
    this.capacityWh = options.capacityWh ?? 350_000;
    this.soc = options.startSoc ?? 25;
    this.targetSoc = options.targetSoc ?? 95;
    this.maxPowerW = options.maxPowerW ?? 150_000;
    this.taperFromSoc = options.taperFromSoc ?? 80;
    this.finalPowerRatio = options.finalPowerRatio ?? 0.1;
    this.efficiency = options.efficiency ?? 0.95;
  }

  get full(): boolean {
    return this.soc >= this.targetSoc;
  }

  /** Power drawn from the charger at the current SoC (W). */
  powerW(): number {
    if (this.full) return 0;
    const cap = this.powerLimitW === undefined ? Infinity : Math.max(0, this.powerLimitW);
    if (this.soc < this.taperFromSoc) return Math.min(this.maxPowerW, cap);
    const progress = (this.soc - this.taperFromSoc) / (100 - this.taperFromSoc);
    return Math.min(Math.round(this.maxPowerW * (1 - progress * (1 - this.finalPowerRatio))), cap);
  }

  /** Charge for `seconds`; returns the energy the meter saw (Wh). */
  charge(seconds: number): number {
    let remaining = seconds;
    let meteredWh = 0;
    // Small steps so the taper is followed closely even with a large time scale.
    while (remaining > 0 && !this.full) {
      const step = Math.min(remaining, 10);
      const wh = (this.powerW() * step) / 3600;
      meteredWh += wh;
      this.soc = Math.min(100, this.soc + ((wh * this.efficiency) / this.capacityWh) * 100);
      remaining -= step;
    }
    return meteredWh;
  }
}
