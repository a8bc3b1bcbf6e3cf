import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import {
  ACCESS_TOKEN_VERIFIER,
  AccessTokenVerifier,
  AUTH_REDIS,
  AuthException,
  PERMISSION_LOOKUP,
  PermissionLookup,
  sessionKey,
} from '@voltdepot/server-core';
import { AuthErrorCodes, MSG_STOMP_PATH } from '@voltdepot/shared-contracts';
import Redis from 'ioredis';
import { WebSocketServer } from 'ws';
import type { FanoutMessage } from './push.publisher';
import { PreparedMessage, type StompFrame, type StompHeaders } from './stomp-frame';
import { StompHandlerRegistry } from './stomp-handlers';
import { StompSubscriptionGuards } from './subscription-guards';
import { StompPrincipal, StompProtocolError, StompSession, StompSessionHost } from './stomp-session';

export type StompServerOptions = {
  redisUrl: string;
  fanoutChannel: string;
  heartbeatMs: number;
  heartbeatGraceMs: number;
  connectTimeoutMs: number;
  /** How often connected sessions are checked against the platform's session store (logout, revocation). */
  sessionCheckMs: number;
  maxFrameBytes?: number;
};

/** Session ids checked per Redis round trip by the revocation sweep. */
const SWEEP_BATCH = 500;
export const STOMP_SERVER_OPTIONS = Symbol('STOMP_SERVER_OPTIONS');

const BEARER = /^Bearer\s+(\S+)$/i;

/** The access token of a CONNECT frame: `Authorization: Bearer <t>`, else `passcode`, else `login`. */
export function tokenOf(headers: StompHeaders): string | undefined {
  const authorization = headers['Authorization'] ?? headers['authorization'];
  if (authorization !== undefined) return BEARER.exec(authorization.trim())?.[1];
  for (const name of ['passcode', 'login']) {
    const value = headers[name]?.trim();
    if (value) return BEARER.exec(value)?.[1] ?? value;
  }
  return undefined;
}

/**
 * STOMP 1.2 over WebSocket at /ms/ws on the service's HTTP port. Sessions are authenticated with the
 * platform's access tokens; pushes arrive through Redis pub/sub so any replica can reach any user.
 */
@Injectable()
export class StompServer
  implements
    StompSessionHost,
    OnModuleInit,
    BeforeApplicationShutdown,
    OnApplicationBootstrap,
    OnApplicationShutdown
{
  private readonly logger = new Logger('StompServer');
  private readonly wss: WebSocketServer;
  private readonly sessions = new Set<StompSession>();
  private readonly byUser = new Map<number, Set<StompSession>>();
  private subscriber: Redis | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping = false;
  private httpServer: Server | undefined;
  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) =>
    this.upgrade(req, socket, head);

  constructor(
    @Inject(STOMP_SERVER_OPTIONS) private readonly options: StompServerOptions,
    @Inject(ACCESS_TOKEN_VERIFIER) private readonly verifier: AccessTokenVerifier,
    @Inject(PERMISSION_LOOKUP) private readonly permissions: PermissionLookup,
    private readonly handlers: StompHandlerRegistry,
    private readonly adapterHost: HttpAdapterHost,
    private readonly subscriptionGuards: StompSubscriptionGuards,
    @Inject(AUTH_REDIS) private readonly authRedis: Pick<Redis, 'pipeline'>,
  ) {
    this.wss = new WebSocketServer({ noServer: true, maxPayload: options.maxFrameBytes ?? 256 * 1024 });
  }

  async onModuleInit(): Promise<void> {
    // A no-op clients may use to test the round trip (with a receipt).
    this.handlers.register('ping', async () => undefined);
    this.subscriber = new Redis(this.options.redisUrl, { maxRetriesPerRequest: null });
    this.subscriber.on('message', (_channel: string, raw: string) => this.onFanout(raw));
    await this.subscriber.subscribe(this.options.fanoutChannel);
  }

  onApplicationBootstrap(): void {
    this.httpServer = this.adapterHost.httpAdapter.getHttpServer() as Server;
    this.httpServer.on('upgrade', this.onUpgrade);
    this.sweepTimer = setInterval(() => void this.sweepRevoked(), this.options.sessionCheckMs);
    this.sweepTimer.unref();
  }

  /** Before the HTTP server closes: it waits for every connection, upgraded ones included. */
  beforeApplicationShutdown(): void {
    clearInterval(this.sweepTimer);
    this.httpServer?.off('upgrade', this.onUpgrade);
    for (const session of [...this.sessions]) session.close(1001, 'server shutting down');
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }

  /** Connected sessions of this replica (for tests and metrics). */
  get sessionCount(): number {
    return this.sessions.size;
  }

  async authenticate(headers: StompHeaders): Promise<StompPrincipal> {
    const token = tokenOf(headers);
    if (token === undefined) throw new AuthException(AuthErrorCodes.TokenMissing, 'Authentication required');
    const claims = await this.verifier.verify(token);
    if ((await this.permissions.permissionsOf(claims.userId)) === null) {
      throw new AuthException(AuthErrorCodes.TokenRevoked, 'Session has been revoked');
    }
    return {
      userId: claims.userId,
      username: claims.username,
      authSessionId: claims.sessionId,
      expiresAt: claims.expiresAt,
    };
  }

  /**
   * Ends the STOMP sessions whose platform session is gone (logout, refresh-token reuse, a disabled user or
   * a changed password all delete it, which is how the identity area revokes access tokens).
   */
  async sweepRevoked(): Promise<number> {
    if (this.sweeping) return 0;
    this.sweeping = true;
    let closed = 0;
    try {
      const byAuthSession = new Map<string, StompSession[]>();
      for (const session of this.sessions) {
        const id = session.isConnected ? session.principal?.authSessionId : undefined;
        if (id === undefined) continue;
        const list = byAuthSession.get(id);
        if (list === undefined) byAuthSession.set(id, [session]);
        else list.push(session);
      }
      const ids = [...byAuthSession.keys()];
      for (let i = 0; i < ids.length; i += SWEEP_BATCH) {
        const batch = ids.slice(i, i + SWEEP_BATCH);
        const pipeline = this.authRedis.pipeline();
        for (const id of batch) pipeline.exists(sessionKey(id));
        const results = (await pipeline.exec()) ?? [];
        batch.forEach((id, j) => {
          const [error, alive] = results[j] ?? [new Error('no reply'), 0];
          if (error !== null || alive !== 0) return;
          for (const session of byAuthSession.get(id) ?? []) {
            session.terminate('Session has been revoked', 'The session has been signed out or revoked', {
              code: AuthErrorCodes.TokenRevoked,
            });
            closed++;
          }
        });
      }
    } catch (error) {
      this.logger.warn(`session check failed: ${(error as Error).message}`);
    } finally {
      this.sweeping = false;
    }
    return closed;
  }

  /** SUBSCRIBE: the guards areas registered for their topics decide. */
  authorizeSubscribe(session: StompSession, destination: string): Promise<void> {
    return this.subscriptionGuards.check(session.principal!, destination);
  }

  onConnected(session: StompSession): void {
    const userId = session.principal!.userId;
    let set = this.byUser.get(userId);
    if (set === undefined) this.byUser.set(userId, (set = new Set()));
    set.add(session);
  }

  onClosed(session: StompSession): void {
    this.sessions.delete(session);
    if (session.principal === undefined) return;
    const set = this.byUser.get(session.principal.userId);
    set?.delete(session);
    if (set?.size === 0) this.byUser.delete(session.principal.userId);
  }

  /**
   * SEND: clients only subscribe, except to call a handler an area registered (`/app/...` with a JSON
   * body `{ "handler": "inbox.unread" }`). Nothing a client sends is relayed to other subscribers: a SEND
   * to any other destination, or naming no handler, is refused with an ERROR frame.
   */
  async onSend(session: StompSession, frame: StompFrame): Promise<void> {
    const destination = frame.headers['destination'];
    if (!/^\/app\/\S+$/.test(destination)) {
      throw new StompProtocolError(
        'Forbidden destination',
        `Clients cannot send to '${destination}': only /app/... takes a SEND, naming a handler`,
      );
    }
    const text = frame.body.toString('utf8');
    let body: unknown = undefined;
    if (text.trim() !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        throw new StompProtocolError('Invalid body', 'The body must be JSON');
      }
    }
    if (!isRecord(body) || typeof body['handler'] !== 'string') {
      throw new StompProtocolError(
        'Forbidden destination',
        `A SEND to '${destination}' must name a handler ({"handler": "..."}); messages are not relayed to subscribers`,
      );
    }
    const handler = this.handlers.get(body['handler']);
    if (handler === undefined)
      throw new StompProtocolError('Unknown handler', `No handler '${body['handler']}'`);
    const command =
      frame.headers['command'] ?? (typeof body['command'] === 'string' ? body['command'] : undefined);
    const principal = session.principal!;
    await handler(
      { userId: principal.userId, username: principal.username, sessionId: session.id },
      body,
      command,
    );
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = (req.url ?? '').split('?')[0];
    if (path !== MSG_STOMP_PATH) {
      socket.destroy();
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const session = new StompSession(ws, this, {
        heartbeatMs: this.options.heartbeatMs,
        heartbeatGraceMs: this.options.heartbeatGraceMs,
        connectTimeoutMs: this.options.connectTimeoutMs,
        maxFrameBytes: this.options.maxFrameBytes ?? 256 * 1024,
      });
      this.sessions.add(session);
    });
  }

  private onFanout(raw: string): void {
    let message: FanoutMessage;
    try {
      message = JSON.parse(raw) as FanoutMessage;
    } catch {
      this.logger.warn('ignored a malformed fan-out message');
      return;
    }
    if (message.kind === 'each') {
      for (const item of message.items) {
        const sessions = this.byUser.get(item.userId);
        if (sessions === undefined) continue;
        const prepared = new PreparedMessage(message.destination, item.body);
        for (const session of sessions) session.deliverPrepared(message.destination, prepared);
      }
      return;
    }
    // Built once, sent to every matching session (only subscription and message-id differ).
    const prepared = new PreparedMessage(message.destination, message.body, message.headers);
    for (const userId of message.userIds) {
      const sessions = this.byUser.get(userId);
      if (sessions === undefined) continue;
      for (const session of sessions) session.deliverPrepared(message.destination, prepared);
    }
  }

  /**
   * Delivers to the sessions of this replica subscribed to a `/topic/...` destination, without the Redis
   * fan-out: for feeds every replica receives anyway (fanning them out again would deliver each message
   * once per replica).
   */
  deliverToTopic(destination: string, body: string, headers?: Record<string, string>): void {
    const prepared = new PreparedMessage(destination, body, headers);
    for (const session of this.sessions) session.deliverPrepared(destination, prepared);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
