import { Writable } from 'node:stream';

/** A pino destination that keeps parsed lines, for tests. */
export function logSink(): { stream: Writable; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim() !== '') lines.push(JSON.parse(line));
      callback();
    },
  });
  return { stream, lines };
}
