import type { IdTagInfo } from '@voltdepot/shared-ocpp';
import type { IdTagRecord, IdTagRepository } from './id-tag.repository';

export type IdTagCacheOptions = { ttlMs?: number; maxEntries?: number; now?: () => Date };

/**
 * Cached id-tag look-ups: a pile waits for Authorize with a short timeout, and bus depots present the
 * same cards all night. Entries live `ttlMs`, so a blocked card takes effect within that delay.
 */
export class IdTagCache {
  private readonly entries = new Map<string, { record: IdTagRecord | undefined; at: number }>();

  constructor(
    private readonly repository: IdTagRepository,
    private readonly options: IdTagCacheOptions = {},
  ) {}

  async find(idTag: string): Promise<IdTagRecord | undefined> {
    const hit = this.entries.get(idTag);
    if (hit && Date.now() - hit.at < (this.options.ttlMs ?? 5_000)) return hit.record;
    const record = await this.repository.find(idTag);
    if (this.entries.size >= (this.options.maxEntries ?? 50_000)) this.entries.clear();
    this.entries.set(idTag, { record, at: Date.now() });
    return record;
  }

  /** Authorization decision for a tag; `hasOtherTransaction` reports a concurrent transaction. */
  async authorize(idTag: string, hasOtherTransaction: () => Promise<boolean>): Promise<IdTagInfo> {
    const record = await this.find(idTag);
    const info = decideIdTag(record, this.options.now?.() ?? new Date());
    if (info.status === 'Accepted' && (await hasOtherTransaction()))
      return { ...info, status: 'ConcurrentTx' };
    return info;
  }

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
