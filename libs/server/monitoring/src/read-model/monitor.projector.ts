import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import type { MonitorPileView, MonitorPush } from '@voltdepot/shared-contracts';
import { Topics, type EventEnvelope } from '@voltdepot/shared-events';
import { startConsumer, type EventBus, type StartingConsumer } from '@voltdepot/server-messaging';
import { deleteConsumerGroup } from './consumer-groups';
import { planFor } from './projection';
import type { ReadModelStore } from './read-model.store';

export const MONITOR_TOPICS = [Topics.OcppStatus, Topics.OcppTransactions];
/** Consumer group of a generation of the read model: `monitoring.{epoch}`. */
export const monitorGroup = (epoch: string) => `monitoring.${epoch}`;

export type MonitorProjectorOptions = {
  /** How often the model's generation key is checked (ms): the time to notice lost keys. */
  epochCheckMs?: number;
  /** Changes of one pile within this window are pushed once (ms). */
  pushDebounceMs?: number;
  /** How long a previous generation's group is left for other replicas to leave it (ms). */
  staleGroupGraceMs?: number;
  onError?: (error: unknown, context: string) => void;
};

/**
 * Keeps the read model in step with the gateway's events and pushes what changed.
 *
 * Each generation ("epoch") of the model is fed by its own consumer group, `monitoring.{epoch}`, which a
 * bus starts at the beginning of the retained streams. The epoch lives in the model's own namespace, so
 * when the model's keys are lost (flushed, evicted) the epoch goes with them: within `epochCheckMs` every
 * replica notices, one claims a new epoch, and all move to its fresh group, which replays the retained
 * events into an empty model. The previous group is deleted after a grace period.
 *
 * Replays, redeliveries and late events are harmless: every change is applied only if it is not older
 * than what the model holds (read-model.store.ts).
 *
 * Nothing here waits for the brokers: while Redis is down the generation check fails and is tried again
 * on the next tick; while the bus is down its consumer keeps subscribing in the background
 * (`startConsumer`), so `start` never throws and the api serves meanwhile.
 */
export class MonitorProjector {
  private subscription?: StartingConsumer;
  private current?: string;
  private timer?: NodeJS.Timeout;
  private syncing: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private readonly cleanups = new Set<NodeJS.Timeout>();

  constructor(
    private readonly bus: EventBus,
    private readonly store: ReadModelStore,
    private readonly redis: Redis,
    private readonly viewOf: (chargePointId: string) => Promise<MonitorPileView | undefined>,
    private readonly options: MonitorProjectorOptions = {},
  ) {}

  /** The generation being fed (for tests and logs). */
  get epoch(): string | undefined {
    return this.current;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.sync();
    if (this.stopped) return; // stopped while starting
    this.timer = setInterval(() => void this.sync(), this.options.epochCheckMs ?? 1_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.syncing;
    await this.subscription?.close();
    this.subscription = undefined;
    this.current = undefined;
    for (const timer of [...this.pending.values(), ...this.cleanups]) clearTimeout(timer);
    this.pending.clear();
    this.cleanups.clear();
  }

  /** Follow the model's generation: claim one when it is lost, move to its group when it changed. */
  sync(): Promise<void> {
    this.syncing = this.syncing.then(async () => {
      if (this.stopped) return;
      try {
        const epoch =
          (await this.store.epoch()) ??
          (await this.store.claimEpoch(`${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`));
        if (epoch === this.current) return;
        const previous = this.current;
        // Let the old group's in-flight events finish before the new one starts over.
        await this.subscription?.close();
        const group = monitorGroup(epoch);
        this.subscription = startConsumer(
          this.bus,
          {
            topics: MONITOR_TOPICS,
            group,
            handler: (envelope) => this.handle(envelope),
            // Only Redis can fail here: ride out a restart of it (about half a minute) before dead-lettering.
            retry: { maxAttempts: 10, initialDelayMs: 200, maxDelayMs: 5_000 },
          },
          {
            onRetry: (error, attempt) =>
              this.options.onError?.(
                error,
                `monitoring read model: subscribing ${group} (attempt ${attempt})`,
              ),
          },
        );
        this.current = epoch;
        if (previous) this.scheduleGroupDeletion(monitorGroup(previous));
      } catch (error) {
        this.options.onError?.(error, 'monitoring read model: generation check');
      }
    });
    return this.syncing;
  }

  private async handle(envelope: EventEnvelope): Promise<void> {
    const plan = planFor(envelope, this.store.keys);
    if (!plan) return;
    if ((await this.store.apply(plan)) === 'changed') this.schedulePush(plan.chargePointId);
  }

  private schedulePush(chargePointId: string): void {
    if (this.pending.has(chargePointId) || this.stopped) return;
    const timer = setTimeout(() => {
      this.pending.delete(chargePointId);
      this.push(chargePointId).catch((error) => this.options.onError?.(error, 'monitoring push'));
    }, this.options.pushDebounceMs ?? 50);
    this.pending.set(chargePointId, timer);
  }

  private async push(chargePointId: string): Promise<void> {
    const view = await this.viewOf(chargePointId);
    if (!view || view.stationId === null) return; // no station: no screen shows it
    const push: MonitorPush = { stationId: view.stationId, at: new Date().toISOString(), piles: [view] };
    await this.redis.publish(this.store.keys.feedChannel, JSON.stringify(push));
  }

  private scheduleGroupDeletion(group: string): void {
    const timer = setTimeout(() => {
      this.cleanups.delete(timer);
      deleteConsumerGroup(this.bus, this.redis, group, MONITOR_TOPICS).catch((error) =>
        this.options.onError?.(error, `monitoring: deleting the previous group ${group}`),
      );
    }, this.options.staleGroupGraceMs ?? 30_000);
    timer.unref();
    this.cleanups.add(timer);
  }
}
