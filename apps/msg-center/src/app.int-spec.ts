import { INestApplication } from '@nestjs/common';
import { createServiceApp, loadConfig } from '@voltdepot/server-core';
import type { HealthReport } from '@voltdepot/shared-contracts';
import request from 'supertest';
import { msgCenterConfigSchema } from './app.config';
import { AppModule } from './app.module';

const DATABASE_URL = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

// The shared HTTP behaviour (errors, correlation ids, metrics) is covered in apps/api; this checks the wiring.
describe('msg-center app (real PostgreSQL and Redis)', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const config = loadConfig(msgCenterConfigSchema, {
      DATABASE_URL,
      REDIS_URL,
      LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'silent',
    });
    app = (await createServiceApp(AppModule.register(config), { config })).app;
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('GET /health is 200 with Redis and PostgreSQL up', async () => {
    const res = await request(app.getHttpServer()).get('/health').expect(200);
    const report = res.body as HealthReport;
    expect(report).toMatchObject({ service: 'msg-center', status: 'ok' });
    expect(report.dependencies.map((d) => [d.name, d.status])).toEqual([
      ['postgres', 'up'],
      ['redis', 'up'],
      ['bus:redis', 'up'],
    ]);
  });

  it('GET /metrics is served', async () => {
    const res = await request(app.getHttpServer()).get('/metrics').expect(200);
    expect(res.text).toContain('voltdepot_http_request_duration_seconds');
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
