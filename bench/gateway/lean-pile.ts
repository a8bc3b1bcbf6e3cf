import WebSocket from 'ws';

/**
 * The benchmark's simulated pile: one OCPP-J WebSocket (HTTP Basic, sub-protocol ocpp1.6) that sends
 * calls one at a time, as a pile does, and nothing else. It speaks the protocol directly instead of
 * through ocpp-rpc's RPCClient, whose per-call machinery (an AbortController and timer per call, a call
 * queue, keep-alive pings of its own) made the load generator the largest CPU user of the 2-core
 * machine the servers share with it: the server under test measured its rivals' stalls more than its
 * own work. Calls are not validated (the servers validate what they receive) and have no time-out;
 * a call still open when the socket closes fails.
 */
/** The gateway answered the WebSocket handshake with an HTTP status instead of switching protocols. */
export class HandshakeRefused extends Error {
  constructor(readonly status: number) {
    super(`handshake refused: HTTP ${status}`);
  }
}

export class LeanPile {
  open = false;
  private socket?: WebSocket;
  private nextId = 0;
  private inFlight?: { id: string; resolve: (result: unknown) => void; reject: (error: Error) => void };
  private readonly queue: {
    frame: (id: string) => string;
    resolve: (r: unknown) => void;
    reject: (e: Error) => void;
  }[] = [];

  constructor(
    readonly id: string,
    private readonly options: { url: string; password: string; handshakeTimeoutMs?: number },
  ) {}

  /** Resolves once the connection is open; rejects with HandshakeRefused when the server says no. */
  connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const authorization = Buffer.from(`${this.id}:${this.options.password}`).toString('base64');
      const socket = new WebSocket(`${this.options.url}/${encodeURIComponent(this.id)}`, 'ocpp1.6', {
        headers: { authorization: `Basic ${authorization}` },
        perMessageDeflate: false,
        ...(this.options.handshakeTimeoutMs ? { handshakeTimeout: this.options.handshakeTimeoutMs } : {}),
      });
      this.socket = socket;
      socket.once('open', () => {
        this.open = true;
        resolve();
      });
      socket.once('unexpected-response', (_request, response) => {
        reject(new HandshakeRefused(response.statusCode ?? 0));
        socket.terminate();
      });
      socket.on('error', (error) => {
        if (!this.open) reject(error);
      });
      socket.on('message', (data) => this.receive(data.toString()));
      socket.once('close', () => {
        this.open = false;
        const closed = new Error('connection closed');
        this.inFlight?.reject(closed);
        this.inFlight = undefined;
        for (const queued of this.queue.splice(0)) queued.reject(closed);
      });
    });
  }

  /** Sends the call once the previous one is answered; resolves with the CALLRESULT's payload. */
  call(action: string, payload: unknown): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (!this.open) {
        reject(new Error('not connected'));
        return;
      }
      this.queue.push({ frame: (id) => JSON.stringify([2, id, action, payload]), resolve, reject });
      if (!this.inFlight) this.sendNext();
    });
  }

  close(): void {
    this.socket?.terminate();
  }

  private sendNext(): void {
    const next = this.queue.shift();
    if (!next) return;
    const id = String(++this.nextId);
    this.inFlight = { id, resolve: next.resolve, reject: next.reject };
    this.socket!.send(next.frame(id));
  }

  private receive(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (!Array.isArray(message)) return;
    const [type, id] = message as [number, string];
    if (type === 2) {
      // A command from the server: the bench's piles accept nothing.
      this.socket!.send(JSON.stringify([4, id, 'NotImplemented', 'bench pile', {}]));
      return;
    }
    const call = this.inFlight;
    if (!call || call.id !== id) return;
    this.inFlight = undefined;
    if (type === 3) call.resolve(message[2]);
    else call.reject(new Error(`${String(message[2])}: ${String(message[3])}`));
    this.sendNext();
  }
}
