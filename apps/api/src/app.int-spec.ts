import { Controller, Get, INestApplication, Module, Post } from '@nestjs/common';
import { createServiceApp, loadConfig, Public, ZodBody } from '@voltdepot/server-core';
import {
  createTestDatabase,
  securityHeadersOf,
  SERVICE_SECURITY_HEADERS,
  TestDatabase,
} from '@voltdepot/server-testing';
import type { ErrorBody, HealthReport } from '@voltdepot/shared-contracts';
import { createServer } from 'node:net';
import request from 'supertest';
import { z } from 'zod';
import { ApiConfig, apiConfigSchema } from './app.config';
import { AppModule } from './app.module';

// A migrated database of this file's own (the api's modules need their tables).
let testDb: TestDatabase;
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

const stationSchema = z.object({ name: z.string().min(1), maxPowerW: z.number().int().positive() });

/** Routes that exist only in this test, to exercise body parsing, validation and unexpected errors. */
@Public()
@Controller('test')
class ProbeController {
  @Post('stations')
  create(@ZodBody(stationSchema) body: z.infer<typeof stationSchema>) {
    return body;
  }

  @Get('boom')
  boom(): never {
    throw new Error('secret internals: password=hunter2');
  }
}

function configWith(overrides: Record<string, string>): ApiConfig {
  return loadConfig(apiConfigSchema, {
    DATABASE_URL: testDb.url,
    REDIS_URL,
    JWT_SECRET: 'integration-test-secret-0123456789abcdef',
    PILE_PASSWORD_KEY: 'integration-test-pile-key-0123456789abcdef',
    LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'silent',
    ...overrides,
  });
}

async function startApp(config: ApiConfig): Promise<INestApplication> {
  @Module({ imports: [AppModule.register(config)], controllers: [ProbeController] })
  class TestAppModule {}
  const { app } = await createServiceApp(TestAppModule, { config });
  await app.init();
  return app;
}

/** A port nothing listens on: bind an ephemeral one, then release it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function expectErrorBody(body: unknown, code: string, correlationId?: string): ErrorBody {
  const error = body as ErrorBody;
  expect(Object.keys(error).sort()).toEqual(expect.arrayContaining(['code', 'correlationId', 'message']));
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe('string');
  if (correlationId !== undefined) expect(error.correlationId).toBe(correlationId);
  else expect(error.correlationId).toMatch(/^[0-9a-f-]{36}$/);
  return error;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterAll(async () => {
  await testDb?.drop();
});

describe('api app (real PostgreSQL and Redis)', () => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await startApp(configWith({}));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('GET /health is 200 with both dependencies up', async () => {
    const res = await request(app.getHttpServer()).get('/health').expect(200);
    const report = res.body as HealthReport;
    expect(report).toMatchObject({ service: 'api', status: 'ok', version: '0.0.0' });
    expect(report.dependencies).toEqual([
      { name: 'postgres', status: 'up', latencyMs: expect.any(Number) },
      { name: 'redis', status: 'up', latencyMs: expect.any(Number) },
      { name: 'bus:redis', status: 'up', latencyMs: expect.any(Number) },
      // The CJK font of the bills' PDFs (scripts/ensure-fonts.sh installs it).
      { name: 'document-font', status: 'up', latencyMs: expect.any(Number) },
    ]);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('GET /metrics exposes the request histogram by route template, and process metrics', async () => {
    await request(app.getHttpServer()).get('/health').expect(200);
    await request(app.getHttpServer()).get('/no/such/thing').expect(404);
    const res = await request(app.getHttpServer()).get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toContain('# TYPE voltdepot_http_request_duration_seconds histogram');
    expect(res.text).toMatch(
      /voltdepot_http_request_duration_seconds_count\{service="api",method="GET",route="\/health",status="200"\} \d+/,
    );
    expect(res.text).toMatch(
      /voltdepot_http_request_duration_seconds_count\{service="api",method="GET",route="unmatched",status="404"\} \d+/,
    );
    expect(res.text).toContain('voltdepot_process_cpu_seconds_total');
  });

  it('echoes a valid x-correlation-id and replaces an invalid one', async () => {
    const echoed = await request(app.getHttpServer())
      .get('/health')
      .set('x-correlation-id', 'depot-7.req_42')
      .expect(200);
    expect(echoed.headers['x-correlation-id']).toBe('depot-7.req_42');

    const replaced = await request(app.getHttpServer())
      .get('/health')
      .set('x-correlation-id', 'x'.repeat(129))
      .expect(200);
    expect(replaced.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('malformed JSON -> 400 VALIDATION_FAILED naming the problem', async () => {
    const res = await request(app.getHttpServer())
      .post('/test/stations')
      .set('content-type', 'application/json')
      .set('x-correlation-id', 'bad-json-1')
      .send('{"name": "P-01",')
      .expect(400);
    const body = expectErrorBody(res.body, 'VALIDATION_FAILED', 'bad-json-1');
    expect(body.message).toMatch(/^Malformed JSON in request body: /);
    expect(res.headers['x-correlation-id']).toBe('bad-json-1');
  });

  it('a body over 1 MB -> 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await request(app.getHttpServer())
      .post('/test/stations')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10), maxPowerW: 1 }))
      .expect(413);
    expect(expectErrorBody(res.body, 'PAYLOAD_TOO_LARGE').message).toBe(
      'Request body is too large: the limit is 1048576 bytes',
    );
  });

  it.each([
    ['objects', (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`],
    ['arrays', (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`],
  ])('a JSON body of %s nested 5,000 deep -> 400 before it is parsed', async (_kind, nested) => {
    const res = await request(app.getHttpServer())
      .post('/test/stations')
      .set('content-type', 'application/json')
      .send(nested(5000))
      .expect(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Request body is nested more than 32 levels deep',
      details: { maxDepth: 32 },
      correlationId: expect.any(String),
    });
  });

  it('brackets inside strings do not count as nesting', async () => {
    await request(app.getHttpServer())
      .post('/test/stations')
      .send({ name: `P-01 ${'[{'.repeat(100)}"\\`, maxPowerW: 1 })
      .expect(201);
  });

  it('a body failing its schema -> 400 with every failing field', async () => {
    const res = await request(app.getHttpServer()).post('/test/stations').send({ maxPowerW: -1 }).expect(400);
    expect(expectErrorBody(res.body, 'VALIDATION_FAILED').details).toEqual([
      { field: 'name', message: 'Required' },
      { field: 'maxPowerW', message: 'Number must be greater than 0' },
    ]);
  });

  it('a valid body reaches the handler', async () => {
    await request(app.getHttpServer())
      .post('/test/stations')
      .send({ name: 'P-01', maxPowerW: 120000 })
      .expect(201, { name: 'P-01', maxPowerW: 120000 });
  });

  it('unknown route -> 404 NOT_FOUND with the error body', async () => {
    const res = await request(app.getHttpServer())
      .get('/api/nope')
      .set('x-correlation-id', 'nf-1')
      .expect(404);
    expect(res.body).toEqual({ code: 'NOT_FOUND', message: 'Cannot GET /api/nope', correlationId: 'nf-1' });
  });

  it('an unexpected error -> 500 INTERNAL_ERROR without internals', async () => {
    const res = await request(app.getHttpServer()).get('/test/boom').expect(500);
    expect(expectErrorBody(res.body, 'INTERNAL_ERROR').message).toBe('Internal server error');
    expect(res.text).not.toContain('hunter2');
  });

  it('every answer carries the security headers (a success, 400, 401, 404, 500), without HSTS over HTTP', async () => {
    const server = app.getHttpServer();
    for (const res of [
      await request(server).get('/health').expect(200),
      await request(server).post('/test/stations').send({}).expect(400),
      await request(server).get('/api/user/1').expect(401),
      await request(server).get('/api/nope').expect(404),
      await request(server).get('/test/boom').expect(500),
    ])
      expect(securityHeadersOf(res.headers)).toEqual(SERVICE_SECURITY_HEADERS);
  });

  it('no CORS: a foreign origin gets no Access-Control header, preflight or request', async () => {
    const origin = 'http://localhost:5173';
    const preflight = await request(app.getHttpServer())
      .options('/auth/login')
      .set('origin', origin)
      .set('access-control-request-method', 'POST')
      .set('access-control-request-headers', 'content-type');
    const plain = await request(app.getHttpServer()).get('/health').set('origin', origin);
    for (const res of [preflight, plain]) {
      expect(Object.keys(res.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
  });
});

describe('api app behind a TLS proxy (BEHIND_TLS=true)', () => {
  it('answers with Strict-Transport-Security', async () => {
    const app = await startApp(configWith({ BEHIND_TLS: 'true' }));
    try {
      const res = await request(app.getHttpServer()).get('/health').expect(200);
      expect(securityHeadersOf(res.headers)).toEqual({
        ...SERVICE_SECURITY_HEADERS,
        'strict-transport-security': 'max-age=31536000',
      });
    } finally {
      await app.close();
    }
  });
});

describe('api app with an unreachable dependency', () => {
  it.each(['REDIS_URL', 'DATABASE_URL'] as const)(
    'GET /health is 503 when %s points at a closed port',
    async (variable) => {
      const port = await closedPort();
      const url =
        variable === 'REDIS_URL'
          ? `redis://127.0.0.1:${port}`
          : `postgres://postgres@127.0.0.1:${port}/postgres`;
      const app = await startApp(configWith({ [variable]: url }));
      try {
        const res = await request(app.getHttpServer()).get('/health').expect(503);
        const report = res.body as HealthReport;
        const name = variable === 'REDIS_URL' ? 'redis' : 'postgres';
        expect(report.status).toBe('down');
        expect(report.dependencies.find((d) => d.name === name)).toMatchObject({
          status: 'down',
          error: expect.stringContaining('ECONNREFUSED'),
        });
        expect(report.dependencies.find((d) => d.name !== name)).toMatchObject({ status: 'up' });
      } finally {
        await app.close();
      }
    },
  );
});

describe('GET /metrics is not open to whoever reaches the port', () => {
  const TOKEN = 'metrics-token-0123456789abcdef';
  let withToken: INestApplication;
  let production: INestApplication;

  beforeAll(async () => {
    withToken = await startApp(configWith({ METRICS_TOKEN: TOKEN }));
    production = await startApp(configWith({ NODE_ENV: 'production', DEMO_DATA: 'false' }));
  });
  afterAll(async () => {
    await withToken?.close();
    await production?.close();
  });

  it.each([
    ['no token', undefined, 401, 'AUTH_TOKEN_MISSING', 'Metrics need the bearer token METRICS_TOKEN'],
    [
      'another token',
      'Bearer metrics-token-0123456789abcdeX',
      401,
      'AUTH_TOKEN_INVALID',
      'Wrong metrics token',
    ],
  ])('with METRICS_TOKEN set, %s -> %s', async (_case, authorization, status, code, message) => {
    let req = request(withToken.getHttpServer()).get('/metrics');
    if (authorization !== undefined) req = req.set('authorization', authorization);
    const res = await req.expect(status);
    expect(res.body).toEqual({ code, message, correlationId: expect.any(String) });
  });

  it('with METRICS_TOKEN set, a scrape bearing it gets the metrics', async () => {
    const res = await request(withToken.getHttpServer())
      .get('/metrics')
      .set('authorization', `Bearer ${TOKEN}`)
      .expect(200);
    expect(res.text).toContain('# TYPE voltdepot_http_request_duration_seconds histogram');
  });

  it('in production without a token, nobody gets them (404), and /health stays open', async () => {
    const res = await request(production.getHttpServer()).get('/metrics').expect(404);
    expect(res.body).toEqual({
      code: 'NOT_FOUND',
      message: 'Metrics are not served: set METRICS_TOKEN (or METRICS_PUBLIC=true) to scrape them',
      correlationId: expect.any(String),
    });
    await request(production.getHttpServer()).get('/health').expect(200);
  });
});
