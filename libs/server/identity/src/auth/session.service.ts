import { Inject, Injectable } from '@nestjs/common';
import { AuthException, sessionKey, signAccessToken } from '@voltdepot/server-core';
import { AuthErrorCodes, SessionTokens } from '@voltdepot/shared-contracts';
import type Redis from 'ioredis';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { IDENTITY_OPTIONS, IDENTITY_REDIS, IdentityOptions } from '../identity.options';

/**
 * Sessions are refresh-token families kept in Redis: `session:<sid>` holds the hash of the one current
 * refresh token. Refreshing swaps it atomically; presenting any other token of the family (a rotated one)
 * deletes the session, which also revokes every access token carrying that sid (the guard checks it).
 */
const ROTATE = `
local current = redis.call('HGET', KEYS[1], 'current')
if not current then return 0 end
if current == ARGV[1] then
  redis.call('HSET', KEYS[1], 'current', ARGV[2])
  redis.call('EXPIRE', KEYS[1], ARGV[3])
  return 1
end
redis.call('DEL', KEYS[1])
return -1`;

export type SessionUser = { id: number; username: string };

@Injectable()
export class SessionService {
  constructor(
    @Inject(IDENTITY_REDIS) private readonly redis: Redis,
    @Inject(IDENTITY_OPTIONS) private readonly options: IdentityOptions,
  ) {}

  async start(user: SessionUser, now = Date.now()): Promise<SessionTokens> {
    const sessionId = randomUUID();
    const refreshToken = newRefreshToken(sessionId);
    const ttl = this.options.refreshTokenTtlSeconds;
    await this.redis
      .multi()
      .hset(sessionKey(sessionId), { userId: String(user.id), current: digest(refreshToken) })
      .expire(sessionKey(sessionId), ttl)
      .sadd(userSessionsKey(user.id), sessionId)
      .expire(userSessionsKey(user.id), ttl)
      .exec();
    return this.tokens(user, sessionId, refreshToken, now);
  }

  /** Returns the session's user id and new tokens; throws 401 for unknown, expired or re-used tokens. */
  async rotate(
    refreshToken: string,
    loadUser: (userId: number) => Promise<SessionUser | null>,
    now = Date.now(),
  ): Promise<SessionTokens> {
    const sessionId = refreshToken.split('.')[0];
    if (!/^[0-9a-f-]{36}$/.test(sessionId)) throw invalidRefresh();
    const userId = Number(await this.redis.hget(sessionKey(sessionId), 'userId'));
    const next = newRefreshToken(sessionId);
    const result = (await this.redis.eval(
      ROTATE,
      1,
      sessionKey(sessionId),
      digest(refreshToken),
      digest(next),
      String(this.options.refreshTokenTtlSeconds),
    )) as number;
    if (result === 0) throw invalidRefresh();
    if (result === -1) {
      await this.redis.srem(userSessionsKey(userId), sessionId);
      throw new AuthException(
        AuthErrorCodes.RefreshReused,
        'Refresh token was already used; the session has been revoked, please sign in again',
      );
    }
    const user = await loadUser(userId);
    if (user === null) {
      await this.revoke(sessionId, userId);
      throw invalidRefresh();
    }
    return this.tokens(user, sessionId, next, now);
  }

  /** The session id a refresh token belongs to, if it is the current token of a live session. */
  async sessionOfRefreshToken(refreshToken: string): Promise<{ sessionId: string; userId: number } | null> {
    const sessionId = refreshToken.split('.')[0];
    const session = await this.redis.hgetall(sessionKey(sessionId));
    if (session['current'] !== digest(refreshToken)) return null;
    return { sessionId, userId: Number(session['userId']) };
  }

  async revoke(sessionId: string, userId: number): Promise<void> {
    await this.redis.multi().del(sessionKey(sessionId)).srem(userSessionsKey(userId), sessionId).exec();
  }

  /** Ends every session of a user (disable, delete, password reset), optionally keeping one. */
  async revokeAllOf(userId: number, keepSessionId?: string): Promise<void> {
    const sessions = (await this.redis.smembers(userSessionsKey(userId))).filter((s) => s !== keepSessionId);
    if (sessions.length === 0) return;
    await this.redis
      .multi()
      .del(...sessions.map(sessionKey))
      .srem(userSessionsKey(userId), ...sessions)
      .exec();
  }

  private async tokens(
    user: SessionUser,
    sessionId: string,
    refreshToken: string,
    now: number,
  ): Promise<SessionTokens> {
    const access = await signAccessToken(
      { userId: user.id, username: user.username, sessionId },
      this.options.jwtSecret,
      this.options.accessTokenTtlSeconds,
      now,
    );
    return {
      accessToken: access.token,
      expires: access.expiresAt,
      refreshToken,
      refreshExpires: now + this.options.refreshTokenTtlSeconds * 1000,
      tokenType: 'Bearer',
    };
  }
}

function newRefreshToken(sessionId: string): string {
  return `${sessionId}.${randomBytes(32).toString('base64url')}`;
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function userSessionsKey(userId: number): string {
  return `user-sessions:${userId}`;
}

function invalidRefresh(): AuthException {
  return new AuthException(
    AuthErrorCodes.RefreshInvalid,
    'Refresh token is invalid or has expired; please sign in again',
  );
}
