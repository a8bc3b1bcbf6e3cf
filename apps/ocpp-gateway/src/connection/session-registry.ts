import type Redis from 'ioredis';
import type { PileSession } from './pile-session';

export type SessionRegistryOptions = {
  replicaId: string;
  /** Key prefix in Redis (tests use their own). */
  prefix: string;
  /** Connection record lifetime; refreshed while the pile is seen. */
  ttlSeconds?: number;
  /** Minimum interval between two last-seen writes for one pile. */
  touchIntervalMs?: number;
};

export type ConnectionRecord = {
  replicaId: string;
  sessionId: string;
  connectedAt: string;
  lastSeenAt: string;
};

// Delete the connection record only if it still belongs to this session (a newer connection may own it).
const RELEASE = `if redis.call('HGET', KEYS[1], 'sessionId') == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
// Refresh last seen only while the record belongs to this session.
const TOUCH = `if redis.call('HGET', KEYS[1], 'sessionId') == ARGV[1] then
  redis.call('HSET', KEYS[1], 'lastSeenAt', ARGV[2]); return redis.call('EXPIRE', KEYS[1], ARGV[3]) else return 0 end`;

/**
 * Which pile is connected where. Locally: the live sessions of this replica. In Redis: one hash per pile
 * with the owning replica, session and last-seen time, so that any replica can route a command and a
 * new connection on another replica can evict the old one (pub/sub on the eviction channel).
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, PileSession>();
  private readonly lastTouch = new Map<string, number>();
  private subscriber?: Redis;
  private onEvict?: (session: PileSession) => void;
  private refreshTimer?: NodeJS.Timeout;

  constructor(
    private readonly redis: Redis,
    private readonly options: SessionRegistryOptions,
  ) {}

  get replicaId(): string {
    return this.options.replicaId;
  }

  get evictChannel(): string {
    return `${this.options.prefix}:ocpp:evict`;
  }

  connectionKey(chargePointId: string): string {
    return `${this.options.prefix}:ocpp:conn:${chargePointId}`;
  }

  /** Listen for evictions announced by other replicas. */
  async start(onEvict: (session: PileSession) => void): Promise<void> {
    this.onEvict = onEvict;
    this.subscriber = this.redis.duplicate();
    this.subscriber.on('message', (_channel: string, message: string) => {
      try {
        const { chargePointId, sessionId } = JSON.parse(message) as {
          chargePointId: string;
          sessionId: string;
        };
        const local = this.sessions.get(chargePointId);
        if (local && local.sessionId !== sessionId) this.onEvict?.(local);
      } catch {
        // ignore a malformed eviction notice
      }
    });
    await this.subscriber.subscribe(this.evictChannel);
    // A quiet pile (long heartbeat interval) must not lose its connection record while connected.
    this.refreshTimer = setInterval(
      () => void this.refreshAll().catch(() => undefined),
      (this.ttl * 1000) / 3,
    );
    this.refreshTimer.unref();
  }

  /** Extend the record of every local session (only where the record is still ours). */
  async refreshAll(): Promise<void> {
    const now = new Date().toISOString();
    const pipeline = this.redis.pipeline();
    for (const session of this.sessions.values()) {
      pipeline.eval(TOUCH, 1, this.connectionKey(session.chargePointId), session.sessionId, now, this.ttl);
    }
    await pipeline.exec();
  }

  async stop(): Promise<void> {
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    await this.subscriber?.quit().catch(() => undefined);
    this.subscriber = undefined;
  }

  get(chargePointId: string): PileSession | undefined {
    return this.sessions.get(chargePointId);
  }

  all(): PileSession[] {
    return [...this.sessions.values()];
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * Make `session` the pile's connection. Returns the local session it replaces, if any; sessions on
   * other replicas are told to close through the eviction channel.
   */
  async register(session: PileSession): Promise<PileSession | undefined> {
    const previous = this.sessions.get(session.chargePointId);
    this.sessions.set(session.chargePointId, session);
    const now = new Date().toISOString();
    const key = this.connectionKey(session.chargePointId);
    await this.redis
      .multi()
      .del(key)
      .hset(key, {
        replicaId: this.options.replicaId,
        sessionId: session.sessionId,
        connectedAt: session.connectedAt.toISOString(),
        lastSeenAt: now,
      })
      .expire(key, this.ttl)
      .publish(
        this.evictChannel,
        JSON.stringify({ chargePointId: session.chargePointId, sessionId: session.sessionId }),
      )
      .exec();
    this.lastTouch.set(session.chargePointId, Date.now());
    return previous && previous.sessionId !== session.sessionId ? previous : undefined;
  }

  /** Forget a closed session, unless a newer one has taken its place. */
  async release(session: PileSession): Promise<void> {
    if (this.sessions.get(session.chargePointId)?.sessionId === session.sessionId) {
      this.sessions.delete(session.chargePointId);
      this.lastTouch.delete(session.chargePointId);
    }
    await this.redis.eval(RELEASE, 1, this.connectionKey(session.chargePointId), session.sessionId);
  }

  /** Note that the pile was seen (throttled per pile). */
  touch(session: PileSession): void {
    const last = this.lastTouch.get(session.chargePointId) ?? 0;
    if (Date.now() - last < (this.options.touchIntervalMs ?? 5_000)) return;
    this.lastTouch.set(session.chargePointId, Date.now());
    this.redis
      .eval(
        TOUCH,
        1,
        this.connectionKey(session.chargePointId),
        session.sessionId,
        new Date().toISOString(),
        this.ttl,
      )
      .catch(() => undefined); // last-seen is advisory; the next touch retries
  }

  async lookup(chargePointId: string): Promise<ConnectionRecord | undefined> {
    const record = await this.redis.hgetall(this.connectionKey(chargePointId));
    if (!record['replicaId']) return undefined;
    return record as unknown as ConnectionRecord;
  }

  private get ttl(): number {
    return this.options.ttlSeconds ?? 600;
  }
}
