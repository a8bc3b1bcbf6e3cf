import { Inject, Injectable } from '@nestjs/common';
import { AuthException } from '@voltdepot/server-core';
import { AuthErrorCodes, CaptchaResponse } from '@voltdepot/shared-contracts';
import type Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import svgCaptcha from 'svg-captcha';
import { IDENTITY_OPTIONS, IDENTITY_REDIS, IdentityOptions } from '../identity.options';

/**
 * One-time image codes kept in Redis until they expire or are tried once; each client address may fetch
 * `captchaRate.maxPerAddress` of them per window (an image costs CPU and a Redis key).
 */
@Injectable()
export class CaptchaService {
  constructor(
    @Inject(IDENTITY_REDIS) private readonly redis: Redis,
    @Inject(IDENTITY_OPTIONS) private readonly options: IdentityOptions,
  ) {}

  async create(address: string, now = Date.now()): Promise<CaptchaResponse> {
    await this.countIssued(address);
    const captcha = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0oO1ilI', color: true });
    const captchaId = randomUUID();
    await this.redis.set(key(captchaId), captcha.text.toLowerCase(), 'EX', this.options.captchaTtlSeconds);
    const response: CaptchaResponse = {
      captchaId,
      image: `data:image/svg+xml;base64,${Buffer.from(captcha.data).toString('base64')}`,
      expiresAt: now + this.options.captchaTtlSeconds * 1000,
    };
    if (this.options.exposeCaptchaAnswer) response.testAnswer = captcha.text;
    return response;
  }

  /** A fixed window per address: the first captcha starts it, the one beyond the limit is refused. */
  private async countIssued(address: string): Promise<void> {
    const { maxPerAddress, windowSeconds } = this.options.captchaRate;
    const [[, issued], , [, ttl]] = (await this.redis
      .multi()
      .incr(rateKey(address))
      .expire(rateKey(address), windowSeconds, 'NX')
      .ttl(rateKey(address))
      .exec()) as [[Error | null, number], unknown, [Error | null, number]];
    if (issued <= maxPerAddress) return;
    const retryAfterSeconds = ttl > 0 ? ttl : windowSeconds;
    throw new AuthException(
      AuthErrorCodes.CaptchaThrottled,
      `Too many verification codes requested from your address: try again in ${retryAfterSeconds} s`,
      { retryAfterSeconds },
    );
  }

  /** Consumes the code whatever the outcome, so each image allows exactly one attempt. */
  async verify(captchaId: string, code: string): Promise<void> {
    const expected = await this.redis.getdel(key(captchaId));
    if (expected === null) {
      throw new AuthException(
        AuthErrorCodes.CaptchaInvalid,
        'Verification code has expired or was already used; get a new one',
        [{ field: 'captchaCode', message: 'Verification code has expired or was already used' }],
      );
    }
    if (expected !== code.trim().toLowerCase()) {
      throw new AuthException(AuthErrorCodes.CaptchaInvalid, 'Verification code is wrong; get a new one', [
        { field: 'captchaCode', message: 'Verification code is wrong' },
      ]);
    }
  }
}

function key(captchaId: string): string {
  return `captcha:${captchaId}`;
}

function rateKey(address: string): string {
  return `captcha-rate:${address.trim().toLowerCase()}`;
}
