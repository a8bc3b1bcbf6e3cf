import type { IdTagInfo } from '@voltdepot/shared-ocpp';
import type { IdTagRecord, IdTagRepository } from './id-tag.repository';

export type IdTagCacheOptions = {
  ttlMs?: number;
  /**
   * How old (since its last successful read) an entry may be and still answer when reading it again
   * fails or takes longer than `readTimeoutMs` (ms; default 24 h).
   */
  maxStaleMs?: number;
  /** Longest wait for a fresh read of a tag that has a stale entry before answering with it (ms). */
  readTimeoutMs?: number;
  /** A read that failed (the entry it would have refreshed answered instead, when there was one). */
  onReadError?: (error: unknown) => void;
  /**
   * How each look-up was answered: `hit` (a fresh entry), `read` (from the database), `stale` (a known
   * entry, because reading it again failed or was too slow), `failed` (no answer: never read, database down).
   */
  onLookup?: (result: IdTagLookupResult) => void;
  maxEntries?: number;
  /** Most tags read in one query. */
  maxBatch?: number;
  now?: () => Date;
};

export type IdTagLookupResult = 'hit' | 'read' | 'stale' | 'failed';

type Lookup = {
  idTag: string;
  resolve: (record: IdTagRecord | undefined) => void;
  reject: (error: unknown) => void;
};

/**
 * Cached id-tag look-ups: a pile waits for Authorize with a short timeout, and bus depots present the
 * same cards all night. Entries live `ttlMs`, so a blocked card takes effect within that delay. Misses
 * arriving together (a depot's buses starting at once) are read in one query, and a tag already being
 * read is not read twice. Stale-while-error: a tag read before answers from its last known entry, up to
 * `maxStaleMs` old, when reading it again fails or takes longer than `readTimeoutMs`, so cards known to
 * the gateway keep working while the database is down; a tag never read has no answer then.
 */
export class IdTagCache {
  private readonly entries = new Map<string, { record: IdTagRecord | undefined; at: number }>();
  private readonly reading = new Map<string, Promise<IdTagRecord | undefined>>();
  private queue: Lookup[] = [];
  private scheduled = false;

  constructor(
    private readonly repository: Pick<IdTagRepository, 'findMany'>,
    private readonly options: IdTagCacheOptions = {},
  ) {}

  /** Answers given from a stale entry because its read failed or was too slow. */
  staleAnswers = 0;

  find(idTag: string): Promise<IdTagRecord | undefined> {
    const counted = this.options.onLookup;
    const hit = this.entries.get(idTag);
    const age = hit ? Date.now() - hit.at : Infinity;
    if (hit && age < (this.options.ttlMs ?? 5_000)) {
      counted?.('hit');
      return Promise.resolve(hit.record);
    }
    const read = this.read(idTag);
    if (!hit || age > (this.options.maxStaleMs ?? 86_400_000)) {
      if (counted)
        read.then(
          () => counted('read'),
          () => counted('failed'),
        );
      return read;
    }
    return new Promise((resolve) => {
      let answered = false;
      const stale = () => {
        if (answered) return;
        answered = true;
        this.staleAnswers++;
        counted?.('stale');
        resolve(hit.record);
      };
      const timer = setTimeout(stale, this.options.readTimeoutMs ?? 150);
      read.then(
        (record) => {
          clearTimeout(timer);
          if (answered) return;
          answered = true;
          counted?.('read');
          resolve(record);
        },
        () => {
          clearTimeout(timer);
          stale();
        },
      );
    });
  }

  private read(idTag: string): Promise<IdTagRecord | undefined> {
    const reading = this.reading.get(idTag);
    if (reading) return reading;
    const lookup = new Promise<IdTagRecord | undefined>((resolve, reject) => {
      this.queue.push({ idTag, resolve, reject });
      this.schedule();
    }).finally(() => this.reading.delete(idTag));
    this.reading.set(idTag, lookup);
    return lookup;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // After the current I/O callbacks: the calls that arrived in the same read of the sockets join.
    setImmediate(() => {
      this.scheduled = false;
      void this.readQueued();
    });
  }

  private async readQueued(): Promise<void> {
    const batch = this.queue.splice(0, this.options.maxBatch ?? 500);
    if (this.queue.length) this.schedule();
    if (!batch.length) return;
    try {
      const found = await this.repository.findMany(batch.map((l) => l.idTag));
      if (this.entries.size + batch.length > (this.options.maxEntries ?? 50_000)) this.entries.clear();
      const at = Date.now();
      for (const { idTag, resolve } of batch) {
        const record = found.get(idTag);
        this.entries.set(idTag, { record, at });
        resolve(record);
      }
    } catch (error) {
      this.options.onReadError?.(error);
      for (const { reject } of batch) reject(error);
    }
  }

  /** Authorization decision for a tag; `hasOtherTransaction` reports a concurrent transaction. */
  async authorize(idTag: string, hasOtherTransaction: () => Promise<boolean>): Promise<IdTagInfo> {
    const record = await this.find(idTag);
    const info = decideIdTag(record, this.options.now?.() ?? new Date());
    if (info.status === 'Accepted' && (await hasOtherTransaction()))
      return { ...info, status: 'ConcurrentTx' };
    return info;
  }

  /**
   * Make a tag's entry stale: the next look-up reads it again, and still answers from it if that read
   * fails or is slow (unlike `invalidate`).
   */
  expire(idTag: string): void {
    const entry = this.entries.get(idTag);
    if (entry) entry.at = Math.min(entry.at, Date.now() - (this.options.ttlMs ?? 5_000));
  }

  /** Forget entries: the next look-up reads again (and a forgotten tag has no stale answer). */
  invalidate(idTag?: string): void {
    if (idTag === undefined) this.entries.clear();
    else this.entries.delete(idTag);
  }
}

/** The OCPP idTagInfo for a read-model row; unknown tags are Invalid. */
export function decideIdTag(record: IdTagRecord | undefined, now: Date): IdTagInfo {
  if (!record) return { status: 'Invalid' };
  const extra: Omit<IdTagInfo, 'status'> = {};
  if (record.expiryDate) extra.expiryDate = new Date(record.expiryDate).toISOString();
  if (record.parentIdTag) extra.parentIdTag = record.parentIdTag;
  if (record.status !== 'Accepted') return { status: record.status, ...extra };
  if (record.expiryDate && new Date(record.expiryDate).getTime() <= now.getTime())
    return { status: 'Expired', ...extra };
  return { status: 'Accepted', ...extra };
}
