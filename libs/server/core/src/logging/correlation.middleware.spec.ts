import { EventEmitter } from 'node:events';
import type { HttpRequest, HttpResponse } from '../http/express-types';
import { CORRELATION_ID_HEADER, currentCorrelationId } from './correlation-context';
import { CLIENT_CLOSED_REQUEST, correlationMiddleware, requestCorrelationId } from './correlation.middleware';
import { createLogger } from './logger';
import { logSink } from './test-log-sink';

type FakeResponse = HttpResponse & {
  headers: Record<string, unknown>;
  finish(status: number): void;
  abort(): void;
};

function fakeRequest(
  headers: Record<string, string | string[]> = {},
  url = '/api/stations?token=abc',
): HttpRequest {
  return { method: 'GET', url, originalUrl: url, headers } as unknown as HttpRequest;
}

function fakeResponse(): FakeResponse {
  const emitter = new EventEmitter();
  const res = Object.assign(emitter, {
    headers: {} as Record<string, unknown>,
    statusCode: 200,
    writableFinished: false,
    setHeader(name: string, value: unknown) {
      res.headers[name.toLowerCase()] = value;
      return res;
    },
    finish(status: number) {
      res.statusCode = status;
      res.writableFinished = true;
      emitter.emit('close');
    },
    abort() {
      emitter.emit('close');
    },
  });
  return res as unknown as FakeResponse;
}

function setup() {
  const sink = logSink();
  const middleware = correlationMiddleware({
    logger: createLogger({ service: 'api', level: 'debug', destination: sink.stream }),
  });
  return { sink, middleware };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('correlationMiddleware', () => {
  it.each<[string, Record<string, string | string[]>, string | RegExp]>([
    ['keeps a valid caller id', { [CORRELATION_ID_HEADER]: 'web-7f3a.1_b' }, 'web-7f3a.1_b'],
    ['keeps a 128-char id', { [CORRELATION_ID_HEADER]: 'a'.repeat(128) }, 'a'.repeat(128)],
    ['generates one when missing', {}, UUID],
    ['replaces a 129-char id', { [CORRELATION_ID_HEADER]: 'a'.repeat(129) }, UUID],
    ['replaces an id with forbidden characters', { [CORRELATION_ID_HEADER]: 'abc"><script>' }, UUID],
    ['replaces an empty id', { [CORRELATION_ID_HEADER]: '' }, UUID],
    ['replaces a repeated header', { [CORRELATION_ID_HEADER]: ['a', 'b'] }, UUID],
  ])('%s', (_case, headers, expected) => {
    const { middleware } = setup();
    const req = fakeRequest(headers);
    const res = fakeResponse();
    let inside: string | undefined;
    middleware(req, res, () => {
      inside = currentCorrelationId();
    });
    const header = res.headers[CORRELATION_ID_HEADER] as string;
    if (typeof expected === 'string') expect(header).toBe(expected);
    else expect(header).toMatch(expected);
    expect(inside).toBe(header);
    expect(requestCorrelationId(req)).toBe(header);
  });

  it('runs asynchronous work of the request inside the context', async () => {
    const { middleware } = setup();
    const seen = await new Promise<string | undefined>((resolve) => {
      middleware(fakeRequest({ [CORRELATION_ID_HEADER]: 'async-1' }), fakeResponse(), () => {
        setImmediate(() => resolve(currentCorrelationId()));
      });
    });
    expect(seen).toBe('async-1');
  });

  it('logs one line per request with method, path (no query), status, duration and the id', () => {
    const { sink, middleware } = setup();
    const res = fakeResponse();
    middleware(fakeRequest({ [CORRELATION_ID_HEADER]: 'log-1' }), res, () => undefined);
    expect(sink.lines).toHaveLength(0);
    res.finish(201);
    expect(sink.lines).toHaveLength(1);
    expect(sink.lines[0]).toMatchObject({
      level: 'info',
      msg: 'http request',
      method: 'GET',
      path: '/api/stations',
      status: 201,
      correlationId: 'log-1',
      service: 'api',
    });
    expect(sink.lines[0].durationMs).toEqual(expect.any(Number));
    expect(JSON.stringify(sink.lines[0])).not.toContain('token=abc');
  });

  it('logs a client that went away as 499', () => {
    const { sink, middleware } = setup();
    const res = fakeResponse();
    middleware(fakeRequest(), res, () => undefined);
    res.abort();
    expect(sink.lines[0]).toMatchObject({ status: CLIENT_CLOSED_REQUEST });
  });

  it('logs probe paths at debug', () => {
    const { sink, middleware } = setup();
    const res = fakeResponse();
    middleware(fakeRequest({}, '/health'), res, () => undefined);
    res.finish(200);
    expect(sink.lines[0]).toMatchObject({ level: 'debug', path: '/health' });
  });
});
