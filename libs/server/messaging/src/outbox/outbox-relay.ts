import type { DataSource } from 'typeorm';
import { pgPoolOf } from '@voltdepot/server-database';
import type { EventEnvelope } from '@voltdepot/shared-events';
import type { EventBus } from '../bus';

export type OutboxRelayOptions = {
  batchSize?: number;
  /** Poll interval when the outbox is empty (ms). `nudge()` wakes the relay sooner. */
  idleMs?: number;
  /**
   * While events keep coming (a round published some but fewer than `batchSize`), start the next round
   * no sooner than this after the previous one started (ms; default 0). Under a steady stream of small
   * commits the relay then reads, publishes and marks rows in batches of dozens instead of a few per
   * round: a fraction of the database round trips, for at most this much added publishing delay.
   */
  busyCycleMs?: number;
  /** Published rows older than this are deleted (ms); 0 keeps them. */
  retainPublishedMs?: number;
  onError?: (error: unknown) => void;
  onPublished?: (count: number) => void;
};

type OutboxRow = {
  id: string;
  event_id: string;
  topic: string;
  key: string;
  type: string;
  version: number;
  occurred_at: Date;
  correlation_id: string;
  payload: unknown;
};

/** Only one relay at a time publishes, so the outbox order (and so per-key order) is kept. */
const RELAY_LOCK = 7_301_002;

/**
 * Publishes outbox rows in id order and marks them published in the same transaction that locked them.
 * If the relay dies after publishing but before the commit, the rows are published again on the next
 * run (consumers are idempotent); a row is never marked without having been published.
 */
export class OutboxRelay {
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private lastCleanup = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly bus: EventBus,
    private readonly options: OutboxRelayOptions = {},
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Ask the relay to look at the outbox now (after a local write). */
  nudge(): void {
    this.wake?.();
  }

  /**
   * Publish one batch; returns how many rows were published. Two round trips to PostgreSQL per round,
   * whatever it finds: one that opens the transaction, takes the relay lock and reads the batch, and one
   * that marks the batch and commits (or, with nothing to publish, commits). Both are simple-protocol
   * statement lists, which is why the lock number, the batch size and the ids are literals (integers
   * this code made or PostgreSQL gave, checked).
   */
  async relayOnce(): Promise<number> {
    const batchSize = this.options.batchSize ?? 500;
    if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new Error(`invalid batchSize ${batchSize}`);
    // A pool client of its own: a statement list gives one result per statement.
    const client = await pgPoolOf(this.dataSource).connect();
    let open = true;
    let broken: unknown;
    try {
      // The lock comes first, in a statement of its own, so that the read's snapshot is taken with the
      // lock held (a snapshot taken before it could still show rows the previous holder has just
      // published); the read sees whether it was granted through a transaction-local setting.
      // The poll is a plain index scan of the unpublished rows in id order. Every published row leaves a
      // dead entry in that partial index until vacuum runs (autovacuum may take a minute); an index scan
      // marks the entries it finds dead so the next scan skips them, while a bitmap scan (what the
      // planner picks from its estimates) visits them all every time: 6 ms instead of 1 ms per poll under
      // load. Set for this transaction only, before the read is planned (each statement of the list is
      // planned when its turn comes).
      const results = await client.query(
        `BEGIN;
         SELECT set_config('voltdepot.outbox_relay_locked', pg_try_advisory_xact_lock(${RELAY_LOCK})::text, true),
                set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true);
         SELECT id, event_id, topic, key, type, version, occurred_at, correlation_id, payload
           FROM outbox_event
          WHERE published_at IS NULL AND current_setting('voltdepot.outbox_relay_locked') = 'true'
          ORDER BY id LIMIT ${batchSize}`,
      );
      const rows = (results as { rows: OutboxRow[] }[])[2].rows;
      if (!rows.length) {
        await client.query('COMMIT');
        open = false;
        return 0;
      }
      await this.bus.publish(rows.map(toEnvelope));
      const ids = rows.map((r) => String(r.id));
      if (!ids.every((id) => /^[0-9]+$/.test(id))) throw new Error('outbox ids must be integers');
      await client.query(
        `UPDATE outbox_event SET published_at = now() WHERE id = ANY('{${ids.join(',')}}'::bigint[]); COMMIT`,
      );
      open = false;
      return rows.length;
    } catch (error) {
      if (open) {
        // Nothing was marked; the rows stay for the next round. A connection that cannot even roll
        // back is not given back to the pool.
        await client.query('ROLLBACK').catch((rollbackError: unknown) => (broken = rollbackError));
      }
      throw error;
    } finally {
      client.release(broken ? true : undefined);
    }
  }

  private async run(): Promise<void> {
    const idleMs = this.options.idleMs ?? 200;
    const busyCycleMs = this.options.busyCycleMs ?? 0;
    const batchSize = this.options.batchSize ?? 500;
    let failures = 0;
    while (this.running) {
      // A process that connects to PostgreSQL in the background (and serves meanwhile) starts its relay
      // before the pool exists: wait for it quietly, /health reports the database.
      if (!this.dataSource.isInitialized) {
        await this.pause(idleMs);
        continue;
      }
      let published = 0;
      const started = performance.now();
      try {
        published = await this.relayOnce();
        if (published) this.options.onPublished?.(published);
        await this.cleanup();
        failures = 0;
      } catch (error) {
        this.options.onError?.(error);
        // 1 s, doubling up to 10 s while PostgreSQL or the broker stays down: not a log line a second.
        await this.pause(Math.min(10_000, 1_000 * 2 ** failures++));
        continue;
      }
      if (published === 0) await this.pause(idleMs);
      else if (published < batchSize && busyCycleMs > 0) {
        const rest = busyCycleMs - (performance.now() - started);
        if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
      }
    }
  }

  private async cleanup(): Promise<void> {
    const retain = this.options.retainPublishedMs ?? 24 * 3600_000;
    if (!retain || Date.now() - this.lastCleanup < 60_000) return;
    this.lastCleanup = Date.now();
    await this.dataSource.query(
      `DELETE FROM outbox_event WHERE published_at IS NOT NULL AND published_at < now() - ($1::bigint * interval '1 millisecond')`,
      [retain],
    );
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }
}

function toEnvelope(row: OutboxRow): EventEnvelope {
  return {
    eventId: row.event_id,
    topic: row.topic,
    key: row.key,
    type: row.type,
    version: row.version,
    occurredAt: new Date(row.occurred_at).toISOString(),
    correlationId: row.correlation_id,
    payload: row.payload,
  };
}
