import {
  CardReaderClient,
  CardReaderError,
  type CardReaderSocketConstructor,
} from '@voltdepot/shared-contracts';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { type CardReaderAgent, startCardReaderAgent } from './card-reader.server';

const CONSOLE_ORIGIN = 'http://localhost:4200';

/** The browser's WebSocket as the console's page opens it: `ws` sending the page's Origin. */
function socketFrom(origin: string): CardReaderSocketConstructor {
  return class extends WebSocket {
    constructor(url: string) {
      super(url, { origin });
    }
  } as unknown as CardReaderSocketConstructor;
}

async function failure(promise: Promise<unknown>): Promise<CardReaderError> {
  const reason = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(reason).toBeInstanceOf(CardReaderError);
  return reason as CardReaderError;
}

describe('the simulated card reader agent', () => {
  let dir: string;
  let agent: CardReaderAgent;
  let reader: CardReaderClient;
  let control: (method: string, path: string, body?: unknown) => Promise<Response>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'card-reader-'));
    agent = await startCardReaderAgent({
      port: 0,
      allowedOrigins: [CONSOLE_ORIGIN],
      stateFile: join(dir, 'reader.json'),
    });
    control = (method, path, body) =>
      fetch(`http://127.0.0.1:${agent.port}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    reader = new CardReaderClient({
      url: agent.url,
      timeoutMs: 5_000,
      WebSocket: socketFrom(CONSOLE_ORIGIN),
    });
  });

  afterAll(async () => {
    reader?.close();
    await agent?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const insert = async (uid: string, card: Record<string, unknown>) => {
    expect((await control('PUT', `/cards/${uid}`, card)).status).toBe(200);
    expect((await control('PUT', '/slot', { uid })).status).toBe(200);
  };

  it('makes a CPU card, writes its balance, reads it back, and keeps its key in the state file only', async () => {
    await insert('04A1B2C3', { chip: 'CPU' });
    await expect(reader.make('CPU', 'C0001')).resolves.toEqual({
      chip: 'CPU',
      uid: '04A1B2C3',
      cardNo: 'C0001',
      balanceFen: 0,
    });
    await expect(reader.write('recharge', 'C0001', 12_345)).resolves.toMatchObject({ balanceFen: 12_345 });
    await expect(reader.read({ chip: 'CPU', expectCardNo: 'C0001' })).resolves.toMatchObject({
      cardNo: 'C0001',
      balanceFen: 12_345,
    });

    const listed = (await (await control('GET', '/cards')).json()) as { cards: Record<string, unknown>[] };
    expect(listed.cards).toEqual([expect.objectContaining({ uid: '04A1B2C3', keyed: true, inSlot: true })]);
    expect(JSON.stringify(listed)).not.toMatch(/"key"/);
    const file = join(dir, 'reader.json');
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { keys: Record<string, string> };
    expect(saved.keys['C0001']).toMatch(/^[0-9a-f]{32}$/);
    expect(statSync(file).mode & 0o077).toBe(0);
  });

  it('makes an M1 card', async () => {
    await insert('0B0B0B0B', { chip: 'M1' });
    await expect(reader.make('M1', 'M0001')).resolves.toMatchObject({ chip: 'M1', cardNo: 'M0001' });
  });

  it('no card in the reader: abnormal card reading', async () => {
    expect((await control('DELETE', '/slot')).status).toBe(200);
    const error = await failure(reader.read());
    expect([error.code, error.failure]).toEqual(['abnormalCardReading', 'reader']);
  });

  it('a used card cannot be made again: abnormal card reading', async () => {
    expect((await control('PUT', '/slot', { uid: '04A1B2C3' })).status).toBe(200);
    expect((await failure(reader.make('CPU', 'C0009'))).code).toBe('abnormalCardReading');
  });

  it('another card than the one selected: ID mismatch, and its balance is not written', async () => {
    expect((await control('PUT', '/slot', { uid: '04A1B2C3' })).status).toBe(200);
    expect((await failure(reader.write('refund', 'C0002', 0))).code).toBe('idMismatch');
    expect((await failure(reader.read({ expectCardNo: 'C0002' }))).code).toBe('idMismatch');
    await expect(reader.read()).resolves.toMatchObject({ cardNo: 'C0001', balanceFen: 12_345 });
  });

  it('a card whose keys cannot be initialised: card key initialisation failed', async () => {
    await insert('0C0C0C0C', { chip: 'CPU', faults: ['keyInit'] });
    expect((await failure(reader.make('CPU', 'C0003'))).code).toBe('cardKeyInitFailed');
  });

  it('a page of another origin is refused before the protocol starts', async () => {
    const foreign = new CardReaderClient({
      url: agent.url,
      timeoutMs: 5_000,
      WebSocket: socketFrom('https://evil.example'),
    });
    const error = await failure(foreign.read());
    expect([error.code, error.failure]).toEqual(['readFailed', 'connection']);
    foreign.close();

    // The handshake itself is answered 403, and so is the control API.
    const status = await new Promise<number | undefined>((resolve) => {
      const socket = new WebSocket(agent.url, { origin: 'https://evil.example' });
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode));
      socket.on('open', () => resolve(101));
      socket.on('error', () => resolve(undefined));
    });
    expect(status).toBe(403);
    const response = await fetch(`http://127.0.0.1:${agent.port}/slot`, {
      method: 'DELETE',
      headers: { origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
  });

  it('listens on loopback only', async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === 'IPv4' && !address.internal);
    if (!external) return; // a machine with loopback only has nothing to show
    await expect(fetch(`http://${external.address}:${agent.port}/cards`)).rejects.toThrow();
  });

  it('a garbled request gets an answer, and the connection stays usable', async () => {
    expect((await control('PUT', '/slot', { uid: '04A1B2C3' })).status).toBe(200);
    const answers = await new Promise<unknown[]>((resolve, reject) => {
      const received: unknown[] = [];
      const socket = new WebSocket(agent.url, { origin: CONSOLE_ORIGIN });
      socket.on('open', () => {
        socket.send('{"type":"read"');
        socket.send(JSON.stringify({ id: 'second', type: 'read' }));
      });
      socket.on('message', (data) => {
        received.push(JSON.parse(String(data)));
        if (received.length === 2) {
          socket.close();
          resolve(received);
        }
      });
      socket.on('error', reject);
    });
    expect(answers).toEqual([
      { id: null, ok: false, error: { code: 'readFailed', detail: expect.any(String) } },
      { id: 'second', ok: true, card: expect.objectContaining({ cardNo: 'C0001' }) },
    ]);
  });

  it('a restarted agent finds its cards and keys in the state file', async () => {
    const again = await startCardReaderAgent({
      port: 0,
      allowedOrigins: [],
      stateFile: join(dir, 'reader.json'),
    });
    try {
      // A local program (no Origin) is let in; the keys made by the first agent still authenticate.
      const plain = new CardReaderClient({
        url: again.url,
        timeoutMs: 5_000,
        WebSocket: WebSocket as unknown as CardReaderSocketConstructor,
      });
      await fetch(`http://127.0.0.1:${again.port}/slot`, {
        method: 'PUT',
        body: JSON.stringify({ uid: '04A1B2C3' }),
      });
      await expect(plain.read({ expectCardNo: 'C0001' })).resolves.toMatchObject({ balanceFen: 12_345 });
      plain.close();
    } finally {
      await again.close();
    }
  });
});
