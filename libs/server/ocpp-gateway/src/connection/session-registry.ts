import type Redis from 'ioredis';
import { connectionKey, lookupConnection, type ConnectionRecord } from '@voltdepot/server-ocpp-commands';
import type { PileSession } from './pile-session';

export type SessionRegistryOptions = {
  replicaId: string;
  /** Key prefix in Redis (tests use their own). */
  prefix: string;
  /** Connection record lifetime; refreshed while the pile is seen. */
  ttlSeconds?: number;
  /** Minimum interval between two last-seen writes for one pile. */
  touchIntervalMs?: number;
  /** How often the last-seen writes collected meanwhile go to Redis (one pipeline). */
  touchFlushMs?: number;
};

// Delete the connection record only if it still belongs to this session (a newer connection may own it).
const RELEASE = `if redis.call('HGET', KEYS[1], 'sessionId') == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
// Take the pile's record unless it holds a connection accepted after this one (`order`: the accept time,
// then the replica's accept sequence; compared as strings), and announce it on the eviction channel so the
// replica holding the older connection closes it.
// KEYS[1] record; ARGV: replicaId, sessionId, connectedAt, lastSeenAt, ttl, eviction channel, notice, order.
const REGISTER = `local held = redis.call('HGET', KEYS[1], 'order')
if held and held > ARGV[8] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'replicaId', ARGV[1], 'sessionId', ARGV[2], 'connectedAt', ARGV[3], 'lastSeenAt', ARGV[4], 'order', ARGV[8])
redis.call('EXPIRE', KEYS[1], ARGV[5])
redis.call('PUBLISH', ARGV[6], ARGV[7])
return 1`;
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
  /** When each local pile's record was last written with a full lifetime (register, touch, refresh). */
  private readonly extendedAt = new Map<string, number>();
  private subscriber?: Redis;
  private onEvict?: (session: PileSession) => void;
  private refreshTimer?: NodeJS.Timeout;
  private touchTimer?: NodeJS.Timeout;
  /** Sessions seen since the last flush, with when. */
  private readonly touched = new Map<string, { session: PileSession; at: string }>();
  /** Sessions already closed (released), which must never become a pile's local session again. */
  private readonly released = new WeakSet<PileSession>();

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
    return connectionKey(this.options.prefix, chargePointId);
  }

  /**
   * Listen for evictions announced by other replicas: a local session of the pile closes when another
   * replica registered a connection accepted after it. This replica's own notices are ignored (its
   * `register` replaces local sessions itself), so a notice arriving late cannot close a newer session.
   */
  async start(onEvict: (session: PileSession) => void): Promise<void> {
    this.onEvict = onEvict;
    this.subscriber = this.redis.duplicate();
    this.subscriber.on('message', (_channel: string, message: string) => {
      try {
        const notice = JSON.parse(message) as {
          chargePointId: string;
          sessionId: string;
          replicaId?: string;
          order?: string;
        };
        if (notice.replicaId === this.options.replicaId) return;
        const local = this.sessions.get(notice.chargePointId);
        if (!local || local.sessionId === notice.sessionId) return;
        if (notice.order !== undefined && notice.order < acceptOrder(local)) return;
        this.onEvict?.(local);
      } catch {
        // ignore a malformed eviction notice
      }
    });
    await this.subscriber.subscribe(this.evictChannel);
    // A quiet pile (long heartbeat interval) must not lose its connection record while connected.
    this.refreshTimer = setInterval(
      () => void this.refreshStale().catch(() => undefined),
      (this.ttl * 1000) / 3,
    );
    this.refreshTimer.unref();
    this.touchTimer = setInterval(
      () => void this.flushTouches().catch(() => undefined), // advisory; the next flush retries
      this.options.touchFlushMs ?? 1_000,
    );
    this.touchTimer.unref();
  }

  /** Extend the record of every local session (only where the record is still ours). */
  async refreshAll(): Promise<void> {
    await this.extend([...this.sessions.values()]);
  }

  /**
   * The periodic refresh (every third of the record's lifetime): extend the records not written in the
   * last third, which still have two thirds left, so that each is extended before it can expire. A pile
   * that talks has had its record extended by its last-seen writes already; without this, every refresh
   * sent one script per connected pile at once (10,000 on a full replica). Returns how many it extended.
   */
  async refreshStale(): Promise<number> {
    const since = Date.now() - (this.ttl * 1000) / 3;
    const stale = [...this.sessions.values()].filter(
      (session) => (this.extendedAt.get(session.chargePointId) ?? 0) <= since,
    );
    await this.extend(stale);
    return stale.length;
  }

  private async extend(sessions: PileSession[]): Promise<void> {
    const at = new Date().toISOString();
    await this.writeSeen(sessions.map((session) => ({ session, at })));
  }

  /**
   * Write last-seen times and full lifetimes in one pipeline (only where the record is still ours), and
   * note which records it extended (not those that failed or belong to another session).
   */
  private async writeSeen(items: { session: PileSession; at: string }[]): Promise<void> {
    if (!items.length) return;
    const written = Date.now();
    const pipeline = this.redis.pipeline();
    for (const { session, at } of items) {
      pipeline.eval(TOUCH, 1, this.connectionKey(session.chargePointId), session.sessionId, at, this.ttl);
    }
    const results = await pipeline.exec();
    items.forEach(({ session }, i) => {
      const [error, extended] = results?.[i] ?? [null, 0];
      if (!error && extended === 1 && this.sessions.get(session.chargePointId) === session)
        this.extendedAt.set(session.chargePointId, written);
    });
  }

  async stop(): Promise<void> {
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    if (this.touchTimer) clearInterval(this.touchTimer);
    await this.flushTouches().catch(() => undefined);
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
   * Make `session` the pile's connection, unless a connection of the pile accepted after it is already
   * registered (here or on another replica): then `superseded` is true and nothing changes, so a slow
   * registration of an older connection never closes the newer one. Otherwise returns the local session
   * it replaces, if any; sessions on other replicas are told to close through the eviction channel.
   */
  async register(session: PileSession): Promise<{ previous?: PileSession; superseded: boolean }> {
    const previous = this.sessions.get(session.chargePointId);
    if (previous && previous.sequence > session.sequence) return { superseded: true };
    this.sessions.set(session.chargePointId, session);
    const now = new Date().toISOString();
    let taken: unknown;
    try {
      taken = await this.redis.eval(
        REGISTER,
        1,
        this.connectionKey(session.chargePointId),
        this.options.replicaId,
        session.sessionId,
        session.connectedAt.toISOString(),
        now,
        this.ttl,
        this.evictChannel,
        JSON.stringify({
          chargePointId: session.chargePointId,
          sessionId: session.sessionId,
          replicaId: this.options.replicaId,
          order: acceptOrder(session),
        }),
        acceptOrder(session),
      );
    } catch (error) {
      this.giveBack(session, previous); // the previous connection stays the pile's
      throw error;
    }
    if (taken === 0) {
      // Another replica holds a newer connection: give back the local place.
      this.giveBack(session, previous);
      return { superseded: true };
    }
    this.lastTouch.set(session.chargePointId, Date.now());
    this.extendedAt.set(session.chargePointId, Date.now());
    return {
      previous: previous && previous.sessionId !== session.sessionId ? previous : undefined,
      superseded: false,
    };
  }

  /** Undo `register`'s local place for `session`: back to `previous`, unless that one closed meanwhile. */
  private giveBack(session: PileSession, previous: PileSession | undefined): void {
    if (this.sessions.get(session.chargePointId) !== session) return;
    if (previous && !this.released.has(previous)) this.sessions.set(session.chargePointId, previous);
    else this.sessions.delete(session.chargePointId);
  }

  /** Forget a closed session, unless a newer one has taken its place. */
  async release(session: PileSession): Promise<void> {
    this.released.add(session);
    if (this.sessions.get(session.chargePointId)?.sessionId === session.sessionId) {
      this.sessions.delete(session.chargePointId);
      this.lastTouch.delete(session.chargePointId);
      this.extendedAt.delete(session.chargePointId);
    }
    await this.redis.eval(RELEASE, 1, this.connectionKey(session.chargePointId), session.sessionId);
  }

  /**
   * Note that the pile was seen: at most once per `touchIntervalMs` per pile, and written to Redis in
   * one pipeline per `touchFlushMs` for all piles, not one round trip per message.
   */
  touch(session: PileSession): void {
    const last = this.lastTouch.get(session.chargePointId) ?? 0;
    if (Date.now() - last < (this.options.touchIntervalMs ?? 30_000)) return;
    this.lastTouch.set(session.chargePointId, Date.now());
    this.touched.set(session.chargePointId, { session, at: new Date().toISOString() });
  }

  /** Write the last-seen times collected since the last flush (only where the record is still ours). */
  async flushTouches(): Promise<void> {
    const items = [...this.touched.values()];
    this.touched.clear();
    await this.writeSeen(items);
  }

  async lookup(chargePointId: string): Promise<ConnectionRecord | undefined> {
    return lookupConnection(this.redis, this.options.prefix, chargePointId);
  }

  private get ttl(): number {
    return this.options.ttlSeconds ?? 600;
  }
}

/** Which of two connections of a pile was accepted later: the accept time, then the replica's sequence. */
function acceptOrder(session: PileSession): string {
  return `${session.connectedAt.toISOString()}|${String(session.sequence).padStart(15, '0')}`;
}
