import type Redis from 'ioredis';
import type { ImportProgress } from './import-runner';

/** Where a running import leaves its progress for the client to poll. */
export interface ImportProgressStore {
  set(owner: string, id: string, progress: ImportProgress): Promise<void>;
  get(owner: string, id: string): Promise<ImportProgress | null>;
}

/** A client-chosen id for one import's progress (a UUID, so it cannot be guessed). */
export const IMPORT_PROGRESS_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Progress in Redis, under the owner (e.g. the user id) so nobody reads another user's import, kept for
 * an hour after the last update. Shared by every api instance, whichever one runs the import.
 */
export class RedisImportProgressStore implements ImportProgressStore {
  constructor(
    private readonly redis: Redis,
    private readonly ttlSeconds = 3600,
  ) {}

  async set(owner: string, id: string, progress: ImportProgress): Promise<void> {
    await this.redis.set(key(owner, id), JSON.stringify(progress), 'EX', this.ttlSeconds);
  }

  async get(owner: string, id: string): Promise<ImportProgress | null> {
    const stored = await this.redis.get(key(owner, id));
    return stored === null ? null : (JSON.parse(stored) as ImportProgress);
  }
}

const key = (owner: string, id: string) => `import-progress:${owner}:${id.toLowerCase()}`;
