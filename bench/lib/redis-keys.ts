import type Redis from 'ioredis';

/** Deletes the keys matching `pattern` (SCAN, so that a large keyspace is not blocked). */
export async function deleteRedisKeys(redis: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
}
