import { Inject, Injectable } from '@nestjs/common';
import { AuthException } from '@voltdepot/server-core';
import { AuthErrorCodes } from '@voltdepot/shared-contracts';
import type Redis from 'ioredis';
import { IDENTITY_OPTIONS, IDENTITY_REDIS, IdentityOptions } from '../identity.options';

/**
 * Brute-force protection: failed sign-ins are counted per account and per client address within a
 * window; reaching the limit locks that account (or address) for `lockSeconds`.
 */
@Injectable()
export class LoginThrottleService {
  constructor(
    @Inject(IDENTITY_REDIS) private readonly redis: Redis,
    @Inject(IDENTITY_OPTIONS) private readonly options: IdentityOptions,
  ) {}

  async assertAllowed(username: string, address: string): Promise<void> {
    const [accountTtl, addressTtl] = await Promise.all([
      this.redis.ttl(lockKey('user', username)),
      this.redis.ttl(lockKey('ip', address)),
    ]);
    if (accountTtl > 0) {
      throw new AuthException(
        AuthErrorCodes.AccountLocked,
        `Too many failed sign-in attempts: this account is locked, try again in ${minutes(accountTtl)}`,
        { retryAfterSeconds: accountTtl },
      );
    }
    if (addressTtl > 0) {
      throw new AuthException(
        AuthErrorCodes.AddressThrottled,
        `Too many failed sign-in attempts from your address: try again in ${minutes(addressTtl)}`,
        { retryAfterSeconds: addressTtl },
      );
    }
  }

  async recordFailure(username: string, address: string): Promise<void> {
    const { maxAccountFailures, maxAddressFailures } = this.options.throttle;
    await Promise.all([
      this.count('user', username, maxAccountFailures),
      this.count('ip', address, maxAddressFailures),
    ]);
  }

  async recordSuccess(username: string): Promise<void> {
    await this.redis.del(failKey('user', username));
  }

  private async count(kind: 'user' | 'ip', subject: string, max: number): Promise<void> {
    const { windowSeconds, lockSeconds } = this.options.throttle;
    const [[, failures]] = (await this.redis
      .multi()
      .incr(failKey(kind, subject))
      .expire(failKey(kind, subject), windowSeconds, 'NX')
      .exec()) as [[Error | null, number], [Error | null, number]];
    if (failures >= max) {
      await this.redis
        .multi()
        .set(lockKey(kind, subject), '1', 'EX', lockSeconds)
        .del(failKey(kind, subject))
        .exec();
    }
  }
}

const normalise = (subject: string) => subject.trim().toLowerCase();
const failKey = (kind: string, subject: string) => `login-fail:${kind}:${normalise(subject)}`;
const lockKey = (kind: string, subject: string) => `login-lock:${kind}:${normalise(subject)}`;

function minutes(seconds: number): string {
  const m = Math.ceil(seconds / 60);
  return m === 1 ? '1 minute' : `${m} minutes`;
}
