import { Controller, Get, Module, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer, Reflector } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createServiceApp, routeAccessRule, type RouteAccessRule } from '@voltdepot/server-core';
import { createTestDatabase, TestDatabase } from '@voltdepot/server-testing';
import request from 'supertest';
import type { MsgCenterConfig } from './app.config';
import { AppModule } from './app.module';
import { createUser, msgTestConfig, testNamespace, tokenFor } from './fixtures/msg-center.fixtures';

/** A route someone forgot to guard: it must be denied to everybody, administrators included. */
@Controller('ms/m1/msg/test-unguarded')
class UnguardedProbeController {
  @Get()
  leak(): string {
    return 'should never be served';
  }
}

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

function ruleText(rule: RouteAccessRule): Expected {
  return rule.kind === 'permissions' ? rule.codes.join(',') : rule.kind;
}

/** Every route registered in the Nest application with its access rule (as the guard reads it). */
function registeredRoutes(app: NestExpressApplication): Map<string, RouteAccessRule> {
  const reflector = app.get(Reflector);
  const routes = new Map<string, RouteAccessRule>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (controller === null) continue;
      const bases = [Reflect.getMetadata(PATH_METADATA, controller) ?? ''].flat() as string[];
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (typeof handler !== 'function' || name === 'constructor') continue;
        const paths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (paths === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        // A handler may serve several paths (@Get(['a', 'b'])): each is a route of its own.
        for (const base of bases) {
          for (const path of [paths].flat()) {
            const full = `/${[base, path]
              .map((p) => p.replace(/^\/+|\/+$/g, ''))
              .filter(Boolean)
              .join('/')}`;
            routes.set(`${method} ${full}`, routeAccessRule(reflector, handler, controller));
          }
        }
      }
    }
  }
  return routes;
}

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
    adminToken = await tokenFor(config, await createUser(db.dataSource, ['admin']));
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('every registered route is @Public, @Authenticated or permission-guarded, exactly as listed', () => {
    const actual = Object.fromEntries([...registeredRoutes(app)].map(([key, rule]) => [key, ruleText(rule)]));
    expect(actual).toEqual(ROUTES);
  });

  it.each(Object.entries(ROUTES))('%s without a token (%s)', async (route, rule) => {
    const [method, template] = route.split(' ');
    const path = template.replace(/:\w+/g, (p) => PARAMS[p] ?? '1');
    const client = request(app.getHttpServer()) as unknown as Record<string, (p: string) => request.Test>;
    const res = await client[method.toLowerCase()](path);
    if (rule === 'public') {
      expect([401, 403]).not.toContain(res.status);
    } else {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('AUTH_TOKEN_MISSING');
    }
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
