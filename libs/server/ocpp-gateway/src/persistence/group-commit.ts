import type { DataSource, EntityManager } from 'typeorm';

export type GroupCommitOptions = {
  /** Name in metrics and log lines ("meter-values", "status", ...). */
  name: string;
  /** Most items written in one database transaction. */
  maxBatch?: number;
  /** How long the first item of a batch waits for company when a connection is free (ms). */
  maxWaitMs?: number;
  /** Batches written at the same time, i.e. pool connections this writer may hold at once. */
  concurrency?: number;
  /**
   * Run each batch's `write` in a database transaction (default). `false` for a writer whose only write
   * is one statement (atomic by itself, committed when it ends) after any reads: it saves the BEGIN and
   * COMMIT round trips, which on a busy machine are each a wake-up of the database backend.
   */
  transaction?: boolean;
  /** After each committed batch (the writer's items, the time the transaction took). */
  onBatch?: (name: string, size: number, seconds: number) => void;
  onError?: (error: unknown) => void;
};

type Waiting<I, R> = { item: I; resolve: (result: R) => void; reject: (error: unknown) => void };

/**
 * Group commit: items submitted within a few milliseconds of each other are written in one database
 * transaction, and each caller is answered only after that transaction has committed. Under load the
 * batches grow by themselves: while `concurrency` batches are being written, new items wait and form
 * the next batch, so a thousand meter values per second cost tens of commits, not a thousand.
 *
 * Durability is that of a single transaction per item: nothing is acknowledged before its commit, and
 * a process that dies before the commit acknowledged nothing, so the sender retries. A batch that fails
 * is retried item by item, so one bad item fails alone instead of taking its neighbours with it.
 * The writer holds at most `concurrency` pool connections, which leaves the rest of the pool to other
 * work (the gateway's transaction messages).
 */
export class GroupCommit<I, R> {
  private waiting: Waiting<I, R>[] = [];
  private running = 0;
  private timer?: NodeJS.Timeout;
  private idle?: { promise: Promise<void>; resolve: () => void };
  batches = 0;
  items = 0;
  /** Seconds spent writing committed batches (summed over concurrent ones). */
  busySeconds = 0;
  /** The longest a committed batch took (s). */
  maxSeconds = 0;

  constructor(
    private readonly dataSource: DataSource,
    /** Writes the items inside the given transaction; returns one result per item, in order. */
    private readonly write: (manager: EntityManager, items: I[]) => Promise<R[]>,
    private readonly options: GroupCommitOptions,
  ) {}

  /** Items waiting for a batch (not yet being written). */
  get backlog(): number {
    return this.waiting.length;
  }

  /** Resolves with the item's result once the transaction that wrote it has committed. */
  submit(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves when nothing is waiting or being written (used at shutdown). */
  async drain(): Promise<void> {
    while (this.waiting.length || this.running) {
      if (this.waiting.length && this.running < this.concurrency) this.flush();
      this.idle ??= withResolvers();
      await this.idle.promise;
    }
  }

  private get concurrency(): number {
    return this.options.concurrency ?? 1;
  }

  private get maxBatch(): number {
    return this.options.maxBatch ?? 200;
  }

  private schedule(): void {
    if (this.running >= this.concurrency) return; // the next batch starts when one finishes
    if (this.waiting.length >= this.maxBatch) {
      this.flush();
      return;
    }
    if (!this.timer) this.timer = setTimeout(() => this.flush(), this.options.maxWaitMs ?? 2);
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.waiting.length || this.running >= this.concurrency) return;
    const batch = this.waiting.splice(0, this.maxBatch);
    this.running++;
    void this.writeBatch(batch).finally(() => {
      this.running--;
      // Items that arrived while this batch was written go at once: they have waited long enough.
      if (this.waiting.length) this.flush();
      else if (!this.running && this.idle) {
        this.idle.resolve();
        this.idle = undefined;
      }
    });
  }

  private async writeBatch(batch: Waiting<I, R>[]): Promise<void> {
    const started = performance.now();
    let results: R[];
    try {
      results = await this.transaction(batch.map((w) => w.item));
    } catch (error) {
      if (batch.length === 1) {
        batch[0].reject(error);
        return;
      }
      this.options.onError?.(error);
      // Isolate the item that failed: each one again in its own transaction.
      for (const waiting of batch) {
        const itemStarted = performance.now();
        try {
          const [result] = await this.transaction([waiting.item]);
          this.committed(1, itemStarted);
          waiting.resolve(result);
        } catch (itemError) {
          waiting.reject(itemError);
        }
      }
      return;
    }
    this.committed(batch.length, started);
    batch.forEach((waiting, i) => waiting.resolve(results[i]));
  }

  /** Counts a committed transaction of `size` items (single-item retries after a failed batch too). */
  private committed(size: number, started: number): void {
    const seconds = (performance.now() - started) / 1000;
    this.batches++;
    this.items += size;
    this.busySeconds += seconds;
    this.maxSeconds = Math.max(this.maxSeconds, seconds);
    this.options.onBatch?.(this.options.name, size, seconds);
  }

  private async transaction(items: I[]): Promise<R[]> {
    const results =
      this.options.transaction === false
        ? await this.write(this.dataSource.manager, items)
        : await this.dataSource.transaction((manager) => this.write(manager, items));
    if (results.length !== items.length)
      throw new Error(`${this.options.name}: ${results.length} results for ${items.length} items`);
    return results;
  }
}

function withResolvers(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/**
 * Several group-commit writers side by side, each item going to the one its key hashes to: items of one
 * key are written one batch at a time, in submission order, by the same writer (so a check that must see
 * every earlier item of its key, such as "this card already has an open transaction", still does), while
 * items of different keys are written in parallel transactions.
 */
export class ShardedGroupCommit<I, R> {
  private readonly shards: GroupCommit<I, R>[];

  constructor(
    dataSource: DataSource,
    write: (manager: EntityManager, items: I[]) => Promise<R[]>,
    options: Omit<GroupCommitOptions, 'concurrency'> & { shards: number; keyOf: (item: I) => string },
  ) {
    const { shards, keyOf, ...writerOptions } = options;
    if (!Number.isInteger(shards) || shards < 1) throw new Error(`${options.name}: shards must be >= 1`);
    this.keyOf = keyOf;
    this.shards = Array.from(
      { length: shards },
      () => new GroupCommit(dataSource, write, { ...writerOptions, concurrency: 1 }),
    );
  }

  private readonly keyOf: (item: I) => string;

  submit(item: I): Promise<R> {
    return this.shards[shardOf(this.keyOf(item), this.shards.length)].submit(item);
  }

  get backlog(): number {
    return this.sum((s) => s.backlog);
  }

  get batches(): number {
    return this.sum((s) => s.batches);
  }

  get items(): number {
    return this.sum((s) => s.items);
  }

  get busySeconds(): number {
    return this.sum((s) => s.busySeconds);
  }

  get maxSeconds(): number {
    return Math.max(...this.shards.map((s) => s.maxSeconds));
  }

  async drain(): Promise<void> {
    await Promise.all(this.shards.map((s) => s.drain()));
  }

  private sum(of: (shard: GroupCommit<I, R>) => number): number {
    return this.shards.reduce((total, shard) => total + of(shard), 0);
  }
}

/** FNV-1a of the key's UTF-16 code units, reduced to a shard number (stable across processes). */
export function shardOf(key: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % shards;
}
