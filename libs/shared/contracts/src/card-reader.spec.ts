import {
  type CardOnReader,
  CardReaderClient,
  CardReaderError,
  type CardReaderSocket,
  failureCodeOf,
  parseCardReaderRequest,
} from './card-reader';

type Listener = (event: { data: unknown }) => void;

/** A WebSocket the test drives: it records what the client sends and plays the agent's side. */
class FakeSocket implements CardReaderSocket {
  static made: FakeSocket[] = [];
  readonly sent: Record<string, unknown>[] = [];
  closed = false;
  private readonly listeners = new Map<string, Listener[]>();

  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }

  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }

  close(): void {
    this.closed = true;
    this.emit('close');
  }

  addEventListener(type: string, listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  emit(type: 'open' | 'close' | 'error' | 'message', data?: unknown): void {
    for (const listener of this.listeners.get(type) ?? []) listener({ data });
  }

  answer(response: Record<string, unknown>): void {
    this.emit('message', JSON.stringify(response));
  }
}

const card: CardOnReader = { chip: 'CPU', uid: '04A1B2C3', cardNo: 'C0001', balanceFen: 500 };
/** Lets the client's promise callbacks run. */
const flush = async () => {
  for (let turn = 0; turn < 5; turn++) await Promise.resolve();
};

function client(timeoutMs = 1_000) {
  return new CardReaderClient({ url: 'ws://127.0.0.1:1', timeoutMs, WebSocket: FakeSocket });
}

async function rejection(promise: Promise<unknown>): Promise<CardReaderError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(CardReaderError);
  return error as CardReaderError;
}

beforeEach(() => {
  FakeSocket.made = [];
});

describe('CardReaderClient', () => {
  it('connects once, sends each request with its own id and resolves each with its own answer', async () => {
    const reader = client();
    const read = reader.read({ chip: 'CPU' });
    const make = reader.make('M1', 'M0002');
    expect(FakeSocket.made).toHaveLength(1);
    const socket = FakeSocket.made[0]!;
    expect(socket.url).toBe('ws://127.0.0.1:1');
    socket.emit('open');
    await flush();
    expect(socket.sent).toEqual([
      { id: expect.any(String), type: 'read', chip: 'CPU' },
      { id: expect.any(String), type: 'make', chip: 'M1', cardNo: 'M0002' },
    ]);
    const [readId, makeId] = socket.sent.map((request) => request['id']);
    expect(readId).not.toBe(makeId);
    // Answered out of order.
    socket.answer({ id: makeId, ok: true, card: { ...card, chip: 'M1', cardNo: 'M0002' } });
    socket.answer({ id: readId, ok: true, card });
    await expect(read).resolves.toEqual(card);
    await expect(make).resolves.toEqual({ ...card, chip: 'M1', cardNo: 'M0002' });
  });

  it('writes a balance for a recharge', async () => {
    const reader = client();
    const write = reader.write('recharge', 'C0001', 1_500);
    FakeSocket.made[0]!.emit('open');
    await flush();
    const socket = FakeSocket.made[0]!;
    expect(socket.sent[0]).toMatchObject({
      type: 'write',
      purpose: 'recharge',
      cardNo: 'C0001',
      balanceFen: 1_500,
    });
    socket.answer({ id: socket.sent[0]!['id'], ok: true, card: { ...card, balanceFen: 1_500 } });
    await expect(write).resolves.toMatchObject({ balanceFen: 1_500 });
  });

  it('fails with the code the agent answers', async () => {
    const reader = client();
    const read = reader.read({ expectCardNo: 'C0001' });
    const socket = FakeSocket.made[0]!;
    socket.emit('open');
    await flush();
    socket.answer({ id: socket.sent[0]!['id'], ok: false, error: { code: 'idMismatch', detail: 'C0002' } });
    const error = await rejection(read);
    expect([error.code, error.failure, error.detail]).toEqual(['idMismatch', 'reader', 'C0002']);
  });

  it('an unknown code from the agent becomes the operation’s own failure', async () => {
    const reader = client();
    const write = reader.write('refund', 'C0001', 0);
    const socket = FakeSocket.made[0]!;
    socket.emit('open');
    await flush();
    socket.answer({ id: socket.sent[0]!['id'], ok: false, error: { code: 'somethingNew' } });
    expect((await rejection(write)).code).toBe('refundFailed');
  });

  it.each([
    ['read a CPU card', 'readCpuCardFailed', (r: CardReaderClient) => r.read({ chip: 'CPU' })],
    ['read any card', 'readFailed', (r: CardReaderClient) => r.read()],
    ['make a CPU card', 'makeCpuCardFailed', (r: CardReaderClient) => r.make('CPU', 'C1')],
    ['make an M1 card', 'makeM1CardFailed', (r: CardReaderClient) => r.make('M1', 'M1')],
    ['write a recharge', 'rechargeFailed', (r: CardReaderClient) => r.write('recharge', 'C1', 1)],
    ['write a refund', 'refundFailed', (r: CardReaderClient) => r.write('refund', 'C1', 0)],
  ] as const)('no agent running: %s fails as %s', async (_name, code, operation) => {
    const pending = operation(client());
    FakeSocket.made[0]!.emit('error');
    FakeSocket.made[0]!.emit('close');
    const error = await rejection(pending);
    expect([error.code, error.failure]).toEqual([code, 'connection']);
  });

  it('a request the agent does not answer in time fails as a time-out; a late answer is ignored', async () => {
    jest.useFakeTimers();
    try {
      const reader = client(500);
      const read = reader.read({ chip: 'M1' });
      const socket = FakeSocket.made[0]!;
      socket.emit('open');
      await Promise.resolve();
      jest.advanceTimersByTime(500);
      const error = await rejection(read);
      expect([error.code, error.failure]).toEqual(['readFailed', 'timeout']);
      socket.answer({ id: socket.sent[0]?.['id'], ok: true, card });
    } finally {
      jest.useRealTimers();
    }
  });

  it('a connection lost mid-request fails the requests in flight, and the next request connects again', async () => {
    const reader = client();
    const first = reader.make('CPU', 'C0001');
    FakeSocket.made[0]!.emit('open');
    await flush();
    FakeSocket.made[0]!.emit('close');
    const error = await rejection(first);
    expect([error.code, error.failure]).toEqual(['makeCpuCardFailed', 'connection']);

    const second = reader.read();
    expect(FakeSocket.made).toHaveLength(2);
    const socket = FakeSocket.made[1]!;
    socket.emit('open');
    await flush();
    socket.answer({ id: socket.sent[0]!['id'], ok: true, card });
    await expect(second).resolves.toEqual(card);
  });

  it('close() fails what is waiting and closes the socket', async () => {
    const reader = client();
    const read = reader.read();
    reader.close();
    expect(FakeSocket.made[0]!.closed).toBe(true);
    expect((await rejection(read)).failure).toBe('connection');
  });

  it('without a WebSocket anywhere, fails as a connection error instead of throwing', async () => {
    const global = globalThis as { WebSocket?: unknown };
    const saved = global.WebSocket;
    delete global.WebSocket;
    try {
      const reader = new CardReaderClient({ timeoutMs: 1_000 });
      const error = await rejection(reader.read());
      expect([error.code, error.failure]).toEqual(['readFailed', 'connection']);
    } finally {
      if (saved !== undefined) global.WebSocket = saved;
    }
  });

  it('uses the global WebSocket when none is given', async () => {
    const global = globalThis as { WebSocket?: unknown };
    const saved = global.WebSocket;
    global.WebSocket = FakeSocket;
    try {
      const reader = new CardReaderClient();
      const read = reader.read().catch(() => undefined);
      expect(FakeSocket.made.map((socket) => socket.url)).toEqual(['ws://127.0.0.1:4455']);
      reader.close();
      await read;
    } finally {
      if (saved === undefined) delete global.WebSocket;
      else global.WebSocket = saved;
    }
  });

  it('ignores answers that are not JSON or have no id', async () => {
    const reader = client();
    const read = reader.read();
    const socket = FakeSocket.made[0]!;
    socket.emit('open');
    await flush();
    socket.emit('message', 'not json');
    socket.answer({ ok: true, card });
    socket.answer({ id: socket.sent[0]!['id'], ok: true, card });
    await expect(read).resolves.toEqual(card);
  });
});

describe('parseCardReaderRequest', () => {
  it.each([
    [
      { id: 'a', type: 'read' },
      { id: 'a', type: 'read' },
    ],
    [
      { id: 'a', type: 'read', chip: 'M1', expectCardNo: 'M-1' },
      { id: 'a', type: 'read', chip: 'M1', expectCardNo: 'M-1' },
    ],
    [
      { id: 'a', type: 'make', chip: 'CPU', cardNo: 'C1' },
      { id: 'a', type: 'make', chip: 'CPU', cardNo: 'C1' },
    ],
    [
      { id: 'a', type: 'write', purpose: 'refund', cardNo: 'C1', balanceFen: 0 },
      { id: 'a', type: 'write', purpose: 'refund', cardNo: 'C1', balanceFen: 0 },
    ],
  ])('accepts %j', (input, request) => {
    const parsed = parseCardReaderRequest(JSON.stringify(input));
    expect(parsed.ok && { ...parsed.request }).toEqual(expect.objectContaining(request));
  });

  it.each([
    ['not JSON', 'nope', null, 'readFailed'],
    ['no id', JSON.stringify({ type: 'read' }), null, 'readFailed'],
    ['an unknown type', JSON.stringify({ id: 'a', type: 'format' }), 'a', 'readFailed'],
    ['a bad chip to read', JSON.stringify({ id: 'a', type: 'read', chip: 'NFC' }), 'a', 'readFailed'],
    [
      'a make without a card number',
      JSON.stringify({ id: 'a', type: 'make', chip: 'M1' }),
      'a',
      'makeM1CardFailed',
    ],
    [
      'a make of an unknown chip',
      JSON.stringify({ id: 'a', type: 'make', chip: 'X', cardNo: 'C1' }),
      'a',
      'makeCpuCardFailed',
    ],
    [
      'a refund of a negative balance',
      JSON.stringify({ id: 'a', type: 'write', purpose: 'refund', cardNo: 'C1', balanceFen: -1 }),
      'a',
      'refundFailed',
    ],
    [
      'a recharge of a fraction of a fen',
      JSON.stringify({ id: 'a', type: 'write', purpose: 'recharge', cardNo: 'C1', balanceFen: 1.5 }),
      'a',
      'rechargeFailed',
    ],
    [
      'a card number with spaces',
      JSON.stringify({ id: 'a', type: 'write', purpose: 'recharge', cardNo: 'C 1', balanceFen: 1 }),
      'a',
      'rechargeFailed',
    ],
  ])('refuses %s', (_name, text, id, code) => {
    const parsed = parseCardReaderRequest(text);
    expect(parsed).toEqual({
      ok: false,
      response: { id, ok: false, error: { code, detail: expect.any(String) } },
    });
  });

  it('failureCodeOf names each operation’s failure', () => {
    expect(failureCodeOf({ type: 'read', chip: 'M1' })).toBe('readFailed');
    expect(failureCodeOf({ type: 'write', purpose: 'refund' })).toBe('refundFailed');
  });
});
