import { Module } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createServiceApp } from '@voltdepot/server-core';
import {
  createTestDatabase,
  expectAnonymousOutcome,
  insertUser,
  registeredRouteRules,
  routeRequest,
  TestDatabase,
  textInputProbes,
  unansweredNulProbes,
  unguardedProbeController,
} from '@voltdepot/server-testing';
import request from 'supertest';
import type { MsgCenterConfig } from './app.config';
import { AppModule } from './app.module';
import { msgTestConfig, testNamespace, tokenFor } from './fixtures/msg-center.fixtures';

/** A route someone forgot to guard: it must be denied to everybody, administrators included. */
const UnguardedProbeController = unguardedProbeController('ms/m1/msg/test-unguarded');

type Expected = 'public' | 'authenticated' | 'none' | string;

/**
 * Every route msg-center serves and the rule it must carry. A route missing here fails the walk below,
 * so adding a route forces a decision about who may call it.
 */
const ROUTES: Record<string, Expected> = {
  // The only public routes: probes of the platform.
  'GET /health': 'public',
  'GET /metrics': 'public',
  // Any signed-in user: dictionaries and the caller's own inbox.
  'GET /ms/dictionaries/dict/tree': 'authenticated',
  'GET /ms/m1/msg/dictionaries/dict/tree': 'authenticated',
  'GET /ms/m1/msg/inbox/page/:page/size/:size': 'authenticated',
  'GET /ms/m1/msg/inbox/unread': 'authenticated',
  'POST /ms/m1/msg/inbox/del': 'authenticated',
  'POST /ms/m1/msg/inbox/read': 'authenticated',
  'POST /ms/m1/msg/inbox/read/all': 'authenticated',
  'GET /ms/m1/msg/config/page/:page/size/:size': 'msg:config',
  'GET /ms/m1/msg/config/search': 'msg:config',
  // The configuration list of the template dialog.
  'GET /ms/m1/msg/config': 'msg:template',
  'POST /ms/m1/msg/config': 'msg:config:add',
  'PUT /ms/m1/msg/config/:id': 'msg:config:edit',
  'DELETE /ms/m1/msg/config/:id': 'msg:config:delete',
  'GET /ms/m1/msg/template/page/:page/size/:size': 'msg:template',
  'GET /ms/m1/msg/template/group/:id': 'msg:template',
  'POST /ms/m1/msg/template': 'msg:template:add',
  'PUT /ms/m1/msg/template/:id': 'msg:template:edit',
  'DELETE /ms/m1/msg/template/:id': 'msg:template:delete',
  'GET /ms/m1/msg/group/page/:page/size/:size': 'msg:group',
  'GET /ms/m1/msg/group/search': 'msg:group',
  'GET /ms/m1/msg/receiver/role': 'msg:group',
  'GET /ms/m1/msg/receiver/user': 'msg:group',
  'POST /ms/m1/msg/group': 'msg:group:add',
  'PUT /ms/m1/msg/group/:id': 'msg:group:edit',
  'DELETE /ms/m1/msg/group/:id': 'msg:group:delete',
  'GET /ms/m1/msg/event/page/:page/size/:size': 'msg:event',
  'GET /ms/m1/msg/send_log/page/:page/size/:size': 'msg:event',
  'POST /ms/m1/msg/event': 'msg:event:add',
  'PUT /ms/m1/msg/event/:id': 'msg:event:edit',
  'DELETE /ms/m1/msg/event/:id': 'msg:event:delete',
  'GET /ms/m1/msg/alerts/page/:page/size/:size': 'msg:alerts',
  'GET /ms/m1/msg/prometheus/targets': 'msg:alerts',
  'GET /ms/prometheus/targets': 'msg:alerts',
  'POST /ms/m1/msg/alerts': 'msg:alerts:add',
  'PUT /ms/m1/msg/alerts/:id': 'msg:alerts:edit',
  'DELETE /ms/m1/msg/alerts/:id': 'msg:alerts:delete',
  // The probe above: no rule at all.
  'GET /ms/m1/msg/test-unguarded': 'none',
};

const PARAMS: Record<string, string> = { ':id': '999999', ':page': '1', ':size': '10' };

describe('msg-center authorisation: every route has a rule, anonymous callers are refused', () => {
  let db: TestDatabase;
  let config: MsgCenterConfig;
  let app: NestExpressApplication;
  let adminToken: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    config = msgTestConfig(db, testNamespace());
    @Module({ imports: [AppModule.register(config)], controllers: [UnguardedProbeController] })
    class ProbedAppModule {}
    app = (await createServiceApp(ProbedAppModule, { config })).app;
    await app.init();
    adminToken = await tokenFor(config, await insertUser(db.dataSource, ['admin']));
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('every registered route is @Public, @Authenticated or permission-guarded, exactly as listed', () => {
    expect(registeredRouteRules(app)).toEqual(ROUTES);
  });

  it.each(Object.entries(ROUTES))('%s without a token (%s)', async (route, rule) => {
    const { method, path } = routeRequest(route, PARAMS);
    const client = request(app.getHttpServer()) as unknown as Record<string, (p: string) => request.Test>;
    expectAnonymousOutcome(await client[method.toLowerCase()](path), rule);
  });

  it('every string input of every route refuses a NUL character with a 400 naming it (not a 500 from PostgreSQL)', async () => {
    const probes = textInputProbes(app, PARAMS, 'A\u0000B');
    // What an outside test found answering 500: grid filters, message configs and groups.
    expect(probes.map((p) => p.name)).toEqual(
      expect.arrayContaining([
        'GET /ms/m1/msg/config/page/:page/size/:size query.configName',
        'POST /ms/m1/msg/config body.configName',
        'POST /ms/m1/msg/group body.name',
        'GET /ms/m1/msg/send_log/page/:page/size/:size query.receiver',
      ]),
    );
    const headers = { Authorization: `Bearer ${adminToken}` };
    expect(await unansweredNulProbes(app, probes, () => headers)).toEqual([]);
  });

  it('a route without a rule is refused even to an administrator (denied by default)', async () => {
    const res = await request(app.getHttpServer())
      .get('/ms/m1/msg/test-unguarded')
      .set('Authorization', `Bearer ${adminToken}`)
      .expect(403);
    expect(res.body).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Access denied: the route declares no permission (denied by default)',
    });
  });
});
