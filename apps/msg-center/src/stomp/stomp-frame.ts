/** STOMP 1.2 frames: https://stomp.github.io/stomp-specification-1.2.html */

export type StompHeaders = Record<string, string>;
export type StompFrame = { command: string; headers: StompHeaders; body: Buffer };

export const CLIENT_COMMANDS = new Set([
  'CONNECT',
  'STOMP',
  'SEND',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'ACK',
  'NACK',
  'BEGIN',
  'COMMIT',
  'ABORT',
  'DISCONNECT',
]);

export class StompFrameError extends Error {}

const NUL = 0;
const LF = 10;
const CR = 13;

/** CONNECT and CONNECTED headers are not escaped (spec: "Value Encoding"). */
function unescapeHeader(raw: string, command: string): string {
  if (command === 'CONNECT' || command === 'STOMP') return raw;
  return raw.replace(/\\(.)/g, (_m, c: string) => {
    switch (c) {
      case 'r':
        return '\r';
      case 'n':
        return '\n';
      case 'c':
        return ':';
      case '\\':
        return '\\';
      default:
        throw new StompFrameError(`Undefined escape sequence \\${c} in a header`);
    }
  });
}

const NEEDS_ESCAPE = /[\\\r\n:]/;

function escapeHeader(value: string, command: string): string {
  if (command === 'CONNECTED' || !NEEDS_ESCAPE.test(value)) return value;
  return value.replace(/\\/g, '\\\\').replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(/:/g, '\\c');
}

export function serializeFrame(
  command: string,
  headers: StompHeaders = {},
  body: string | Buffer = '',
): Buffer {
  const payload = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const lines = [command];
  for (const [name, value] of Object.entries(headers)) {
    lines.push(`${escapeHeader(name, command)}:${escapeHeader(value, command)}`);
  }
  if (payload.length > 0 && headers['content-length'] === undefined && command !== 'CONNECTED') {
    lines.push(`content-length:${payload.length}`);
  }
  return Buffer.concat([Buffer.from(`${lines.join('\n')}\n\n`, 'utf8'), payload, Buffer.from([NUL])]);
}

/**
 * A MESSAGE frame prepared once for a fan-out: everything but the per-subscription headers
 * (`subscription`, `message-id`) is escaped and measured once, however many sessions receive it.
 */
export class PreparedMessage {
  private readonly head: Buffer;
  private readonly tail: Buffer;

  constructor(destination: string, body: string, headers: StompHeaders = {}) {
    const all: StompHeaders = {
      ...headers,
      destination,
      'content-type': 'application/json;charset=UTF-8',
      'content-length': String(Buffer.byteLength(body, 'utf8')),
    };
    const lines = Object.entries(all)
      .map(([name, value]) => `${escapeHeader(name, 'MESSAGE')}:${escapeHeader(value, 'MESSAGE')}\n`)
      .join('');
    // Encoded once: each session only adds its two short headers.
    this.head = Buffer.from(`MESSAGE\n${lines}`, 'utf8');
    this.tail = Buffer.from(`\n${body}\0`, 'utf8');
  }

  /** The frame for one subscription (UTF-8; sent as a WebSocket text message). */
  frame(subscriptionId: string, messageId: string): Buffer {
    const own = `subscription:${escapeHeader(subscriptionId, 'MESSAGE')}\nmessage-id:${escapeHeader(messageId, 'MESSAGE')}\n`;
    return Buffer.concat([this.head, Buffer.from(own, 'utf8'), this.tail]);
  }
}

/** The head of a frame whose headers are complete, waiting for its body. */
type FrameHead = { command: string; headers: StompHeaders; bodyStart: number; length?: number };

/**
 * Incremental parser: feed it whatever the socket delivered; it returns the complete frames and counts
 * heart-beats (bare EOLs between frames). Frames may be split across or packed into WebSocket messages.
 * Linear in the bytes received however they are split: the bytes are appended to a growing buffer, and
 * the searches for the end of the headers and of the body resume where they stopped.
 */
export class StompParser {
  /** Received bytes not yet consumed: data[start, end). */
  private data: Buffer = Buffer.alloc(0);
  private start = 0;
  private end = 0;
  /** `data` is a socket's chunk taken as it is (not ours to write into). */
  private borrowed = false;
  /** Where the search for the current frame's end of headers resumes (relative to start). */
  private headerScan = 0;
  private head: FrameHead | undefined;
  /** Where the search for the NUL ending the current body resumes (relative to start). */
  private bodyScan = 0;

  constructor(private readonly maxFrameBytes: number) {}

  push(chunk: Buffer): { frames: StompFrame[]; heartbeats: number } {
    this.append(chunk);
    const frames: StompFrame[] = [];
    let heartbeats = 0;
    for (;;) {
      // Heart-beats: EOLs before a command.
      if (this.head === undefined && this.headerScan === 0) {
        while (this.start < this.end && (this.data[this.start] === LF || this.data[this.start] === CR)) {
          if (this.data[this.start] === LF) heartbeats++;
          this.start++;
        }
      }
      if (this.start === this.end) break;
      const frame = this.tryFrame();
      if (frame === undefined) {
        if (this.end - this.start > this.maxFrameBytes) {
          throw new StompFrameError(`Frame exceeds ${this.maxFrameBytes} bytes`);
        }
        break;
      }
      frames.push(frame);
    }
    return { frames, heartbeats };
  }

  private append(chunk: Buffer): void {
    const live = this.end - this.start;
    if (live === 0) {
      // Nothing pending (the usual case): parse the chunk where it is.
      this.data = chunk;
      this.start = 0;
      this.end = chunk.length;
      this.borrowed = true;
      return;
    }
    if (this.borrowed || this.end + chunk.length > this.data.length) {
      const next = Buffer.allocUnsafe(Math.max(live + chunk.length, 2 * this.data.length, 4096));
      this.data.copy(next, 0, this.start, this.end);
      this.data = next;
      this.start = 0;
      this.end = live;
      this.borrowed = false;
    }
    chunk.copy(this.data, this.end);
    this.end += chunk.length;
  }

  private tryFrame(): StompFrame | undefined {
    const buf = this.data.subarray(this.start, this.end);
    const head = this.head ?? this.readHead(buf);
    if (head === undefined) return undefined;
    this.head = head;
    let bodyEnd: number;
    if (head.length !== undefined) {
      if (buf.length < head.bodyStart + head.length + 1) return undefined;
      bodyEnd = head.bodyStart + head.length;
      if (buf[bodyEnd] !== NUL) throw new StompFrameError('Frame body is not terminated by NUL');
    } else {
      bodyEnd = buf.indexOf(NUL, Math.max(head.bodyStart, this.bodyScan));
      if (bodyEnd < 0) {
        this.bodyScan = buf.length;
        return undefined;
      }
    }
    const body = Buffer.from(buf.subarray(head.bodyStart, bodyEnd));
    this.start += bodyEnd + 1;
    this.head = undefined;
    this.headerScan = 0;
    this.bodyScan = 0;
    return { command: head.command, headers: head.headers, body };
  }

  /** The command and headers once the first empty line has arrived. */
  private readHead(buf: Buffer): FrameHead | undefined {
    // End of headers: the first empty line (LF LF or LF CR LF).
    const from = this.headerScan;
    let headerEnd = -1;
    let bodyStart = -1;
    let i = from;
    for (;;) {
      i = buf.indexOf(LF, i);
      if (i < 0 || i + 1 >= buf.length) break;
      if (buf[i + 1] === LF) {
        headerEnd = i;
        bodyStart = i + 2;
        break;
      }
      if (buf[i + 1] === CR) {
        if (i + 2 >= buf.length) break;
        if (buf[i + 2] === LF) {
          headerEnd = i;
          bodyStart = i + 3;
          break;
        }
      }
      i++;
    }
    if (headerEnd < 0) {
      const nul = buf.indexOf(NUL, from);
      if (nul >= 0) throw new StompFrameError('Frame has no header terminator');
      // Resume at an LF that may still begin the empty line.
      this.headerScan = i < 0 ? buf.length : i;
      return undefined;
    }
    const lines = buf
      .subarray(0, headerEnd)
      .toString('utf8')
      .split('\n')
      .map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
    const command = lines[0];
    if (!CLIENT_COMMANDS.has(command)) throw new StompFrameError(`Unknown command '${command.slice(0, 40)}'`);
    const headers: StompHeaders = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon <= 0) throw new StompFrameError(`Malformed header line '${line.slice(0, 80)}'`);
      const name = unescapeHeader(line.slice(0, colon), command);
      // Repeated headers: the first one wins.
      if (headers[name] === undefined) headers[name] = unescapeHeader(line.slice(colon + 1), command);
    }
    const lengthHeader = headers['content-length'];
    if (lengthHeader === undefined) return { command, headers, bodyStart };
    const length = Number(lengthHeader);
    if (!/^\d+$/.test(lengthHeader) || length > this.maxFrameBytes) {
      throw new StompFrameError(`Invalid content-length '${lengthHeader}'`);
    }
    return { command, headers, bodyStart, length };
  }
}
