import type { IdTagRepository } from './id-tag.repository';

export type OpenTransactionsOptions = {
  /** Longest wait for the database's answer before answering from memory (ms). */
  queryTimeoutMs?: number;
  /** Full reload of the open transactions from the database (ms; 0: never). */
  refreshMs?: number;
  onError?: (error: unknown) => void;
};

/**
 * Which tags have a transaction open, for Authorize's ConcurrentTx. The database is asked first (one
 * indexed query, exact across replicas); when it fails or does not answer within `queryTimeoutMs`, the
 * answer comes from memory: the open transactions as of the last full reload (`refreshMs`), plus the
 * starts and stops this replica has written since. That copy misses what other replicas did since the
 * reload, which is acceptable for Authorize: StartTransaction makes the exact check in its own database
 * transaction (and cannot be recorded at all while the database is down).
 */
export class OpenTransactions {
  /** transactionId -> idTag. */
  private readonly open = new Map<number, string>();
  private readonly countByTag = new Map<string, number>();
  /** Local starts and stops during a reload, applied again on top of what it read. */
  private pending: ((open: OpenTransactions) => void)[] | undefined;
  private timer?: NodeJS.Timeout;
  /** Answers given from memory (the database failed or was too slow). */
  fallbacks = 0;

  constructor(
    private readonly repository: Pick<IdTagRepository, 'hasOpenTransaction' | 'openTransactions'>,
    private readonly options: OpenTransactionsOptions = {},
  ) {}

  async start(): Promise<void> {
    await this.refresh().catch((error) => this.options.onError?.(error));
    const every = this.options.refreshMs ?? 10_000;
    if (every > 0) {
      this.timer = setInterval(() => void this.refresh().catch((e) => this.options.onError?.(e)), every);
      this.timer.unref();
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Whether `idTag` has a transaction open: the database's answer, or memory's when it has none in time. */
  async has(idTag: string): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.options.queryTimeoutMs ?? 150);
    });
    try {
      const answer = await Promise.race([this.repository.hasOpenTransaction(idTag), timeout]);
      if (answer !== 'timeout') return answer;
    } catch (error) {
      this.options.onError?.(error);
    } finally {
      clearTimeout(timer);
    }
    this.fallbacks++;
    return this.hasInMemory(idTag);
  }

  hasInMemory(idTag: string): boolean {
    return (this.countByTag.get(idTag) ?? 0) > 0;
  }

  /** A start this replica committed. */
  started(transactionId: number, idTag: string): void {
    this.pending?.push((o) => o.add(transactionId, idTag));
    this.add(transactionId, idTag);
  }

  /** A stop this replica committed (or found already made). */
  stopped(transactionId: number): void {
    this.pending?.push((o) => o.remove(transactionId));
    this.remove(transactionId);
  }

  /** Reload every open transaction (a few thousand rows at most in a large depot). */
  async refresh(): Promise<void> {
    if (this.pending) return; // one at a time
    this.pending = [];
    try {
      const rows = await this.repository.openTransactions();
      this.open.clear();
      this.countByTag.clear();
      for (const row of rows) this.add(row.transactionId, row.idTag);
      for (const apply of this.pending) apply(this);
    } finally {
      this.pending = undefined;
    }
  }

  private add(transactionId: number, idTag: string): void {
    if (this.open.has(transactionId)) return;
    this.open.set(transactionId, idTag);
    this.countByTag.set(idTag, (this.countByTag.get(idTag) ?? 0) + 1);
  }

  private remove(transactionId: number): void {
    const idTag = this.open.get(transactionId);
    if (idTag === undefined) return;
    this.open.delete(transactionId);
    const left = (this.countByTag.get(idTag) ?? 1) - 1;
    if (left > 0) this.countByTag.set(idTag, left);
    else this.countByTag.delete(idTag);
  }
}
