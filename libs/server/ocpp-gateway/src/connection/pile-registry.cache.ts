import type { PileRecord, PileRegistryRepository } from './pile-registry.repository';

export type PileRegistryCacheOptions = {
  /** How often changed rows are re-read (ms). Changes reach the gateway within this delay. */
  refreshMs?: number;
  /**
   * Look-back applied to the time of the previous poll, so that a row whose transaction committed
   * after that poll, though its timestamp was taken before it, is still picked up by the next one.
   */
  overlapMs?: number;
  /** How long a "no such pile" answer is remembered, so that unknown ids do not hammer the database. */
  negativeTtlMs?: number;
  /** Full reload period (catches deleted rows). */
  fullReloadMs?: number;
  onError?: (error: unknown) => void;
  /**
   * Called when a poll finds that a cached pile's row changed (`current`) or is gone (`current`
   * undefined), after the cache holds the new version. Not called for piles seen for the first time.
   */
  onChange?: (previous: PileRecord, current: PileRecord | undefined) => void;
};

/**
 * Read-through cache of the pile registry for the handshake path. Changed rows are polled by
 * `updated_at` (maintained by a trigger) since the previous poll's database time less the overlap, so
 * a quiet registry costs an empty read; a miss falls through to the database, so a pile registered a
 * moment ago can connect at once. An entry is replaced only when its row changed: the cache's objects
 * live as long as the piles, and polls leave only short-lived garbage behind (10,000 entries renewed
 * every few seconds kept the old generation growing and made for long collection pauses).
 */
export class PileRegistryCache {
  private readonly piles = new Map<string, PileRecord>();
  private readonly misses = new Map<string, number>();
  /** The database's time of the previous poll. */
  private polledAt?: Date;
  private lastFullReload = 0;
  private timer?: NodeJS.Timeout;
  private refreshing?: Promise<void>;

  constructor(
    private readonly repository: PileRegistryRepository,
    private readonly options: PileRegistryCacheOptions = {},
  ) {}

  async start(): Promise<void> {
    await this.refresh();
    const refreshMs = this.options.refreshMs ?? 2_000;
    this.timer = setInterval(() => {
      this.refresh().catch((error) => this.options.onError?.(error));
    }, refreshMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  async get(chargePointId: string): Promise<PileRecord | undefined> {
    const cached = this.piles.get(chargePointId);
    if (cached) return cached;
    const missedAt = this.misses.get(chargePointId);
    if (missedAt !== undefined && Date.now() - missedAt < (this.options.negativeTtlMs ?? 2_000))
      return undefined;
    const found = await this.repository.find(chargePointId);
    if (found) {
      this.piles.set(chargePointId, found);
      this.misses.delete(chargePointId);
    } else {
      if (this.misses.size > 10_000) this.misses.clear();
      this.misses.set(chargePointId, Date.now());
    }
    return found;
  }

  /**
   * A row this replica has just written itself: held at once (unless a newer version already is), and
   * not announced to `onChange`, since the change was this replica's own.
   */
  remember(row: PileRecord): void {
    const cached = this.piles.get(row.chargePointId);
    if (!cached || row.updatedAt.getTime() > cached.updatedAt.getTime())
      this.piles.set(row.chargePointId, row);
  }

  /** Re-read rows changed since the last poll (one refresh at a time). */
  refresh(): Promise<void> {
    this.refreshing ??= this.doRefresh().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async doRefresh(): Promise<void> {
    const full = !this.polledAt || Date.now() - this.lastFullReload > (this.options.fullReloadMs ?? 60_000);
    const since = full ? undefined : new Date(this.polledAt!.getTime() - (this.options.overlapMs ?? 5_000));
    const { rows, polledAt } = await this.repository.changedSince(since);
    if (full) {
      // Rows deleted since: gone from the cache (a later miss reads through again).
      const present = new Set(rows.map((row) => row.chargePointId));
      for (const [id, cached] of this.piles) {
        if (present.has(id)) continue;
        this.piles.delete(id);
        this.notify(cached, undefined);
      }
      this.lastFullReload = Date.now();
    }
    for (const row of rows) {
      const cached = this.piles.get(row.chargePointId);
      // Each change of a row stamps a new updated_at: an equal one is the version already held, an
      // older one lost a race with a read-through of a newer version.
      if (!cached || row.updatedAt.getTime() > cached.updatedAt.getTime()) {
        this.piles.set(row.chargePointId, row);
        if (cached) this.notify(cached, row);
      }
      this.misses.delete(row.chargePointId);
    }
    this.polledAt = polledAt;
  }

  private notify(previous: PileRecord, current: PileRecord | undefined): void {
    try {
      this.options.onChange?.(previous, current);
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  /** Piles held (for tests and diagnostics). */
  get size(): number {
    return this.piles.size;
  }
}
