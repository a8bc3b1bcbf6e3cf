/** Where a simulated pile reads the time its messages carry (epoch ms). */
export type Clock = { now(): number };

export const realClock: Clock = { now: () => Date.now() };

export type DepotClockOptions = {
  /** Depot time at start (epoch ms); a time in the future is taken as now. */
  startAt: number;
  /** Depot seconds per real second while catching up (values below 1 are taken as 1). */
  speed: number;
  /** The real clock (tests). */
  realNow?: () => number;
};

/**
 * A depot's simulated clock: it starts in the past and runs `speed` times faster than real time until
 * it has caught up with the real clock, then runs at real time. So an evening of depot life is replayed
 * in minutes, and the simulation then carries on live. It never shows a time later than the real clock:
 * every timestamp a pile sends with it is one the central system could have received.
 */
export class DepotClock implements Clock {
  /** Depot time at start. */
  readonly startAt: number;
  readonly speed: number;
  /** Real time at start. */
  readonly realStart: number;
  private readonly realNow: () => number;

  constructor(options: DepotClockOptions) {
    this.realNow = options.realNow ?? Date.now;
    this.realStart = this.realNow();
    this.startAt = Math.min(options.startAt, this.realStart);
    this.speed = Math.max(1, options.speed);
  }

  now(): number {
    const real = this.realNow();
    return Math.min(real, this.startAt + (real - this.realStart) * this.speed);
  }

  /** Real time at which the clock catches up (depot time equals real time from then on). */
  get caughtUpAt(): number {
    const lag = this.realStart - this.startAt;
    if (lag === 0) return this.realStart;
    // At 1x a clock that starts behind never catches up.
    return this.speed === 1 ? Number.POSITIVE_INFINITY : this.realStart + lag / (this.speed - 1);
  }

  get caughtUp(): boolean {
    return this.realNow() >= this.caughtUpAt;
  }

  /** The real time at which the clock will show `depotMs`. */
  realTimeOf(depotMs: number): number {
    // From the catch-up point on, depot time is real time.
    if (depotMs >= this.caughtUpAt) return depotMs;
    return this.realStart + (depotMs - this.startAt) / this.speed;
  }

  /** Real milliseconds until the clock shows `depotMs` (0 when it already does). */
  realDelayUntil(depotMs: number): number {
    return Math.max(0, this.realTimeOf(depotMs) - this.realNow());
  }

  /**
   * Resolves once the clock shows `depotMs`, or soon after `stopped()` turns true (checked every
   * `pollMs` real ms, so a long wait never holds a shutdown up).
   */
  async sleepUntil(depotMs: number, stopped: () => boolean = () => false, pollMs = 1_000): Promise<void> {
    for (;;) {
      const wait = this.realDelayUntil(depotMs);
      if (wait <= 0 || stopped()) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, pollMs)));
    }
  }

  /** Resolves after `depotMs` of depot time (see `sleepUntil`). */
  sleepFor(depotMs: number, stopped?: () => boolean, pollMs?: number): Promise<void> {
    return this.sleepUntil(this.now() + depotMs, stopped, pollMs);
  }
}
