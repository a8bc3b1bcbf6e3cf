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
 *
 * An id's failures count against its current credentials (`credentials`: a fingerprint of the stored
 * hash, or none for an unknown id): a pile that kept failing while unknown, or with an old password, is
 * not locked out once the operator registers it or gives it a new password.
 */
export class HandshakeThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly options: HandshakeThrottleOptions,
  ) {}

  /** Whether this address has used up its failures (checked before anything else is looked up). */
  async addressLocked(remoteAddress: string | undefined): Promise<boolean> {
    return this.locked(this.addressKey(remoteAddress));
  }

  /** Whether this id, with these credentials, has used up its failures. */
  async pileLocked(chargePointId: string, credentials: string): Promise<boolean> {
    return this.locked(this.pileKey(chargePointId, credentials));
  }

  /** Count a failure; returns the keys whose count has just reached their limit (to log the lock once). */
  async recordFailure(
    chargePointId: string,
    credentials: string,
    remoteAddress: string | undefined,
  ): Promise<ThrottleKey[]> {
    const keys = [this.pileKey(chargePointId, credentials), this.addressKey(remoteAddress)].filter(
      (key) => key !== undefined,
    );
    if (!keys.length) return [];
    const counts = (await this.redis.eval(
      COUNT_FAILURE,
      keys.length,
      ...keys.map((k) => k.redisKey),
      this.options.windowS,
    )) as number[];
    return keys.filter((key, i) => counts[i] === key.max).map((k) => k.key);
  }

  private async locked(key: Counter | undefined): Promise<boolean> {
    if (!key) return false;
    return Number((await this.redis.get(key.redisKey)) ?? 0) >= key.max;
  }

  private pileKey(chargePointId: string, credentials: string): Counter | undefined {
    const { prefix, maxPerPile } = this.options;
    if (maxPerPile <= 0) return undefined;
    return {
      key: { scope: 'pile', value: chargePointId },
      redisKey: `${prefix}:auth-failures:pile:${chargePointId}:${credentials}`,
      max: maxPerPile,
    };
  }

  private addressKey(remoteAddress: string | undefined): Counter | undefined {
    const { prefix, maxPerAddress } = this.options;
    const address = normalizeAddress(remoteAddress);
    if (maxPerAddress <= 0 || !address) return undefined;
    return {
      key: { scope: 'address', value: address },
      redisKey: `${prefix}:auth-failures:address:${address}`,
      max: maxPerAddress,
    };
  }
}

type Counter = { key: ThrottleKey; redisKey: string; max: number };

/** An IPv4 client seen through an IPv6 socket (`::ffff:10.0.0.1`) counts as its IPv4 address. */
export function normalizeAddress(address: string | undefined): string | undefined {
  if (!address) return undefined;
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}
