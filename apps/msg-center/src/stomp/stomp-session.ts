import { randomUUID } from 'node:crypto';
import { AuthErrorCodes } from '@voltdepot/shared-contracts';
import type { WebSocket } from 'ws';
import {
  PreparedMessage,
  serializeFrame,
  StompFrame,
  StompFrameError,
  StompHeaders,
  StompParser,
} from './stomp-frame';

export type StompPrincipal = {
  userId: number;
  username: string;
  /** The platform session the access token belongs to (revoked at logout). */
  authSessionId?: string;
  /** When the access token expires (epoch ms): the STOMP session ends then. */
  expiresAt?: number;
};

/** Longest delay setTimeout accepts; a token valid for longer is checked again when it fires. */
const MAX_TIMER_MS = 2_147_483_647;

export type StompSessionOptions = {
  heartbeatMs: number;
  heartbeatGraceMs: number;
  connectTimeoutMs: number;
  maxFrameBytes: number;
};

/** What a session needs from the server: authentication, SEND dispatch, bookkeeping. */
export interface StompSessionHost {
  authenticate(headers: StompHeaders): Promise<StompPrincipal>;
  onSend(session: StompSession, frame: StompFrame): Promise<void>;
  onConnected(session: StompSession): void;
  onClosed(session: StompSession): void;
  /** Throws a StompProtocolError when the session may not subscribe to the destination. */
  authorizeSubscribe?(session: StompSession, destination: string): Promise<void>;
}

/** A request the client got wrong: answered with an ERROR frame, then the connection is closed. */
export class StompProtocolError extends Error {
  constructor(
    message: string,
    readonly detail = '',
    readonly headers: StompHeaders = {},
  ) {
    super(message);
  }
}

const SUPPORTED_VERSIONS = ['1.2', '1.1'];
/** Subscriptions one session may hold: the console needs a handful; more is a client bug or abuse. */
export const MAX_SUBSCRIPTIONS = 64;

function parseHeartbeat(value: string | undefined): [number, number] {
  if (value === undefined) return [0, 0];
  const m = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(value);
  if (!m)
    throw new StompProtocolError('Invalid heart-beat header', `heart-beat must be 'cx,cy', got '${value}'`);
  return [Number(m[1]), Number(m[2])];
}

/** One STOMP 1.2 connection over one WebSocket. */
export class StompSession {
  readonly id = randomUUID();
  principal: StompPrincipal | undefined;
  /** subscription id -> destination */
  readonly subscriptions = new Map<string, string>();
  private readonly parser: StompParser;
  private state: 'awaiting-connect' | 'connecting' | 'connected' | 'closed' = 'awaiting-connect';
  private lastReceivedAt = Date.now();
  private timers: NodeJS.Timeout[] = [];
  private messageSeq = 0;
  private closedNotified = false;
  /** Frames are processed one at a time, in arrival order. */
  private queue: Promise<void> = Promise.resolve();
  /** Negotiated intervals (0 = none). */
  outgoingMs = 0;
  incomingMs = 0;

  constructor(
    private readonly ws: WebSocket,
    private readonly host: StompSessionHost,
    private readonly options: StompSessionOptions,
  ) {
    this.parser = new StompParser(options.maxFrameBytes);
    const connectTimer = setTimeout(() => {
      if (this.state === 'awaiting-connect' || this.state === 'connecting') {
        this.fail(new StompProtocolError('Connection time-out', 'No CONNECT frame received in time'));
      }
    }, options.connectTimeoutMs);
    this.timers.push(connectTimer);
    ws.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => this.onData(data));
    ws.on('close', () => this.cleanup());
    ws.on('error', () => this.cleanup());
  }

  get isConnected(): boolean {
    return this.state === 'connected';
  }

  /** Sends a MESSAGE to every subscription of this session on `destination`. */
  deliver(destination: string, body: string, headers: StompHeaders = {}): void {
    this.deliverPrepared(destination, new PreparedMessage(destination, body, headers));
  }

  /** Like `deliver`, with the frame prepared once for every session of a fan-out. */
  deliverPrepared(destination: string, message: PreparedMessage): void {
    if (this.state !== 'connected') return;
    for (const [subscriptionId, subscribed] of this.subscriptions) {
      if (subscribed !== destination) continue;
      this.send(message.frame(subscriptionId, `${this.id}-${++this.messageSeq}`));
    }
  }

  /** Ends the session with an ERROR frame (`message` header, detail as body) and closes the socket. */
  terminate(message: string, detail: string, headers: StompHeaders = {}): void {
    this.fail(new StompProtocolError(message, detail, headers));
  }

  close(code = 1000, reason = ''): void {
    if (this.state === 'closed') return;
    this.ws.close(code, reason);
    this.cleanup();
  }

  private onData(data: Buffer | ArrayBuffer | Buffer[]): void {
    if (this.state === 'closed') return;
    this.lastReceivedAt = Date.now();
    const chunk = Buffer.isBuffer(data)
      ? data
      : Array.isArray(data)
        ? Buffer.concat(data)
        : Buffer.from(data as ArrayBuffer);
    let frames: StompFrame[];
    try {
      frames = this.parser.push(chunk).frames;
    } catch (error) {
      const message = error instanceof StompFrameError ? error.message : 'Malformed frame';
      this.fail(new StompProtocolError('Malformed frame', message));
      return;
    }
    for (const frame of frames) {
      this.queue = this.queue.then(() => this.process(frame));
    }
  }

  private async process(frame: StompFrame): Promise<void> {
    if (this.state === 'closed') return;
    try {
      await this.handle(frame);
      const receipt = frame.headers['receipt'];
      if (receipt !== undefined && frame.command !== 'DISCONNECT' && this.state === 'connected') {
        this.send(serializeFrame('RECEIPT', { 'receipt-id': receipt }));
      }
    } catch (error) {
      const protocolError =
        error instanceof StompProtocolError
          ? error
          : new StompProtocolError('Internal error', 'The server could not process the frame');
      const receipt = frame.headers['receipt'];
      this.fail(
        receipt === undefined
          ? protocolError
          : new StompProtocolError(protocolError.message, protocolError.detail, {
              ...protocolError.headers,
              'receipt-id': receipt,
            }),
      );
    }
  }

  private async handle(frame: StompFrame): Promise<void> {
    const { command, headers } = frame;
    if (this.state !== 'connected') {
      if (command !== 'CONNECT' && command !== 'STOMP') {
        throw new StompProtocolError('Not connected', `Expected CONNECT, got ${command}`);
      }
      if (this.state !== 'awaiting-connect') throw new StompProtocolError('Already connecting');
      return this.connect(headers);
    }
    switch (command) {
      case 'CONNECT':
      case 'STOMP':
        throw new StompProtocolError('Already connected');
      case 'SUBSCRIBE': {
        const id = headers['id'];
        const destination = headers['destination'];
        if (!id) throw new StompProtocolError('Missing id header', 'SUBSCRIBE requires an id header');
        if (!destination) throw new StompProtocolError('Missing destination header');
        if (this.subscriptions.has(id))
          throw new StompProtocolError('Duplicate subscription id', `id '${id}'`);
        if (this.subscriptions.size >= MAX_SUBSCRIPTIONS)
          throw new StompProtocolError(
            'Too many subscriptions',
            `A session holds at most ${MAX_SUBSCRIPTIONS} subscriptions`,
          );
        if (!/^\/(user\/)?topic\/\S+$/.test(destination)) {
          throw new StompProtocolError('Unknown destination', `Cannot subscribe to '${destination}'`);
        }
        await this.host.authorizeSubscribe?.(this, destination);
        this.subscriptions.set(id, destination);
        return;
      }
      case 'UNSUBSCRIBE': {
        const id = headers['id'];
        if (!id) throw new StompProtocolError('Missing id header', 'UNSUBSCRIBE requires an id header');
        this.subscriptions.delete(id);
        return;
      }
      case 'SEND':
        if (!headers['destination']) throw new StompProtocolError('Missing destination header');
        return this.host.onSend(this, frame);
      case 'ACK':
      case 'NACK':
        // Subscriptions are ack:auto; acknowledgements are accepted and have no effect.
        return;
      case 'BEGIN':
      case 'COMMIT':
      case 'ABORT':
        throw new StompProtocolError('Transactions are not supported');
      case 'DISCONNECT': {
        const receipt = headers['receipt'];
        if (receipt !== undefined) this.send(serializeFrame('RECEIPT', { 'receipt-id': receipt }));
        this.state = 'closed';
        this.ws.close(1000, 'disconnect');
        this.cleanup();
        return;
      }
      default:
        throw new StompProtocolError('Unknown command', command);
    }
  }

  private async connect(headers: StompHeaders): Promise<void> {
    const accepted = (headers['accept-version'] ?? '1.0').split(',').map((v) => v.trim());
    const version = SUPPORTED_VERSIONS.find((v) => accepted.includes(v));
    if (version === undefined) {
      throw new StompProtocolError('Unsupported protocol version', `Supported versions are 1.2 and 1.1`, {
        version: SUPPORTED_VERSIONS.join(','),
      });
    }
    const [cx, cy] = parseHeartbeat(headers['heart-beat']);
    this.state = 'connecting';
    let principal: StompPrincipal;
    try {
      principal = await this.host.authenticate(headers);
    } catch (error) {
      throw new StompProtocolError(
        'Authentication failed',
        error instanceof Error ? error.message : 'Access token is invalid',
        typeof (error as { code?: unknown }).code === 'string'
          ? { code: (error as { code: string }).code }
          : {},
      );
    }
    if ((this.state as string) === 'closed') return;
    this.principal = principal;
    const hb = this.options.heartbeatMs;
    this.outgoingMs = hb > 0 && cy > 0 ? Math.max(hb, cy) : 0;
    this.incomingMs = hb > 0 && cx > 0 ? Math.max(hb, cx) : 0;
    this.state = 'connected';
    this.send(
      serializeFrame('CONNECTED', {
        version,
        'heart-beat': `${hb},${hb}`,
        session: this.id,
        server: 'voltdepot-msg-center/1',
        'user-name': principal.username,
      }),
    );
    this.startHeartbeats();
    this.watchExpiry();
    this.host.onConnected(this);
  }

  /** A session lives no longer than its access token; the client reconnects with a fresh one. */
  private watchExpiry(): void {
    const expiresAt = this.principal?.expiresAt;
    if (expiresAt === undefined) return;
    const check = () => {
      const left = expiresAt - Date.now();
      if (left <= 0) {
        this.fail(
          new StompProtocolError(
            'Access token has expired',
            'The access token of this session has expired; connect again with a new one',
            { code: AuthErrorCodes.TokenExpired },
          ),
        );
        return;
      }
      this.timers.push(setTimeout(check, Math.min(left, MAX_TIMER_MS)));
    };
    check();
  }

  private startHeartbeats(): void {
    if (this.outgoingMs > 0) {
      this.timers.push(setInterval(() => this.send('\n'), this.outgoingMs));
    }
    if (this.incomingMs > 0) {
      const timeoutMs = this.incomingMs + this.options.heartbeatGraceMs;
      this.lastReceivedAt = Date.now();
      this.timers.push(
        setInterval(
          () => {
            if (Date.now() - this.lastReceivedAt > timeoutMs) {
              this.fail(
                new StompProtocolError(
                  'Heart-beat time-out',
                  `Nothing received for more than ${timeoutMs} ms`,
                ),
              );
            }
          },
          Math.max(50, Math.min(1000, Math.floor(this.incomingMs / 4))),
        ),
      );
    }
  }

  private fail(error: StompProtocolError): void {
    if (this.state === 'closed') return;
    this.send(
      serializeFrame(
        'ERROR',
        { ...error.headers, message: error.message, 'content-type': 'text/plain' },
        error.detail || error.message,
      ),
    );
    this.state = 'closed';
    // STOMP: the server closes the connection after an ERROR frame.
    this.ws.close(1000, error.message.slice(0, 100));
    this.cleanup();
  }

  private send(data: Buffer | string): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    // Text messages (every frame here is UTF-8): a Buffer is sent as it is, without decoding it again.
    this.ws.send(data, { binary: false });
  }

  private cleanup(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.state = 'closed';
    if (!this.closedNotified) {
      this.closedNotified = true;
      this.host.onClosed(this);
    }
  }
}
