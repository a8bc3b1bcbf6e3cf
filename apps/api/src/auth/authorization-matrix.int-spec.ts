import { Controller, Get, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer, Reflector } from '@nestjs/core';
import { routeAccessRule, signAccessToken, type RouteAccessRule } from '@voltdepot/server-core';
import type { SessionTokens } from '@voltdepot/shared-contracts';
import {
  ADMIN_PASSWORD,
  ApiTestApp,
  bearer,
  DEMO_PASSWORD,
  errorOf,
  startApiTestApp,
} from '../fixtures/api-test-app';

/** A route someone forgot to guard: it must be denied to everybody, administrators included. */
@Controller('test-unguarded')
class UnguardedProbeController {
  @Get()
  leak(): string {
    return 'should never be served';
  }
}

type Expected = 'public' | 'authenticated' | 'none' | string;

/**
 * Every route the api serves and the rule it must carry. A route missing here fails the walk below,
 * so adding a route forces a decision about who may call it.
 */
const ROUTES: Record<string, Expected> = {
  'GET /health': 'public',
  'GET /metrics': 'public',
  'GET /auth/captcha': 'public',
  'POST /auth/login': 'public',
  'POST /auth/refresh': 'public',
  'POST /auth/logout': 'public',
  'POST /auth/totp/enroll': 'authenticated',
  'POST /auth/totp/activate': 'authenticated',
  'POST /auth/totp/disable': 'authenticated',
  'GET /public/noAuth/getPlatformModuleConfigList': 'public',
  'GET /authority/users/currentuser/info': 'authenticated',
  'GET /authority/users/currentuser/menus': 'authenticated',
  'GET /authority/users/currentuser/permissions': 'authenticated',
  'GET /user/getUserExt': 'authenticated',
  'PUT /user/password': 'authenticated',
  'GET /favorite': 'authenticated',
  'POST /favorite': 'authenticated',
  'DELETE /favorite/:id': 'authenticated',
  'GET /api/dict/tree': 'authenticated',
  'GET /api/dict/type/:code': 'authenticated',
  'POST /api/dict': 'sys:dict:add',
  'PUT /api/dict/:id': 'sys:dict:edit',
  'DELETE /api/dict/:id': 'sys:dict:delete',
  'GET /api/user/page/:page/size/:size': 'sys:user:query',
  'GET /api/user/:id': 'sys:user:query',
  'POST /api/user': 'sys:user:add',
  'PUT /api/user/:id': 'sys:user:edit',
  'DELETE /api/user/:id': 'sys:user:delete',
  'PUT /api/user/:id/enabled': 'sys:user:enable',
  'POST /api/user/:id/resetPassword': 'sys:user:resetPassword',
  'POST /api/user/:id/copy': 'sys:user:copy',
  'DELETE /api/user/:id/totp': 'sys:user:resetPassword',
  'GET /api/user/:id/roles': 'sys:user:role',
  'PUT /api/user/:id/roles': 'sys:user:role',
  'GET /api/role/page/:page/size/:size': 'sys:role:query',
  'GET /api/role/all': 'sys:user:role',
  'GET /api/role/:id': 'sys:role:query',
  'POST /api/role': 'sys:role:add',
  'PUT /api/role/:id': 'sys:role:edit',
  'DELETE /api/role/:id': 'sys:role:delete',
  'GET /api/role/:id/resources': 'sys:role:menuAuth',
  'PUT /api/role/:id/resources': 'sys:role:menuAuth',
  'GET /api/role/:id/organizations': 'sys:role:dataAuth',
  'PUT /api/role/:id/organizations': 'sys:role:dataAuth',
  'GET /api/organization/tree': 'sys:org:query',
  'POST /api/organization': 'sys:org:add',
  'PUT /api/organization/:id': 'sys:org:edit',
  'DELETE /api/organization/:id': 'sys:org:delete',
  'GET /api/resource/tree': 'sys:resource:query',
  'POST /api/resource': 'sys:resource:add',
  'PUT /api/resource/:id': 'sys:resource:edit',
  'DELETE /api/resource/:id': 'sys:resource:delete',
  'GET /api/platformConfig/page/:page/size/:size': 'sys:config:query',
  'POST /api/platformConfig': 'sys:config:edit',
  'PUT /api/platformConfig/:configKey': 'sys:config:edit',
  'DELETE /api/platformConfig/:configKey': 'sys:config:edit',
  'GET /api/operationLog/page/:page/size/:size': 'sys:log:operation',
  'GET /api/operationLog/export': 'sys:log:operation',
  'GET /api/loginLog/page/:page/size/:size': 'sys:log:login',
  'GET /api/pricePlan/page/:page/size/:size': 'price_plan:view',
  'GET /api/pricePlan/:id': 'price_plan:view',
  'POST /api/pricePlan': 'price_plan:edit',
  'PUT /api/pricePlan/:id': 'price_plan:edit',
  'DELETE /api/pricePlan/:id': 'price_plan:edit',
  'POST /api/pricePlan/station/:stationId': 'price_plan:edit',
  'GET /api/discountPlan/page/:page/size/:size': 'discount_plan:view',
  'GET /api/discountPlan/:id': 'discount_plan:view',
  'POST /api/discountPlan': 'discount_plan:edit',
  'PUT /api/discountPlan/:id': 'discount_plan:edit',
  'DELETE /api/discountPlan/:id': 'discount_plan:edit',
  'GET /api/company/page/:page/size/:size': 'basic:company:query',
  'GET /api/company/:id': 'basic:company:query',
  'POST /api/company': 'basic:company:add',
  'PUT /api/company/:id': 'basic:company:edit',
  'DELETE /api/company/:id': 'basic:company:delete',
  'GET /api/branch/page/:page/size/:size': 'basic:branch:query',
  'GET /api/branch/:id': 'basic:branch:query',
  'POST /api/branch': 'basic:branch:add',
  'PUT /api/branch/:id': 'basic:branch:edit',
  'DELETE /api/branch/:id': 'basic:branch:delete',
  'GET /api/fleet/page/:page/size/:size': 'basic:fleet:query',
  'GET /api/fleet/:id': 'basic:fleet:query',
  'POST /api/fleet': 'basic:fleet:add',
  'PUT /api/fleet/:id': 'basic:fleet:edit',
  'DELETE /api/fleet/:id': 'basic:fleet:delete',
  'GET /api/line/page/:page/size/:size': 'basic:line:query',
  'GET /api/line/:id': 'basic:line:query',
  'POST /api/line': 'basic:line:add',
  'PUT /api/line/:id': 'basic:line:edit',
  'DELETE /api/line/:id': 'basic:line:delete',
  'GET /api/station/page/:page/size/:size': 'basic:station:query',
  'GET /api/station/:id': 'basic:station:query',
  'POST /api/station': 'basic:station:add',
  'PUT /api/station/:id': 'basic:station:edit',
  'DELETE /api/station/:id': 'basic:station:delete',
  'GET /api/pile/export': 'basic:host:export',
  'POST /api/pile/batch/enable': 'basic:host:enable',
  'POST /api/pile/batch/disable': 'basic:host:enable',
  'GET /api/pile/unknown/page/:page/size/:size': 'basic:host:unknown',
  'POST /api/pile/unknown/:chargePointId/register': 'basic:host:add',
  'GET /api/pile/page/:page/size/:size': 'basic:host:query',
  'GET /api/pile/:id': 'basic:host:query',
  'POST /api/pile': 'basic:host:add',
  'PUT /api/pile/:id': 'basic:host:edit',
  'DELETE /api/pile/:id': 'basic:host:delete',
  'GET /api/gun/page/:page/size/:size': 'basic:gun:query',
  'GET /api/gun/:id': 'basic:gun:query',
  'POST /api/gun': 'basic:gun:add',
  'PUT /api/gun/:id': 'basic:gun:edit',
  'DELETE /api/gun/:id': 'basic:gun:delete',
  'GET /api/transformer/page/:page/size/:size': 'basic:transformer:query',
  'GET /api/transformer/:id': 'basic:transformer:query',
  'POST /api/transformer': 'basic:transformer:add',
  'PUT /api/transformer/:id': 'basic:transformer:edit',
  'DELETE /api/transformer/:id': 'basic:transformer:delete',
  'GET /api/vehicle/export': 'basic:vehicle:export',
  'POST /api/vehicle/import': 'basic:vehicle:import',
  'GET /api/vehicle/page/:page/size/:size': 'basic:vehicle:query',
  'GET /api/vehicle/:id': 'basic:vehicle:query',
  'POST /api/vehicle': 'basic:vehicle:add',
  'PUT /api/vehicle/:id': 'basic:vehicle:edit',
  'DELETE /api/vehicle/:id': 'basic:vehicle:delete',
  'GET /api/card/page/:page/size/:size': 'basic:cardConfig:query',
  'GET /api/card/:id': 'basic:cardConfig:query',
  'POST /api/card': 'basic:cardConfig:add',
  'PUT /api/card/:id': 'basic:cardConfig:edit',
  'DELETE /api/card/:id': 'basic:cardConfig:delete',
  'GET /api/manufacturer/page/:page/size/:size': 'basic:manufacturer:query',
  'GET /api/manufacturer/:id': 'basic:manufacturer:query',
  'POST /api/manufacturer': 'basic:manufacturer:add',
  'PUT /api/manufacturer/:id': 'basic:manufacturer:edit',
  'DELETE /api/manufacturer/:id': 'basic:manufacturer:delete',
  'GET /api/operator/page/:page/size/:size': 'basic:operator:query',
  'GET /api/operator/:id': 'basic:operator:query',
  'POST /api/operator': 'basic:operator:add',
  'PUT /api/operator/:id': 'basic:operator:edit',
  'DELETE /api/operator/:id': 'basic:operator:delete',
  'GET /api/region/page/:page/size/:size': 'basic:region:query',
  'GET /api/region/:id': 'basic:region:query',
  'POST /api/region': 'basic:region:add',
  'PUT /api/region/:id': 'basic:region:edit',
  'DELETE /api/region/:id': 'basic:region:delete',
  'GET /api/label/page/:page/size/:size': 'basic:label:query',
  'GET /api/label/:id': 'basic:label:query',
  'POST /api/label': 'basic:label:add',
  'PUT /api/label/:id': 'basic:label:edit',
  'DELETE /api/label/:id': 'basic:label:delete',
  'GET /test-unguarded': 'none',
};

/** Charging-assets permissions: operators hold all; maintainers read all and manage the equipment. */
const ASSET_CODES = Object.values(ROUTES).filter((rule) => rule.startsWith('basic:'));
const MAINTAINER_ASSET_CODES = ASSET_CODES.filter(
  (code) =>
    code.endsWith(':query') ||
    ['basic:station:', 'basic:host:', 'basic:gun:', 'basic:transformer:'].some((p) => code.startsWith(p)),
);

/** The sys permission codes each seeded role holds (admin holds every code). */
const ROLE_CODES: Record<string, string[] | 'all'> = {
  admin: 'all',
  operator: [
    'sys:user:query',
    'sys:org:query',
    'sys:log:operation',
    'price_plan:view',
    'price_plan:edit',
    'discount_plan:view',
    'discount_plan:edit',
    ...ASSET_CODES,
  ],
  maintainer: MAINTAINER_ASSET_CODES,
  fleet: ['sys:user:query', 'sys:org:query'],
};

function expectedRuleText(rule: RouteAccessRule): Expected {
  return rule.kind === 'permissions' ? rule.codes.join(',') : rule.kind;
}

/** Every route registered in the Nest application, with its access rule. */
function registeredRoutes(t: ApiTestApp): Map<string, RouteAccessRule> {
  const reflector = t.app.get(Reflector);
  const routes = new Map<string, RouteAccessRule>();
  for (const module of t.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (controller === null) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (typeof handler !== 'function' || name === 'constructor') continue;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        if (path === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const full = `/${[base, path]
          .map((p) => p.replace(/^\/+|\/+$/g, ''))
          .filter(Boolean)
          .join('/')}`;
        routes.set(`${method} ${full}`, routeAccessRule(reflector, handler, controller));
      }
    }
  }
  return routes;
}

const PARAMS: Record<string, string> = {
  ':id': '999999',
  ':page': '1',
  ':size': '10',
  ':code': 'message_type',
  ':configKey': 'no_such_key',
  ':stationId': '1',
  ':chargePointId': 'NO-SUCH-PILE',
};

describe('authorisation: every route x every seeded role', () => {
  let t: ApiTestApp;
  const tokens: Record<string, SessionTokens> = {};

  beforeAll(async () => {
    t = await startApiTestApp({}, [UnguardedProbeController]);
    tokens['admin'] = await t.login('admin', ADMIN_PASSWORD);
    for (const user of ['operator', 'maintainer', 'fleet']) tokens[user] = await t.login(user, DEMO_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every registered route is @Public, @Authenticated or permission-guarded, exactly as listed', () => {
    const routes = registeredRoutes(t);
    const unguarded = [...routes].filter(([key, rule]) => rule.kind === 'none' && ROUTES[key] !== 'none');
    expect(unguarded.map(([key]) => key)).toEqual([]);
    const actual = Object.fromEntries([...routes].map(([key, rule]) => [key, expectedRuleText(rule)]));
    expect(actual).toEqual(ROUTES);
  });

  it('the OpenAPI document at /api/docs-json describes every route', async () => {
    const doc = (await t.http().get('/api/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(documented.sort()).toEqual(Object.keys(ROUTES).sort());
    await t.http().get('/api/docs').expect(200);
  });

  const cases = Object.entries(ROUTES).flatMap(([route, rule]) =>
    ['anonymous', 'admin', 'operator', 'maintainer', 'fleet'].map((who) => [route, who, rule] as const),
  );

  it.each(cases)('%s as %s (%s)', async (route, who, rule) => {
    const [method, template] = route.split(' ');
    const path = template.replace(/:\w+/g, (p) => PARAMS[p]);
    let req = t.http()[method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](path);
    // Logging out with the bearer would end the session the rest of the matrix uses.
    if (who !== 'anonymous' && route !== 'POST /auth/logout') req = req.set(bearer(tokens[who]));
    if (method !== 'GET' && method !== 'DELETE') req = req.send({});
    const res = await req;

    if (rule === 'public') {
      expect([401, 403]).not.toContain(res.status);
    } else if (who === 'anonymous') {
      expect(res.status).toBe(401);
      errorOf(res.body, 'AUTH_TOKEN_MISSING');
    } else if (rule === 'none') {
      expect(res.status).toBe(403);
      expect(errorOf(res.body, 'FORBIDDEN').message).toBe(
        'Access denied: the route declares no permission (denied by default)',
      );
    } else if (rule === 'authenticated' || ROLE_CODES[who] === 'all' || ROLE_CODES[who].includes(rule)) {
      expect([401, 403]).not.toContain(res.status);
      expect(res.status).toBeLessThan(500);
    } else {
      expect(res.status).toBe(403);
      expect(errorOf(res.body, 'FORBIDDEN').message).toBe(`Missing permission: ${rule}`);
    }
  });
});

describe('401 versus 403', () => {
  let t: ApiTestApp;
  beforeAll(async () => {
    t = await startApiTestApp({ ACCESS_TOKEN_TTL_SECONDS: '30' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ['no header', undefined, 'AUTH_TOKEN_MISSING', 'Authentication required'],
    ['not a bearer header', 'Basic YWRtaW46YWRtaW4=', 'AUTH_TOKEN_MISSING', 'Authentication required'],
    ['a malformed token', 'Bearer not.a.jwt', 'AUTH_TOKEN_INVALID', 'Access token is invalid'],
    [
      'a token signed with another secret',
      'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIiwic2lkIjoieCIsIm5hbWUiOiJhZG1pbiIsInR5cCI6ImFjY2VzcyJ9.2zVbZkHh1vS2d0sWc0Vb6bQKc7c9e8Hk3yqk6x3Y3nU',
      'AUTH_TOKEN_INVALID',
      'Access token is invalid',
    ],
  ])('%s -> 401 %s', async (_case, header, code, message) => {
    let req = t.http().get('/api/user/page/1/size/10');
    if (header !== undefined) req = req.set('authorization', header);
    const res = await req.expect(401);
    expect(res.body).toEqual({ code, message, correlationId: expect.any(String) });
  });

  it('an expired token -> 401 AUTH_TOKEN_EXPIRED', async () => {
    const tokens = await t.login('admin', ADMIN_PASSWORD);
    const claims = JSON.parse(Buffer.from(tokens.accessToken.split('.')[1], 'base64url').toString()) as {
      sub: string;
      sid: string;
    };
    const expired = await signAccessToken(
      { userId: Number(claims.sub), username: 'admin', sessionId: claims.sid },
      t.config.JWT_SECRET,
      60,
      Date.now() - 3_600_000,
    );
    const res = await t.http().get('/user/getUserExt').set(bearer(expired.token)).expect(401);
    expect(res.body).toEqual({
      code: 'AUTH_TOKEN_EXPIRED',
      message: 'Access token has expired',
      correlationId: expect.any(String),
    });
  });

  it('a disabled user’s token -> 401 AUTH_TOKEN_REVOKED; a missing permission -> 403 naming it', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const fleet = await t.login('fleet', DEMO_PASSWORD);
    const denied = await t.http().get('/api/role/page/1/size/10').set(bearer(fleet)).expect(403);
    expect(denied.body).toEqual({
      code: 'FORBIDDEN',
      message: 'Missing permission: sys:role:query',
      details: { missing: ['sys:role:query'] },
      correlationId: expect.any(String),
    });
    const me = (await t.http().get('/user/getUserExt').set(bearer(fleet)).expect(200)).body as {
      userId: number;
    };
    await t
      .http()
      .put(`/api/user/${me.userId}/enabled`)
      .set(bearer(admin))
      .send({ enabled: false })
      .expect(200);
    errorOf(
      (await t.http().get('/user/getUserExt').set(bearer(fleet)).expect(401)).body,
      'AUTH_TOKEN_REVOKED',
    );
    await t
      .http()
      .put(`/api/user/${me.userId}/enabled`)
      .set(bearer(admin))
      .send({ enabled: true })
      .expect(200);
  });

  it('a permission granted to a role applies at once, and so does its removal', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const fleet = await t.login('fleet', DEMO_PASSWORD);
    await t.http().get('/api/role/page/1/size/10').set(bearer(fleet)).expect(403);
    const roles = (
      await t.http().get('/api/role/page/1/size/10').set(bearer(admin)).query({ code: 'fleet_manager' })
    ).body as { list: { id: number }[] };
    const roleId = roles.list[0].id;
    const tree = (await t.http().get('/api/resource/tree').set(bearer(admin)).expect(200)).body as unknown[];
    const queryId = findId(tree, 'sys:role:query');
    const { resourceIds } = (
      await t.http().get(`/api/role/${roleId}/resources`).set(bearer(admin)).expect(200)
    ).body as {
      resourceIds: number[];
    };
    await t
      .http()
      .put(`/api/role/${roleId}/resources`)
      .set(bearer(admin))
      .send({ resourceIds: [...resourceIds, queryId] })
      .expect(200);
    await t.http().get('/api/role/page/1/size/10').set(bearer(fleet)).expect(200);
    await t.http().put(`/api/role/${roleId}/resources`).set(bearer(admin)).send({ resourceIds }).expect(200);
    await t.http().get('/api/role/page/1/size/10').set(bearer(fleet)).expect(403);
  });
});

function findId(nodes: unknown[], code: string): number {
  for (const node of nodes as { id: number; code: string; children: unknown[] }[]) {
    if (node.code === code) return node.id;
    const inChild = findIdOrUndefined(node.children, code);
    if (inChild !== undefined) return inChild;
  }
  throw new Error(`no resource ${code}`);
}
function findIdOrUndefined(nodes: unknown[], code: string): number | undefined {
  try {
    return findId(nodes, code);
  } catch {
    return undefined;
  }
}
