import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { RPCServer, type RPCClient } from 'ocpp-rpc';
import type { Logger } from 'pino';
import { OCPP16_PROTOCOL } from '@voltdepot/shared-ocpp';
import type { CloseReason, GatewayMetrics } from '../metrics/gateway.metrics';
import type { OcppRouter } from '../router/ocpp-router';
import type { MessageLogWriter } from '../message-log/message-log.writer';
import type { PileStatusWriter } from '../status/pile-status.writer';
import { BadMessageLimit } from './bad-message-limit';
import { closeNeverRejects, listenForSocketErrors } from './connection-hardening';
import type { PileAuthenticator } from './pile-authenticator';
import type { PileSession } from './pile-session';
import type { SessionRegistry } from './session-registry';
import { registrationOnConnect } from '../router/registration-gate';
import type { PileState } from './pile-registry.repository';

export type OcppServerOptions = {
  port: number;
  host?: string;
  /** Largest frame accepted (bytes); a bigger one closes the connection with 1009. */
  maxPayloadBytes?: number;
  /**
   * Bad messages tolerated before the connection is closed with 1002: this many in a row (frames that
   * are not OCPP at all), or this many within `badMessageWindowMs` (also counting calls answered with a
   * CallError because of the pile: schema violations, unknown actions, calls it may not make).
   */
  maxBadMessages?: number;
  badMessageWindowMs?: number;
  /** Time a command waits for the pile's answer unless the caller says otherwise (ms). */
  callTimeoutMs?: number;
  /**
   * Keep-alive: a pile that has sent nothing (no frame, ping or pong) for this long gets a WebSocket ping;
   * one that has not answered by the next is disconnected (ms; 30,000; 0: never ping). A pile that talks
   * is not pinged at all: its frames prove the connection, and 10,000 piles' pings every 30 s were a
   * steady stream of writes and timers for nothing.
   */
  pingIntervalMs?: number;
  /**
   * Every handshake is answered within this time (ms, 5,000): one not decided by then (the database or
   * Redis slow, argon2 verifications queued) is refused with 503, which a pile retries.
   */
  handshakeTimeoutMs?: number;
  /**
   * A handshake refused for its credentials or for too many failures (401, 429) is answered this long
   * after it arrived, not sooner (ms, 200): an unknown id (a read-through to the database) and a wrong
   * password (microseconds) then take the same time, and a guesser's pace is bounded by it.
   */
  authFailureDelayMs?: number;
  /**
   * OCPP security profile 2: the server's certificate chain and key (PEM). Piles connect with wss://
   * only, and still authenticate with HTTP Basic; without it (profile 1) the endpoint is plain ws://.
   */
  tls?: { cert: Buffer; key: Buffer };
};

export type OcppServerDeps = {
  authenticator: PileAuthenticator;
  sessions: SessionRegistry;
  router: OcppRouter;
  status: PileStatusWriter;
  messageLog?: MessageLogWriter;
  logger: Logger;
  afterCommit: () => void;
  metrics?: GatewayMetrics;
};

/** Close code for a connection replaced by a newer one of the same pile (application range 4000-4999). */
export const CLOSE_REPLACED = 4001;

/**
 * Close code for a connection whose pile was disabled, removed or given a new password while it was
 * connected: its credentials no longer admit it (application range 4000-4999).
 */
export const CLOSE_REVOKED = 4003;

/** Close code for a pile that sent too many bad messages (as ocpp-rpc uses for bad frames in a row). */
export const CLOSE_BAD_MESSAGES = 1002;

/** CallError codes that are the gateway's fault, not the pile's (they do not count as bad messages). */
const OUR_FAULT = new Set(['InternalError']);

type CallErrorEvent = {
  method: string;
  outbound: boolean;
  error: Error & { rpcErrorCode?: string };
};

type Handshake = {
  identity: string;
  endpoint: string;
  protocols: Set<string>;
  password: Buffer | undefined;
  remoteAddress: string | undefined;
};

/**
 * The OCPP 1.6J WebSocket endpoint, `ws://host:port/ocpp/{chargePointId}`, built on ocpp-rpc in strict
 * mode: every frame in and out is validated against the OCPP 1.6J schemas, and bad frames are answered
 * with the matching CallError by ocpp-rpc. Sessions, replacement and pile lifecycle events live here.
 */
export class OcppServer {
  private readonly rpc: RPCServer;
  private http?: Server;
  private readonly replaced = new WeakSet<PileSession>();
  /** Why the gateway closed a connection, for the close counter (absent: the pile or the network did). */
  private readonly closing = new WeakMap<PileSession, CloseReason>();
  /** Connections accepted so far (each session's `sequence`). */
  private accepted = 0;
  badMessages = 0;

  constructor(
    private readonly options: OcppServerOptions,
    private readonly deps: OcppServerDeps,
  ) {
    this.rpc = new RPCServer({
      protocols: [OCPP16_PROTOCOL],
      strictMode: true,
      callConcurrency: 1,
      maxBadMessages: options.maxBadMessages ?? 10,
      callTimeoutMs: options.callTimeoutMs ?? 30_000,
      pingIntervalMs: options.pingIntervalMs ?? 30_000,
      deferPingsOnActivity: true,
      respondWithDetailedErrors: false,
      wssOptions: { maxPayload: options.maxPayloadBytes ?? 64 * 1024 },
    });
    this.rpc.on('error', (error: unknown) => deps.logger.error({ err: error }, 'OCPP server error'));
    listenForSocketErrors(this.rpc, (error) =>
      deps.logger.debug({ err: error }, 'pile socket error before its connection was set up'),
    );
    this.rpc.auth((accept, reject, handshake, signal) => {
      void this.authenticate(handshake as Handshake, accept, reject, signal);
    });
    this.rpc.on('client', (client: RPCClient) => {
      // Before anything else: ocpp-rpc may close the connection from its first frame on.
      closeNeverRejects(client, (error) =>
        deps.logger.debug(
          { err: error, chargePointId: client.identity },
          'pile socket failed while its connection was closing',
        ),
      );
      this.onClient(client).catch((error) => {
        deps.logger.error(
          { err: error, chargePointId: client.identity },
          'could not register pile connection',
        );
        void client.close({ code: 1011, reason: 'Internal error' });
      });
    });
  }

  async listen(): Promise<number> {
    const notFound = (_req: unknown, res: { statusCode: number; end(): void }) => {
      res.statusCode = 404;
      res.end();
    };
    const { tls } = this.options;
    const http: Server = tls
      ? createTlsServer({ cert: tls.cert, key: tls.key, minVersion: 'TLSv1.2' }, notFound)
      : createServer(notFound);
    // A TLS handshake that fails (a plain ws:// client, a bad certificate) ends only that socket.
    if (tls) http.on('tlsClientError', (_error: Error, socket: { destroy(): void }) => socket.destroy());
    http.on('upgrade', this.rpc.handleUpgrade);
    http.on('clientError', (_error, socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      // Node's default backlog (511) overflows when thousands of piles reconnect at once after a
      // restart; the kernel caps this at net.core.somaxconn.
      http.listen({ port: this.options.port, host: this.options.host ?? '0.0.0.0', backlog: 65_535 }, () =>
        resolve(),
      );
    });
    this.http = http;
    return (http.address() as AddressInfo).port;
  }

  /** Close every pile connection (1001, going away) and stop listening. */
  async close(): Promise<void> {
    await this.rpc.close({ code: 1001, reason: 'Server shutting down', force: false });
    await new Promise<void>((resolve) => (this.http ? this.http.close(() => resolve()) : resolve()));
    this.http?.closeAllConnections?.();
  }

  /** Close a session because a newer connection of the same pile took over. */
  evict(session: PileSession): void {
    this.replaced.add(session);
    if (!this.closing.has(session)) this.closing.set(session, 'replaced');
    this.deps.logger.info(
      { chargePointId: session.chargePointId, sessionId: session.sessionId },
      'pile connection replaced',
    );
    void session.client.close({ code: CLOSE_REPLACED, reason: 'Replaced by a new connection' });
  }

  /**
   * Close a session whose admission no longer holds (pile disabled, removed, or its password changed).
   * A pile that reconnects goes through the handshake again with what the registry says now.
   */
  revoke(session: PileSession, reason: string): void {
    this.deps.logger.warn(
      { chargePointId: session.chargePointId, sessionId: session.sessionId, reason },
      'pile connection revoked',
    );
    if (!this.closing.has(session)) this.closing.set(session, 'revoked');
    void session.client.close({ code: CLOSE_REVOKED, reason });
  }

  private async authenticate(
    handshake: Handshake,
    accept: (session?: Record<string, unknown>, protocol?: string | false) => void,
    reject: (code: number, message: string) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    const { logger, metrics } = this.deps;
    const arrived = Date.now();
    const chargePointId = handshake.identity.slice(0, 64);
    const refuse = (status: number, reason: string) => {
      metrics?.handshakeRefused(status);
      reject(status, reason);
    };
    // Given up at the deadline or when ocpp-rpc gives up the socket: queued slow work is then skipped.
    const givenUp = new AbortController();
    signal?.addEventListener('abort', () => givenUp.abort(), { once: true });
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, this.options.handshakeTimeoutMs ?? 5_000, undefined);
    });
    try {
      const decision = await Promise.race([
        this.deps.authenticator.decide({
          chargePointId: handshake.identity,
          endpoint: handshake.endpoint,
          protocols: handshake.protocols,
          password: handshake.password,
          remoteAddress: handshake.remoteAddress,
          signal: givenUp.signal,
        }),
        deadline,
      ]);
      if (!decision) {
        logger.warn(
          { chargePointId, remoteAddress: handshake.remoteAddress },
          'pile handshake not decided in time',
        );
        refuse(503, 'Service Unavailable');
        return;
      }
      if (decision.accepted) {
        accept({ sessionId: randomUUID(), state: decision.state }, OCPP16_PROTOCOL);
        return;
      }
      const fields = { chargePointId, remoteAddress: handshake.remoteAddress, status: decision.status };
      for (const key of decision.log === 'throttled' ? [] : (decision.locked ?? []))
        logger.warn(
          { ...fields, [key.scope === 'pile' ? 'lockedPile' : 'lockedAddress']: key.value },
          'pile handshakes throttled: too many failures',
        );
      if (decision.log === 'bad-credentials') logger.warn(fields, 'pile authentication failed');
      else if (decision.log === 'unknown-pile') logger.warn(fields, 'unknown pile rejected');
      else if (decision.log === 'throttled')
        logger.debug({ ...fields, locked: decision.locked }, 'pile handshake throttled');
      else if (decision.log === 'busy')
        logger.warn(fields, 'pile handshake refused: password verifications queued');
      else logger.info({ ...fields, reason: decision.reason }, 'pile handshake rejected');
      if (decision.status === 401)
        await sleep(arrived + (this.options.authFailureDelayMs ?? 200) - Date.now());
      refuse(decision.status, decision.reason);
    } catch (error) {
      logger.error({ err: error, chargePointId }, 'pile handshake failed');
      refuse(503, 'Service Unavailable');
    } finally {
      clearTimeout(timer);
      givenUp.abort();
    }
  }

  private async onClient(client: RPCClient): Promise<void> {
    const server = client as RPCClient & {
      session: { sessionId: string; state: PileState };
      handshake: Handshake;
    };
    const session: PileSession = {
      sessionId: server.session.sessionId,
      chargePointId: client.identity!,
      registryState: server.session.state,
      remoteAddress: server.handshake.remoteAddress,
      connectedAt: new Date(),
      sequence: ++this.accepted,
      client,
    };
    const { logger, messageLog, metrics } = this.deps;
    if (messageLog) {
      const log = messageLog.forPile(session.chargePointId);
      client.on('message', ({ message, outbound }: { message: string | Buffer; outbound: boolean }) => {
        log(outbound ? 'out' : 'in', typeof message === 'string' ? message : message.toString());
      });
    }
    const limit = new BadMessageLimit(
      this.options.maxBadMessages ?? 10,
      this.options.badMessageWindowMs ?? 60_000,
    );
    let closingForBadMessages = false;
    const badMessage = () => {
      if (!limit.strike() || closingForBadMessages) return;
      closingForBadMessages = true;
      metrics?.closedForBadMessages();
      if (!this.closing.has(session)) this.closing.set(session, 'bad_messages');
      logger.warn({ chargePointId: session.chargePointId }, 'pile sent too many bad messages; closing');
      void client.close({ code: CLOSE_BAD_MESSAGES, reason: 'Too many bad messages' });
    };
    client.on('badMessage', ({ error, response }: { error: Error; response: unknown[] | null }) => {
      this.badMessages++;
      metrics?.inbound('unknown', 'malformed');
      if (response) metrics?.callErrorSent(String(response[2]));
      logger.warn(
        { chargePointId: session.chargePointId, error: error.message, answered: response !== null },
        'malformed OCPP frame',
      );
      badMessage();
    });
    client.on('callResult', ({ method, outbound }: { method: string; outbound: boolean }) => {
      if (outbound) metrics?.outbound(method, 'result');
      else metrics?.inbound(method, 'result');
    });
    client.on('callError', ({ method, outbound, error }: CallErrorEvent) => {
      if (outbound) {
        // A command of ours: the pile answered with a CallError, did not answer, or went away.
        const result = error.rpcErrorCode
          ? 'call_error'
          : error.name === 'TimeoutError' || error.constructor?.name === 'TimeoutError'
            ? 'timeout'
            : 'disconnected';
        metrics?.outbound(method, result);
        return;
      }
      const code = ocpp16ErrorCode(error.rpcErrorCode);
      metrics?.inbound(method, 'call_error');
      metrics?.callErrorSent(code);
      if (!OUR_FAULT.has(code)) badMessage();
    });
    client.on(
      'strictValidationFailure',
      ({
        method,
        outbound,
        isCall,
        error,
      }: {
        method: string;
        outbound: boolean;
        isCall: boolean;
        error: Error;
      }) => {
        logger.warn(
          { chargePointId: session.chargePointId, method, outbound, isCall, error: error.message },
          'OCPP schema violation',
        );
      },
    );
    client.on('socketError', (error: Error) =>
      logger.debug({ chargePointId: session.chargePointId, err: error }, 'pile socket error'),
    );
    // Calls are held until the connection is registered and announced, and the disconnection is
    // announced only after the calls already received are handled: the pile's events stay in order.
    let markReady!: () => void;
    let markFailed!: (error: unknown) => void;
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      markFailed = reject;
    });
    const calls = this.deps.router.attach(session, ready);
    const registration = this.registerSession(session);
    // A connection closed while still registering is released only once its registration is done, so
    // a closed connection can never be left behind as the pile's registered one.
    client.once('close', ({ code, reason }: { code: number; reason: string }) => {
      metrics?.connectionClosed(this.closing.get(session) ?? closeReasonOf(code));
      void registration
        .catch(() => undefined)
        .then(() => calls.settled())
        .then(() => this.onClose(session, code, reason));
    });
    let superseded: boolean;
    try {
      superseded = await registration;
    } catch (error) {
      markFailed(error);
      throw error;
    }
    if (superseded) {
      // A newer connection of the pile registered first: this one is the stale one.
      markFailed(new Error('connection replaced by a newer one'));
      this.evict(session);
      return;
    }
    markReady();
    this.deps.afterCommit();
    logger.info(
      {
        chargePointId: session.chargePointId,
        sessionId: session.sessionId,
        remoteAddress: session.remoteAddress,
      },
      'pile connected',
    );
  }

  /** Register and announce the connection; true when a newer connection of the pile already took over. */
  private async registerSession(session: PileSession): Promise<boolean> {
    // What the pile may send depends on its last boot, which may have been on an earlier connection.
    session.lastBoot = await this.deps.status.lastRegistration(session.chargePointId);
    session.registrationStatus = registrationOnConnect(session.lastBoot, session.registryState);
    const { previous, superseded } = await this.deps.sessions.register(session);
    if (superseded) return true;
    if (previous) this.evict(previous);
    await this.deps.status.connected(
      {
        chargePointId: session.chargePointId,
        replicaId: this.deps.sessions.replicaId,
        ...(session.remoteAddress ? { remoteAddress: session.remoteAddress } : {}),
      },
      `${session.chargePointId}:${session.sessionId}`,
    );
    return false;
  }

  private async onClose(session: PileSession, code: number, reason: string): Promise<void> {
    const { logger } = this.deps;
    try {
      await this.deps.sessions.release(session);
      if (this.replaced.has(session)) return; // the pile is still connected, through its new session
      await this.deps.status.disconnected(
        {
          chargePointId: session.chargePointId,
          replicaId: this.deps.sessions.replicaId,
          code,
          ...(reason ? { reason } : {}),
        },
        `${session.chargePointId}:${session.sessionId}`,
      );
      this.deps.afterCommit();
      logger.info(
        { chargePointId: session.chargePointId, sessionId: session.sessionId, code, reason },
        'pile disconnected',
      );
    } catch (error) {
      logger.error(
        { err: error, chargePointId: session.chargePointId },
        'could not record pile disconnection',
      );
    }
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** A close the gateway did not start itself, by its code (ocpp-rpc closes with 1002 for bad frames in a row). */
function closeReasonOf(code: number): CloseReason {
  return code === CLOSE_BAD_MESSAGES ? 'bad_messages' : 'other';
}

/** The code ocpp-rpc puts in the CALLERROR, with its OCPP 1.6 spelling fixes (see its _onCall). */
function ocpp16ErrorCode(code: string | undefined): string {
  if (code === 'FormatViolation') return 'FormationViolation';
  if (code === 'OccurenceConstraintViolation') return 'OccurrenceConstraintViolation';
  return code ?? 'GenericError';
}
