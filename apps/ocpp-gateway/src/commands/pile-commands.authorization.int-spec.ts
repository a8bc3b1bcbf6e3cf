import { randomUUID } from 'node:crypto';
import { Module, type INestApplication } from '@nestjs/common';
import Redis from 'ioredis';
import request from 'supertest';
import {
  createLogger,
  createServiceApp,
  loadConfig,
  sessionKey,
  signAccessToken,
} from '@voltdepot/server-core';
import {
  createTestDatabase,
  expectAnonymousOutcome,
  registeredRouteRules,
  routeRequest,
  testEnv,
  unguardedProbeController,
  type TestDatabase,
} from '@voltdepot/server-testing';
import { gatewayConfigSchema, type GatewayConfig } from '../app.config';
import { AppModule } from '../app.module';

const JWT_SECRET = 'gateway-route-walk-secret-0123456789';
const OCPP_PORT = 20000 + Math.floor(Math.random() * 10000);
const ns = `vdtest-${randomUUID().slice(0, 8)}`;

/** A route someone forgot to guard: it must be denied to everybody, administrators included. */
const UnguardedProbeController = unguardedProbeController('api/test-unguarded');

type Expected = 'public' | 'authenticated' | 'none' | string;

/** Every HTTP route the gateway serves and its rule: adding one forces a decision about who may call it. */
const ROUTES: Record<string, Expected> = {
  'GET /health': 'public',
  'GET /metrics': 'public',
  'POST /api/pile/:chargePointId/command/:action': 'pile:command',
  'GET /api/pile/:chargePointId/commands/page/:page/size/:size': 'pile:command',
  'GET /api/pile/:chargePointId/messages/page/:page/size/:size': 'ocpp:messageLog:query',
  'GET /api/test-unguarded': 'none',
};

const PARAMS: Record<string, string> = {
  ':chargePointId': 'NO-SUCH-PILE',
  ':action': 'Reset',
  ':page': '1',
  ':size': '10',
};

describe('ocpp-gateway authorisation: every HTTP route has a rule, anonymous callers are refused', () => {
  let db: TestDatabase;
  let config: GatewayConfig;
  let app: INestApplication;
  let adminToken: string;
  /** A role holding none of the gateway's permissions (maintainers may read the message log). */
  let fleetManagerToken: string;

  async function tokenFor(role: string): Promise<string> {
    const username = `gw${Date.now().toString(36)}${role}`;
    const [{ id }] = (await db.dataSource.query(
      `INSERT INTO sys_user (username, password_hash, real_name, organization_id)
       SELECT $1, 'x', $1, id FROM sys_organization WHERE code = 'ROOT' RETURNING id::int AS id`,
      [username],
    )) as { id: number }[];
    await db.dataSource.query(
      `INSERT INTO sys_user_role (user_id, role_id) SELECT $1, id FROM sys_role WHERE code = $2`,
      [id, role],
    );
    const sessionId = randomUUID();
    const redis = new Redis(config.REDIS_URL, { keyPrefix: config.AUTH_REDIS_KEY_PREFIX });
    try {
      await redis.hset(sessionKey(sessionId), { userId: String(id), current: 'x' });
      await redis.expire(sessionKey(sessionId), 3600);
    } finally {
      redis.disconnect();
    }
    return (await signAccessToken({ userId: id, username, sessionId }, JWT_SECRET, 900)).token;
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    config = loadConfig(gatewayConfigSchema, {
      DATABASE_URL: db.url,
      REDIS_URL: testEnv().redisUrl,
      BUS_PREFIX: ns,
      OCPP_PORT: String(OCPP_PORT),
      OCPP_HOST: '127.0.0.1',
      OCPP_REDIS_PREFIX: ns,
      JWT_SECRET,
      AUTH_REDIS_KEY_PREFIX: `${ns}:auth:`,
      LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'silent',
    });
    const logger = createLogger({ service: config.SERVICE_NAME, level: config.LOG_LEVEL });
    @Module({ imports: [AppModule.register(config, logger)], controllers: [UnguardedProbeController] })
    class ProbedAppModule {}
    app = (await createServiceApp(ProbedAppModule, { config, logger })).app;
    await app.init();
    adminToken = await tokenFor('admin');
    fleetManagerToken = await tokenFor('fleet_manager');
  });

  afterAll(async () => {
    await app?.close();
    const redis = new Redis(testEnv().redisUrl);
    const keys = await redis.keys(`${ns}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    await db?.drop();
  });

  it('every registered route is @Public, @Authenticated or permission-guarded, exactly as listed', () => {
    expect(registeredRouteRules(app)).toEqual(ROUTES);
  });

  const send = (route: string, token?: string) => {
    const { method, path } = routeRequest(route, PARAMS);
    const client = request(app.getHttpServer()) as unknown as Record<string, (p: string) => request.Test>;
    let req = client[method.toLowerCase()](path);
    if (token !== undefined) req = req.set('authorization', `Bearer ${token}`);
    return method === 'POST' ? req.send({ type: 'Soft' }) : req;
  };

  it.each(Object.entries(ROUTES))('%s without a token (%s)', async (route, rule) => {
    expectAnonymousOutcome(await send(route), rule);
  });

  it.each(Object.entries(ROUTES).filter(([, rule]) => rule.includes(':')))(
    '%s without the permission is 403 naming it (%s)',
    async (route, rule) => {
      const res = await send(route, fleetManagerToken).expect(403);
      expect(res.body).toMatchObject({ code: 'FORBIDDEN', message: `Missing permission: ${rule}` });
    },
  );

  it('a route without a rule is refused even to an administrator (denied by default)', async () => {
    const res = await send('GET /api/test-unguarded', adminToken).expect(403);
    expect(res.body).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Access denied: the route declares no permission (denied by default)',
    });
  });
});
