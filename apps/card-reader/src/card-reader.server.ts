import { parseCardReaderRequest } from '@voltdepot/shared-contracts';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { admit } from './admission';
import type { CardReaderConfig } from './card-reader.config';
import { emptyReaderState, SimulatedReader, type SimulatedReaderState } from './simulated-reader';

/** The agent listens here only: the reader serves the operator's own PC. */
export const CARD_READER_HOST = '127.0.0.1';

export type CardReaderAgent = {
  port: number;
  /** ws://127.0.0.1:<port> */
  url: string;
  reader: SimulatedReader;
  close(): Promise<void>;
};

type Log = (message: string) => void;

function loadState(file: string | undefined): SimulatedReaderState {
  if (!file || !existsSync(file)) return emptyReaderState();
  const state = JSON.parse(readFileSync(file, 'utf8')) as Partial<SimulatedReaderState>;
  return { slot: state.slot ?? null, cards: state.cards ?? {}, keys: state.keys ?? {} };
}

function saveState(file: string | undefined, reader: SimulatedReader): void {
  if (!file) return;
  // The file holds the card keys: only this user reads it; written whole, then renamed into place.
  writeFileSync(`${file}.tmp`, JSON.stringify(reader.snapshot(), null, 2), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

function send(response: ServerResponse, status: number, body?: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(body === undefined ? undefined : JSON.stringify(body));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of request) {
    text += String(chunk);
    if (text.length > 16_384) throw new Error('body too large');
  }
  return text === '' ? {} : JSON.parse(text);
}

/**
 * The simulated reader agent: the protocol on WebSocket, and a small HTTP control API for tests and the
 * demo to put cards in and take them out (docs/ic-cards.md). Both only for this machine and, of the web
 * pages, only the console's.
 */
export async function startCardReaderAgent(
  config: CardReaderConfig,
  log: Log = () => undefined,
): Promise<CardReaderAgent> {
  const reader = new SimulatedReader(loadState(config.stateFile));
  const changed = () => saveState(config.stateFile, reader);

  const control = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = new URL(request.url ?? '/', 'http://reader').pathname;
    const card = /^\/cards\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && path === '/cards') return send(response, 200, reader.cards());
    if (request.method === 'PUT' && card) {
      const refusal = reader.putCard(decodeURIComponent(card[1]!), await readJson(request));
      if (refusal) return send(response, 400, { message: refusal });
      changed();
      return send(response, 200, reader.cards());
    }
    if (request.method === 'PUT' && path === '/slot') {
      const body = (await readJson(request)) as { uid?: unknown };
      if (typeof body.uid !== 'string' || !reader.insert(body.uid)) {
        return send(response, 404, { message: 'no such card: PUT /cards/<uid> first' });
      }
      changed();
      return send(response, 200, reader.cards());
    }
    if (request.method === 'DELETE' && path === '/slot') {
      reader.remove();
      changed();
      return send(response, 200, reader.cards());
    }
    send(response, 404, { message: 'GET /cards, PUT /cards/<uid>, PUT /slot {uid}, DELETE /slot' });
  };

  const server = createServer((request, response) => {
    const admission = admit(
      { remoteAddress: request.socket.remoteAddress, origin: request.headers.origin },
      config.allowedOrigins,
    );
    if (!admission.ok) {
      log(`refused a control request: ${admission.reason}`);
      return send(response, 403, { message: 'forbidden' });
    }
    control(request, response).catch((error: unknown) => send(response, 400, { message: String(error) }));
  });

  const sockets = new WebSocketServer({ noServer: true, maxPayload: 16_384 });
  server.on('upgrade', (request, socket, head) => {
    const admission = admit(
      { remoteAddress: request.socket.remoteAddress, origin: request.headers.origin },
      config.allowedOrigins,
    );
    if (!admission.ok) {
      log(`refused a connection: ${admission.reason}`);
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      ws.on('message', (data) => {
        const parsed = parseCardReaderRequest(String(data));
        const response = parsed.ok ? reader.handle(parsed.request) : parsed.response;
        if (parsed.ok && parsed.request.type !== 'read' && response.ok) changed();
        ws.send(JSON.stringify(response));
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, CARD_READER_HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `ws://${CARD_READER_HOST}:${port}`,
    reader,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of sockets.clients) client.terminate();
        sockets.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
