/**
 * The IC card reader on the operator's PC (business-areas §8): a local agent the console talks to over
 * WebSocket on loopback (`ws://127.0.0.1:4455` by default), one JSON request per message, answered by one
 * JSON response with the same `id`. Failures are the §8 reader messages, so the console shows them as they
 * are. The protocol, the agent and the simulated agent (`npm run card-reader`) are in docs/ic-cards.md.
 *
 * Browser-safe: the client takes a WebSocket constructor (the browser's by default) and nothing else.
 */
import { IC_CARD_CHIPS, type IcCardChip, type IcCardMessageCode } from './ic-card';

/** The agent's default port on 127.0.0.1. */
export const CARD_READER_DEFAULT_PORT = 4455;
export const CARD_READER_DEFAULT_URL = `ws://127.0.0.1:${CARD_READER_DEFAULT_PORT}`;

/** Why a balance is written to the card: it decides the failure message. */
export const CARD_WRITE_PURPOSES = ['recharge', 'refund'] as const;
export type CardWritePurpose = (typeof CARD_WRITE_PURPOSES)[number];

/**
 * Read the card in the slot. `chip` says what the screen expects (a CPU card screen reads CPU cards);
 * `expectCardNo` that it must be this card (an operation on a selected card): another card is `idMismatch`.
 */
export type CardReadRequest = { id: string; type: 'read'; chip?: IcCardChip; expectCardNo?: string };
/** Make the blank card in the slot: initialise its keys and write the card number (balance 0). */
export type CardMakeRequest = { id: string; type: 'make'; chip: IcCardChip; cardNo: string };
/** Write the card's new balance after a recharge or a refund; the card in the slot must be `cardNo`. */
export type CardWriteRequest = {
  id: string;
  type: 'write';
  purpose: CardWritePurpose;
  cardNo: string;
  balanceFen: number;
};
export type CardReaderRequest = CardReadRequest | CardMakeRequest | CardWriteRequest;
export type CardReaderRequestType = CardReaderRequest['type'];

/** What the reader knows of a made card. */
export type CardOnReader = {
  chip: IcCardChip;
  /** The chip's factory serial (UID), printed on nothing, unique per physical card. */
  uid: string;
  cardNo: string;
  balanceFen: number;
};

/** The reader failures (§8), plus ours for an M1 card that could not be made. */
export const CARD_READER_ERROR_CODES = [
  'readCpuCardFailed',
  'makeCpuCardFailed',
  'makeM1CardFailed',
  'abnormalCardReading',
  'cardKeyInitFailed',
  'readFailed',
  'refundFailed',
  'rechargeFailed',
  'idMismatch',
] as const satisfies readonly IcCardMessageCode[];
export type CardReaderErrorCode = (typeof CARD_READER_ERROR_CODES)[number];

export type CardReaderResponse =
  | { id: string; ok: true; card: CardOnReader }
  | { id: string | null; ok: false; error: { code: CardReaderErrorCode; detail?: string } };

/** The message an operation shows when it fails for a reason of its own (a lost connection, a fault). */
export function failureCodeOf(
  request: Pick<CardReaderRequest, 'type'> & { chip?: IcCardChip; purpose?: CardWritePurpose },
): CardReaderErrorCode {
  switch (request.type) {
    case 'read':
      return request.chip === 'CPU' ? 'readCpuCardFailed' : 'readFailed';
    case 'make':
      return request.chip === 'M1' ? 'makeM1CardFailed' : 'makeCpuCardFailed';
    case 'write':
      return request.purpose === 'refund' ? 'refundFailed' : 'rechargeFailed';
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isChip = (value: unknown): value is IcCardChip =>
  typeof value === 'string' && (IC_CARD_CHIPS as readonly string[]).includes(value);
const isCardNo = (value: unknown): value is string =>
  typeof value === 'string' && /^[A-Za-z0-9-]{1,32}$/.test(value);

/** A request as the agent receives it: checked field by field, or why it is refused. */
export function parseCardReaderRequest(
  text: string,
): { ok: true; request: CardReaderRequest } | { ok: false; response: CardReaderResponse } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const id = isRecord(value) && typeof value['id'] === 'string' && value['id'] !== '' ? value['id'] : null;
  const refuse = (code: CardReaderErrorCode, detail: string) =>
    ({ ok: false, response: { id, ok: false, error: { code, detail } } }) as const;
  if (!isRecord(value) || id === null) return refuse('readFailed', 'a request is a JSON object with an id');
  const { type, chip } = value;
  switch (type) {
    case 'read': {
      if (chip !== undefined && !isChip(chip)) return refuse('readFailed', 'chip is CPU or M1');
      const expectCardNo = value['expectCardNo'];
      if (expectCardNo !== undefined && !isCardNo(expectCardNo)) {
        return refuse(failureCodeOf({ type, chip }), 'expectCardNo is 1 to 32 letters, digits or -');
      }
      return { ok: true, request: { id, type, chip, expectCardNo } };
    }
    case 'make': {
      if (!isChip(chip)) return refuse('makeCpuCardFailed', 'chip is CPU or M1');
      const cardNo = value['cardNo'];
      if (!isCardNo(cardNo))
        return refuse(failureCodeOf({ type, chip }), 'cardNo is 1 to 32 letters, digits or -');
      return { ok: true, request: { id, type, chip, cardNo } };
    }
    case 'write': {
      const { purpose, cardNo, balanceFen } = value;
      if (purpose !== 'recharge' && purpose !== 'refund')
        return refuse('rechargeFailed', 'purpose is recharge or refund');
      if (!isCardNo(cardNo))
        return refuse(failureCodeOf({ type, purpose }), 'cardNo is 1 to 32 letters, digits or -');
      if (typeof balanceFen !== 'number' || !Number.isSafeInteger(balanceFen) || balanceFen < 0) {
        return refuse(failureCodeOf({ type, purpose }), 'balanceFen is a whole number of fen, not below 0');
      }
      return { ok: true, request: { id, type, purpose, cardNo, balanceFen } };
    }
    default:
      return refuse('readFailed', 'type is read, make or write');
  }
}

// ---- The client (browser-safe)

/** What the client needs of a WebSocket: the browser's and the `ws` package's both fit. */
export type CardReaderSocket = {
  send(data: string): void;
  close(): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
};
export type CardReaderSocketConstructor = new (url: string) => CardReaderSocket;

/** Where a failure came from: the agent answered it, the agent could not be reached, or it did not answer. */
export type CardReaderFailureCause = 'reader' | 'connection' | 'timeout';

/** A failed reader operation: `code` is the §8 message to show. */
export class CardReaderError extends Error {
  constructor(
    readonly code: CardReaderErrorCode,
    readonly failure: CardReaderFailureCause,
    readonly detail?: string,
  ) {
    super(`${code} (${failure}${detail ? `: ${detail}` : ''})`);
    this.name = 'CardReaderError';
  }
}

export type CardReaderClientOptions = {
  url?: string;
  /** How long a request waits for its answer (the agent waits for the card). */
  timeoutMs?: number;
  /** The WebSocket to use: the browser's when not given. */
  WebSocket?: CardReaderSocketConstructor;
};

type Pending = {
  request: CardReaderRequest;
  resolve: (card: CardOnReader) => void;
  reject: (error: CardReaderError) => void;
  timer: unknown;
};

/** The timers of whatever runs this (browser or Node); the library's types name neither. */
type Timers = { setTimeout(handler: () => void, ms: number): unknown; clearTimeout(handle: unknown): void };
const timers = globalThis as unknown as Timers;

type Distribute<T> = T extends unknown ? Omit<T, 'id'> : never;

/**
 * Talks to the local reader agent. Connects on the first request and again after a lost connection;
 * every request gets its own id, its own time-out, and fails with its operation's §8 message.
 */
export class CardReaderClient {
  private readonly url: string;
  private readonly timeoutMs: number;
  private readonly Socket: CardReaderSocketConstructor | undefined;
  private socket: CardReaderSocket | undefined;
  private opened: Promise<CardReaderSocket> | undefined;
  private readonly pending = new Map<string, Pending>();
  private sequence = 0;
  private readonly prefix = Math.random().toString(36).slice(2, 8);

  constructor(options: CardReaderClientOptions = {}) {
    this.url = options.url ?? CARD_READER_DEFAULT_URL;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.Socket = options.WebSocket ?? (globalThis as { WebSocket?: CardReaderSocketConstructor }).WebSocket;
  }

  read(options: { chip?: IcCardChip; expectCardNo?: string } = {}): Promise<CardOnReader> {
    return this.request({ type: 'read', ...options });
  }

  make(chip: IcCardChip, cardNo: string): Promise<CardOnReader> {
    return this.request({ type: 'make', chip, cardNo });
  }

  write(purpose: CardWritePurpose, cardNo: string, balanceFen: number): Promise<CardOnReader> {
    return this.request({ type: 'write', purpose, cardNo, balanceFen });
  }

  /** Closes the connection; requests waiting fail as a lost connection. */
  close(): void {
    const socket = this.socket;
    this.forget(socket);
    socket?.close();
  }

  private request(body: Distribute<CardReaderRequest>): Promise<CardOnReader> {
    const request = { ...body, id: `${this.prefix}-${++this.sequence}` } as CardReaderRequest;
    return new Promise<CardOnReader>((resolve, reject) => {
      const timer = timers.setTimeout(() => {
        this.pending.delete(request.id);
        reject(new CardReaderError(failureCodeOf(request), 'timeout'));
      }, this.timeoutMs);
      this.pending.set(request.id, { request, resolve, reject, timer });
      this.connect().then(
        (socket) => {
          if (!this.pending.has(request.id)) return;
          try {
            socket.send(JSON.stringify(request));
          } catch (error) {
            this.settle(request.id, new CardReaderError(failureCodeOf(request), 'connection', String(error)));
          }
        },
        (error: unknown) =>
          this.settle(request.id, new CardReaderError(failureCodeOf(request), 'connection', String(error))),
      );
    });
  }

  private connect(): Promise<CardReaderSocket> {
    if (this.opened) return this.opened;
    const Socket = this.Socket;
    if (!Socket) return Promise.reject(new Error('no WebSocket in this environment'));
    let socket: CardReaderSocket;
    try {
      socket = new Socket(this.url);
    } catch (error) {
      return Promise.reject(error);
    }
    this.socket = socket;
    this.opened = new Promise<CardReaderSocket>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(socket));
      socket.addEventListener('error', () =>
        reject(new Error(`cannot reach the card reader at ${this.url}`)),
      );
      socket.addEventListener('close', () => {
        reject(new Error(`the card reader at ${this.url} closed the connection`));
        this.forget(socket);
      });
      socket.addEventListener('message', (event) => this.receive(event.data));
    });
    // The requests waiting on it handle the failure; this keeps it from being reported as unhandled.
    this.opened.catch(() => undefined);
    return this.opened;
  }

  /** The connection is gone: the next request connects again, those in flight fail. */
  private forget(socket: CardReaderSocket | undefined): void {
    if (!socket || socket !== this.socket) return;
    this.socket = undefined;
    this.opened = undefined;
    for (const [id, { request }] of this.pending) {
      this.settle(id, new CardReaderError(failureCodeOf(request), 'connection', 'connection closed'));
    }
  }

  private receive(data: unknown): void {
    let response: CardReaderResponse;
    try {
      response = JSON.parse(String(data)) as CardReaderResponse;
    } catch {
      return;
    }
    if (!isRecord(response) || typeof response.id !== 'string') return;
    if (response.ok) {
      this.settle(response.id, response.card);
    } else {
      const code = (CARD_READER_ERROR_CODES as readonly string[]).includes(response.error?.code)
        ? response.error.code
        : undefined;
      const pending = this.pending.get(response.id);
      if (!pending) return;
      this.settle(
        response.id,
        new CardReaderError(code ?? failureCodeOf(pending.request), 'reader', response.error?.detail),
      );
    }
  }

  private settle(id: string, outcome: CardOnReader | CardReaderError): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    timers.clearTimeout(pending.timer);
    if (outcome instanceof CardReaderError) pending.reject(outcome);
    else pending.resolve(outcome);
  }
}
