import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { MSG_REDIS } from '../shared/database.module';

export const STOMP_FANOUT_CHANNEL = Symbol('STOMP_FANOUT_CHANNEL');

/** What travels on the Redis fan-out channel: every replica delivers it to its own matching sessions. */
export type FanoutMessage =
  | { kind: 'users'; userIds: number[]; destination: string; body: string; headers?: Record<string, string> }
  /** A different body per user on one destination (an inbox row per receiver), in one message. */
  | { kind: 'each'; destination: string; items: { userId: number; body: string }[] };

/** Items per `each` message: one publish per this many users keeps single messages reasonably small. */
const EACH_CHUNK = 1000;

/**
 * Pushes to STOMP sessions wherever they are connected: published once on Redis pub/sub, delivered by
 * every msg-center replica to its local sessions. Usable from processes without a STOMP server (worker).
 */
@Injectable()
export class PushPublisher {
  constructor(
    @Inject(MSG_REDIS) private readonly redis: Redis,
    @Inject(STOMP_FANOUT_CHANNEL) private readonly channel: string,
  ) {}

  /** Deliver `body` (JSON-encoded) on a `/user/...` destination to every session of these users. */
  async toUsers(userIds: number[], destination: string, body: unknown): Promise<void> {
    if (userIds.length === 0) return;
    await this.publish({ kind: 'users', userIds, destination, body: JSON.stringify(body) });
  }

  /** Deliver each body (JSON-encoded) to every session of its user; one publish per EACH_CHUNK users. */
  async toEach(destination: string, items: { userId: number; body: unknown }[]): Promise<void> {
    for (let i = 0; i < items.length; i += EACH_CHUNK) {
      await this.publish({
        kind: 'each',
        destination,
        items: items
          .slice(i, i + EACH_CHUNK)
          .map((item) => ({ userId: item.userId, body: JSON.stringify(item.body) })),
      });
    }
  }

  private async publish(message: FanoutMessage): Promise<void> {
    await this.redis.publish(this.channel, JSON.stringify(message));
  }
}
