import { INestApplication } from '@nestjs/common';
import { createLogger, createServiceApp, loadConfig } from '@voltdepot/server-core';
import {
  createTestDatabase,
  eventually,
  securityHeadersOf,
  SERVICE_SECURITY_HEADERS,
  testEnv,
  type TestDatabase,
} from '@voltdepot/server-testing';
import WebSocket from 'ws';
import type { HealthReport } from '@voltdepot/shared-contracts';
import request from 'supertest';
import { gatewayConfigSchema } from './app.config';
import { AppModule } from './app.module';

const OCPP_PORT = 20000 + Math.floor(Math.random() * 10000);

// The shared HTTP behaviour (errors, correlation ids, metrics) is covered in apps/api; this checks the wiring.
describe('ocpp-gateway app (real PostgreSQL and Redis)', () => {
  let app: INestApplication;
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
    const config = loadConfig(gatewayConfigSchema, {
      DATABASE_URL: db.url,
      REDIS_URL: testEnv().redisUrl,
      OCPP_PORT: String(OCPP_PORT),
      OCPP_HOST: '127.0.0.1',
      JWT_SECRET: 'gateway-test-secret-0123456789abcdef',
      LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'silent',
    });
    const logger = createLogger({ service: config.SERVICE_NAME, level: config.LOG_LEVEL });
    app = (await createServiceApp(AppModule.register(config, logger), { config, logger })).app;
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('serves OCPP on OCPP_PORT and refuses an unregistered pile (401, as a wrong password)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${OCPP_PORT}/ocpp/CP-NOT-REGISTERED`, ['ocpp1.6']);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => reject(new Error('an unknown pile was let in')));
      ws.on('error', () => undefined);
    });
    expect(status).toBe(401);
    await eventually(async () =>
      expect(await db.dataSource.query('SELECT charge_point_id FROM unknown_pile_attempt')).toEqual([
        { charge_point_id: 'CP-NOT-REGISTERED' },
      ]),
    );
  });

  it('GET /health is 200 with PostgreSQL, Redis and the bus up', async () => {
    const res = await request(app.getHttpServer()).get('/health').expect(200);
    const report = res.body as HealthReport;
    expect(report).toMatchObject({ service: 'ocpp-gateway', status: 'ok' });
    expect(report.dependencies.map((d) => [d.name, d.status])).toEqual([
      ['postgres', 'up'],
      ['redis', 'up'],
      ['bus:redis', 'up'],
    ]);
  });

  it('answers with the security headers', async () => {
    const res = await request(app.getHttpServer()).get('/health').expect(200);
    expect(securityHeadersOf(res.headers)).toEqual(SERVICE_SECURITY_HEADERS);
  });

  it("GET /metrics is served, with the gateway's own metrics", async () => {
    const res = await request(app.getHttpServer()).get('/metrics').expect(200);
    expect(res.text).toContain('voltdepot_http_request_duration_seconds');
    expect(res.text).toMatch(/^voltdepot_ocpp_connected_piles\{service="ocpp-gateway"\} 0$/m);
    // The process's outbox relay is the messaging module's: its backlog is the relay's metric.
    expect(res.text).toMatch(/^voltdepot_outbox_backlog\{service="ocpp-gateway"\} \d+$/m);
    for (const name of [
      'voltdepot_ocpp_messages_total',
      'voltdepot_ocpp_call_duration_seconds',
      'voltdepot_ocpp_call_errors_total',
      'voltdepot_ocpp_commands_total',
    ])
      expect(res.text).toContain(`# TYPE ${name}`);
  });

  it("the service's configuration applies the OCPP module's checks (profile 2 needs its files)", () => {
    expect(() =>
      loadConfig(gatewayConfigSchema, {
        DATABASE_URL: db.url,
        REDIS_URL: testEnv().redisUrl,
        JWT_SECRET: 'gateway-test-secret-0123456789abcdef',
        OCPP_SECURITY_PROFILE: '2',
      }),
    ).toThrow(/OCPP_TLS_CERT_FILE[\s\S]*required when OCPP_SECURITY_PROFILE is 2/);
  });

  it('in production the pile password key is required (elsewhere the development key is used)', () => {
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL: testEnv().redisUrl,
      JWT_SECRET: 'gateway-test-secret-0123456789abcdef',
      NODE_ENV: 'production',
    };
    expect(() => loadConfig(gatewayConfigSchema, env)).toThrow(
      /PILE_PASSWORD_KEY[\s\S]*required when NODE_ENV=production/,
    );
    const key = 'a-pile-password-key-of-32-characters!';
    expect(loadConfig(gatewayConfigSchema, { ...env, PILE_PASSWORD_KEY: key }).PILE_PASSWORD_KEY).toBe(key);
  });

  it('an unknown route gets the error body', async () => {
    const res = await request(app.getHttpServer()).get('/nope').expect(404);
    expect(res.body).toEqual({
      code: 'NOT_FOUND',
      message: 'Cannot GET /nope',
      correlationId: res.headers['x-correlation-id'],
    });
  });
});
