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

function escapeHeader(value: string, command: string): string {
  if (command === 'CONNECTED') return value;
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
 * Incremental parser: feed it whatever the socket delivered; it returns the complete frames and counts
 * heart-beats (bare EOLs between frames). Frames may be split across or packed into WebSocket messages.
 */
export class StompParser {
  private buffer: Buffer = Buffer.alloc(0);

  constructor(private readonly maxFrameBytes: number) {}

  push(chunk: Buffer): { frames: StompFrame[]; heartbeats: number } {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const frames: StompFrame[] = [];
    let heartbeats = 0;
    for (;;) {
      // Heart-beats: EOLs before a command.
      let start = 0;
      while (start < this.buffer.length && (this.buffer[start] === LF || this.buffer[start] === CR)) {
        if (this.buffer[start] === LF) heartbeats++;
        start++;
      }
      this.buffer = this.buffer.subarray(start);
      if (this.buffer.length === 0) break;
      const frame = this.tryFrame();
      if (frame === undefined) {
        if (this.buffer.length > this.maxFrameBytes) {
          throw new StompFrameError(`Frame exceeds ${this.maxFrameBytes} bytes`);
        }
        break;
      }
      frames.push(frame);
    }
    return { frames, heartbeats };
  }

  private tryFrame(): StompFrame | undefined {
    const buf = this.buffer;
    // End of headers: the first empty line.
    let headerEnd = -1;
    let bodyStart = -1;
    for (let i = 0; i < buf.length; i++) {
      if (buf[i] !== LF) continue;
      if (buf[i + 1] === LF) {
        headerEnd = i;
        bodyStart = i + 2;
        break;
      }
      if (buf[i + 1] === CR && buf[i + 2] === LF) {
        headerEnd = i;
        bodyStart = i + 3;
        break;
      }
    }
    if (headerEnd < 0) {
      if (buf.indexOf(NUL) >= 0) throw new StompFrameError('Frame has no header terminator');
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
    let bodyEnd: number;
    const lengthHeader = headers['content-length'];
    if (lengthHeader !== undefined) {
      const length = Number(lengthHeader);
      if (!/^\d+$/.test(lengthHeader) || length > this.maxFrameBytes) {
        throw new StompFrameError(`Invalid content-length '${lengthHeader}'`);
      }
      if (buf.length < bodyStart + length + 1) return undefined;
      bodyEnd = bodyStart + length;
      if (buf[bodyEnd] !== NUL) throw new StompFrameError('Frame body is not terminated by NUL');
    } else {
      bodyEnd = buf.indexOf(NUL, bodyStart);
      if (bodyEnd < 0) return undefined;
    }
    const body = Buffer.from(buf.subarray(bodyStart, bodyEnd));
    this.buffer = buf.subarray(bodyEnd + 1);
    return { command, headers, body };
  }
}
