import Redis from 'ioredis';
import { testEnv } from './test-env';

/** Tests clean up after themselves: drops every key under a test's own Redis prefix. */
export async function deleteRedisKeys(prefix: string, url = testEnv().redisUrl): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
