import { Controller, Get, type INestApplication, type Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { z } from 'zod';
import {
  ApiDoc,
  routeAccessRule,
  servedRoutes,
  type RouteAccessRule,
  type ServedRoute,
} from '@voltdepot/server-core';

/** One route a Nest application serves, with the access rule its guard reads. */
export interface RegisteredRoute extends ServedRoute {
  /** `GET /api/user/:id`: the method and the full path template. */
  key: string;
  rule: RouteAccessRule;
}

/**
 * Every route registered in the Nest application (`servedRoutes`), keyed by `METHOD /path`, with the
 * access rule its guard reads.
 */
export function registeredRoutes(app: INestApplication): Map<string, RegisteredRoute> {
  const reflector = app.get(Reflector);
  const routes = new Map<string, RegisteredRoute>();
  for (const route of servedRoutes(app)) {
    const key = `${route.method} ${route.path}`;
    routes.set(key, { ...route, key, rule: routeAccessRule(reflector, route.handler, route.controller) });
  }
  return routes;
}

/** A rule as the route tables of the authorisation specs write it: `public`, `authenticated`, `none` or `a:b,c:d`. */
export function ruleText(rule: RouteAccessRule): string {
  return rule.kind === 'permissions' ? rule.codes.join(',') : rule.kind;
}

/** `{ 'GET /health': 'public', 'POST /api/user': 'sys:user:add', ... }` for every registered route. */
export function registeredRouteRules(app: INestApplication): Record<string, string> {
  return Object.fromEntries([...registeredRoutes(app)].map(([key, route]) => [key, ruleText(route.rule)]));
}

/**
 * Splits `GET /api/user/:id` into its method and a concrete path, each `:param` replaced from `params`;
 * an unknown parameter throws, so a new route names the value it is called with.
 */
export function routeRequest(
  route: string,
  params: Record<string, string>,
): { method: string; path: string } {
  const [method, template] = route.split(' ');
  const path = template.replace(/:\w+/g, (param) => {
    const value = params[param];
    if (value === undefined) throw new Error(`no test value for ${param} (route ${route})`);
    return value;
  });
  return { method, path };
}

/**
 * A controller serving `GET /<path>` with no access rule at all: a route someone forgot to guard, which must be
 * denied to everybody, administrators included.
 */
export function unguardedProbeController(path: string): Type<object> {
  @Controller(path)
  class UnguardedProbeController {
    @ApiDoc({ response: z.string() })
    @Get()
    leak(): string {
      return 'should never be served';
    }
  }
  return UnguardedProbeController;
}

/**
 * What an anonymous call of a route must get: anything but 401/403 on a public route, otherwise
 * 401 AUTH_TOKEN_MISSING (the guard asks for a token before it looks at any permission).
 */
export function expectAnonymousOutcome(res: { status: number; body: unknown }, rule: string): void {
  if (rule === 'public') {
    expect([401, 403]).not.toContain(res.status);
  } else {
    expect(res.status).toBe(401);
    expect((res.body as { code?: unknown }).code).toBe('AUTH_TOKEN_MISSING');
  }
}
