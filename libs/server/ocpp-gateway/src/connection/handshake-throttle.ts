import type Redis from 'ioredis';

export type HandshakeThrottleOptions = {
  /** Redis key prefix of the deployment (OCPP_REDIS_PREFIX): every replica counts in the same keys. */
  prefix: string;
  /** A failure counts for this long after the first failure of its series (s). */
  windowS: number;
  /** Failed handshakes of one charge point id within the window before its handshakes are refused (0: no limit). */
  maxPerPile: number;
  /** Failed handshakes from one remote address within the window before its handshakes are refused (0: no limit). */
  maxPerAddress: number;
};

export type ThrottleKey = { scope: 'pile' | 'address'; value: string };

/** INCR every key, starting its window (EXPIRE) when the key is new; returns the counts. */
const COUNT_FAILURE = `
local counts = {}
for i, key in ipairs(KEYS) do
  local n = redis.call('INCR', key)
  if n == 1 then redis.call('EXPIRE', key, ARGV[1]) end
  counts[i] = n
end
return counts`;

/**
 * Failed pile handshakes counted per charge point id and per remote address, in Redis so that every
 * replica sees the same counts (a pile retrying against a load balancer lands on any of them). A fixed
 * window: a key lives `windowS` from its first failure, so memory is bounded by the ids and addresses
 * that failed within one window, and a lock ends by itself when its key expires. A successful handshake
 * does not reset the count: otherwise a guesser who knows a pile's id would get a fresh allowance every
 * time the pile reconnects.
 */
export class HandshakeThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly options: HandshakeThrottleOptions,
  ) {}

  /** The first id or address of this handshake that has used up its failures, if any. */
  async lockedKey(
    chargePointId: string,
    remoteAddress: string | undefined,
  ): Promise<ThrottleKey | undefined> {
    const keys = this.keysOf(chargePointId, remoteAddress);
    if (!keys.length) return undefined;
    const counts = await this.redis.mget(...keys.map((k) => k.redisKey));
    return keys.find((key, i) => Number(counts[i] ?? 0) >= key.max)?.key;
  }

  /** Count a failure; returns the keys whose count has just reached their limit (to log the lock once). */
  async recordFailure(chargePointId: string, remoteAddress: string | undefined): Promise<ThrottleKey[]> {
    const keys = this.keysOf(chargePointId, remoteAddress);
    if (!keys.length) return [];
    const counts = (await this.redis.eval(
      COUNT_FAILURE,
      keys.length,
      ...keys.map((k) => k.redisKey),
      this.options.windowS,
    )) as number[];
    return keys.filter((key, i) => counts[i] === key.max).map((k) => k.key);
  }

  private keysOf(
    chargePointId: string,
    remoteAddress: string | undefined,
  ): { key: ThrottleKey; redisKey: string; max: number }[] {
    const { prefix, maxPerPile, maxPerAddress } = this.options;
    const keys: { key: ThrottleKey; redisKey: string; max: number }[] = [];
    if (maxPerPile > 0)
      keys.push({
        key: { scope: 'pile', value: chargePointId },
        redisKey: `${prefix}:auth-failures:pile:${chargePointId}`,
        max: maxPerPile,
      });
    const address = normalizeAddress(remoteAddress);
    if (maxPerAddress > 0 && address)
      keys.push({
        key: { scope: 'address', value: address },
        redisKey: `${prefix}:auth-failures:address:${address}`,
        max: maxPerAddress,
      });
    return keys;
  }
}

/** An IPv4 client seen through an IPv6 socket (`::ffff:10.0.0.1`) counts as its IPv4 address. */
export function normalizeAddress(address: string | undefined): string | undefined {
  if (!address) return undefined;
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}
