import request from 'supertest';
import {
  expectAnonymousOutcome,
  registeredRouteRules,
  routeRequest,
  unguardedProbeController,
} from '@voltdepot/server-testing';
import { startGatewayHttpApp, type GatewayHttpApp } from '../testing/fixtures/gateway-http-app';

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
  let gateway: GatewayHttpApp;
  let app: GatewayHttpApp['app'];
  let adminToken: string;
  /** A role holding none of the gateway's permissions (maintainers may read the message log). */
  let fleetManagerToken: string;

  beforeAll(async () => {
    gateway = await startGatewayHttpApp({ controllers: [UnguardedProbeController] });
    app = gateway.app;
    adminToken = await gateway.tokenFor('admin');
    fleetManagerToken = await gateway.tokenFor('fleet_manager');
  });

  afterAll(() => gateway?.close());

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
