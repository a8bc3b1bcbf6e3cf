import { INestApplication } from '@nestjs/common';
import { createServiceApp } from '@voltdepot/server-core';
import {
  createTestDatabase,
  securityHeadersOf,
  SERVICE_SECURITY_HEADERS,
  TestDatabase,
} from '@voltdepot/server-testing';
import type { HealthReport } from '@voltdepot/shared-contracts';
import request from 'supertest';
import { AppModule } from './app.module';
import { msgTestConfig, testNamespace } from './fixtures/msg-center.fixtures';

// The shared HTTP behaviour (errors, correlation ids, metrics) is covered in apps/api; this checks the wiring.
describe('msg-center app (real PostgreSQL and Redis)', () => {
  let app: INestApplication;
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
    const config = msgTestConfig(db, testNamespace());
    app = (await createServiceApp(AppModule.register(config), { config })).app;
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
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

  it('a route without a token is refused with 401 (deny by default)', async () => {
    const res = await request(app.getHttpServer()).get('/ms/m1/msg/inbox/unread').expect(401);
    expect(res.body).toMatchObject({ code: 'AUTH_TOKEN_MISSING' });
  });

  it('answers with the security headers and no CORS header, to a foreign origin too', async () => {
    for (const res of [
      await request(app.getHttpServer()).get('/health').set('origin', 'http://localhost:4300').expect(200),
      await request(app.getHttpServer()).get('/ms/m1/msg/inbox/unread').expect(401),
    ])
      expect(securityHeadersOf(res.headers)).toEqual(SERVICE_SECURITY_HEADERS);
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
