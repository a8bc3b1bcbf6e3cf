import { Inject, Injectable, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { defineJob, HandlesJob, scheduled, type JobHandler } from '@voltdepot/server-jobs';
import { OUTBOX_RELAY, type OutboxRelay } from '@voltdepot/server-messaging';
import { LOST_STOP_BATCH, SettlementService } from './settlement.service';

/** A sweep has no input: it takes whatever stops waited too long. */
export type LostStopSweepRun = Record<string, never>;

/**
 * `billing.lost-stop-sweep`: turns stops that waited too long for their start into "lost record" orders.
 * Scheduled (one run per slot across every worker replica, id `repeat:billing.lost-stop-sweep:<slot>`);
 * a failed run is tried again twice, then kept as failed; the next slot sweeps anyway.
 */
export const LostStopSweepJob = defineJob<LostStopSweepRun>({
  name: 'billing.lost-stop-sweep',
  attempts: 3,
  backoffMs: 5_000,
  // A sweep of thousands of stops is a few seconds; a stuck one is taken over after this.
  lockMs: 120_000,
});

/** Sweep often enough that a lost stop is held soon after its time: every minute, or half the wait. */
export function lostStopSweepIntervalMs(lostStopMinutes: number): number {
  return Math.min(60_000, lostStopMinutes * 30_000);
}

/** The job with its schedule for a given wait. */
export function lostStopSweepJob(lostStopMinutes: number) {
  return scheduled(LostStopSweepJob, { everyMs: lostStopSweepIntervalMs(lostStopMinutes), payload: {} });
}

/**
 * One sweep: batches (each its own transaction, `SettlementService.sweepLostStops`) until one is not
 * full. Runs on any replica; were two to sweep at once (an overrun slot), the stops are taken with SKIP
 * LOCKED, so none is settled twice. The orders' `order.settled` events leave through the outbox.
 */
@Injectable()
@HandlesJob(LostStopSweepJob)
export class LostStopSweepHandler implements JobHandler<LostStopSweepRun> {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(SettlementService) private readonly service: SettlementService,
    @Optional() @Inject(OUTBOX_RELAY) private readonly relay?: Pick<OutboxRelay, 'nudge'>,
  ) {}

  /** Resolves with how many stops became orders. */
  async handle(): Promise<number> {
    let total = 0;
    for (;;) {
      const taken = await this.dataSource.transaction((m) => this.service.sweepLostStops(m));
      total += taken;
      if (taken) this.relay?.nudge();
      if (taken < LOST_STOP_BATCH) return total;
    }
  }
}
