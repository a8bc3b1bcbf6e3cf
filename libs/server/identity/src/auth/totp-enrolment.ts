import { Inject, Injectable } from '@nestjs/common';
import { AuthException } from '@voltdepot/server-core';
import { AuthErrorCodes, type TotpEnrolmentTicket } from '@voltdepot/shared-contracts';
import type Redis from 'ioredis';
import { createHash, randomBytes } from 'node:crypto';
import { IDENTITY_REDIS } from '../identity.options';

const TICKET_SECONDS = 600;
/** Wrong codes one ticket survives; then the administrator signs in again (captcha and password). */
export const TICKET_MAX_ATTEMPTS = 5;

/**
 * Enrolment tickets: proof that a sign-in passed captcha and password and now only lacks the second
 * factor. A ticket allows nothing but enrolling this user's TOTP; it is kept in Redis as a hash,
 * expires in 10 minutes and is deleted when used or after too many wrong codes.
 */
@Injectable()
export class TotpEnrolmentTickets {
  constructor(@Inject(IDENTITY_REDIS) private readonly redis: Redis) {}

  async issue(userId: number, now = Date.now()): Promise<TotpEnrolmentTicket> {
    const enrolmentToken = randomBytes(32).toString('base64url');
    await this.redis.set(ticketKey(enrolmentToken), String(userId), 'EX', TICKET_SECONDS);
    return { enrolmentToken, expiresAt: now + TICKET_SECONDS * 1000 };
  }

  async userOf(token: string): Promise<number> {
    const userId = await this.redis.get(ticketKey(token));
    if (userId === null) throw ticketInvalid();
    return Number(userId);
  }

  /** Counts a wrong code; the ticket dies at the limit. */
  async recordFailure(token: string): Promise<void> {
    const key = `${ticketKey(token)}:failures`;
    const failures = await this.redis.multi().incr(key).expire(key, TICKET_SECONDS).exec();
    if (Number(failures?.[0]?.[1]) >= TICKET_MAX_ATTEMPTS) await this.consume(token);
  }

  /** Ends the ticket; false when it was already gone (used by a parallel call). */
  async consume(token: string): Promise<boolean> {
    const removed = await this.redis.del(ticketKey(token));
    await this.redis.del(`${ticketKey(token)}:failures`);
    return removed === 1;
  }
}

function ticketKey(token: string): string {
  return `totp-enrolment:${createHash('sha256').update(token).digest('hex')}`;
}

export function ticketInvalid(): AuthException {
  return new AuthException(
    AuthErrorCodes.TotpEnrolmentInvalid,
    'The two-factor set-up has expired or was already used; sign in again',
  );
}
