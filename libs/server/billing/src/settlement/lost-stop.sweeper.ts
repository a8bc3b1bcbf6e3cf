import type { DataSource } from 'typeorm';
import { LOST_STOP_BATCH, SettlementService } from './settlement.service';

export type LostStopSweeperOptions = {
  /** Time between two sweeps. */
  intervalMs: number;
  onError?: (error: unknown) => void;
};

/** Sweep often enough that a lost stop is held soon after its time: every minute, or half the wait. */
export function lostStopSweepIntervalMs(lostStopMinutes: number): number {
  return Math.min(60_000, lostStopMinutes * 30_000);
}

/**
 * Periodically turns stops that waited too long for their start into "lost record" orders
 * (`SettlementService.sweepLostStops`). Each batch is one transaction; several api replicas may sweep at
 * once (the stops are taken with SKIP LOCKED). A sweep never overlaps the previous one in this process.
 */
export class LostStopSweeper {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly service: SettlementService,
    private readonly options: LostStopSweeperOptions,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.sweep()
        .then(() => undefined)
        .finally(() => (this.running = undefined));
    }, this.options.intervalMs);
    this.timer.unref();
  }

  /** One sweep: batches until one is not full. Returns how many stops became orders. */
  async sweep(): Promise<number> {
    let total = 0;
    try {
      for (;;) {
        if (this.stopped) break;
        const taken = await this.dataSource.transaction((m) => this.service.sweepLostStops(m));
        total += taken;
        if (taken < LOST_STOP_BATCH) break;
      }
    } catch (error) {
      this.options.onError?.(error);
    }
    return total;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
