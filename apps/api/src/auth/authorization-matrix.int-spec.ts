import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { signAccessToken, ZodValidationPipe } from '@voltdepot/server-core';
import {
  registeredRouteRules,
  registeredRoutes,
  routeRequest,
  textInputProbes,
  unansweredNulProbes,
  unguardedProbeController,
  type RegisteredRoute,
} from '@voltdepot/server-testing';
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
const UnguardedProbeController = unguardedProbeController('test-unguarded');

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
  // Enrolment a sign-in requires (mandatory TOTP for administrators): only the ticket counts.
  'POST /auth/totp/enrolment/start': 'public',
  'POST /auth/totp/enrolment/complete': 'public',
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
  // User list as a spreadsheet (libs/server/spreadsheet).
  'GET /api/user/export': 'sys:user:query',
  'GET /api/user/import/template': 'sys:user:add',
  'POST /api/user/import': 'sys:user:add',
  'GET /api/user/import/progress/:progressId': 'sys:user:add',
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
  'PUT /api/platformConfig': 'sys:config:edit',
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
  'GET /api/pricePlan/station/:stationId': 'price_plan:view',
  'GET /api/discountPlan/page/:page/size/:size': 'discount_plan:view',
  'GET /api/discountPlan/:id': 'discount_plan:view',
  'POST /api/discountPlan': 'discount_plan:edit',
  'PUT /api/discountPlan/:id': 'discount_plan:edit',
  'DELETE /api/discountPlan/:id': 'discount_plan:edit',
  'GET /api/occupationOrder/page/:page/size/:size': 'occupation_order:view',
  'GET /api/occupationOrder/:id': 'occupation_order:view',
  'GET /api/orderOperation/page/:page/size/:size': 'order_operation:view',
  'GET /api/orderOperation/export/xlsx': 'order_operation:export',
  'GET /api/reservation/page/:page/size/:size': 'reservation:view',
  // Order screens and list exports (billing orders-query).
  'GET /api/chargingOrder/page/:page/size/:size': 'charging_order:view',
  'GET /api/chargingOrder/options': 'charging_order:view',
  'GET /api/chargingOrder/:id': 'charging_order:view',
  'POST /api/chargingOrder/:id/review': 'charging_order:review',
  'POST /api/chargingOrder/:id/amend': 'charging_order:amend',
  'GET /api/chargingOrder/:id/amend/preview': 'charging_order:amend',
  'GET /api/chargingOrder/export/xlsx': 'charging_order:export',
  'GET /api/pricePlan/export/xlsx': 'price_plan:export',
  'GET /api/discountPlan/export/xlsx': 'discount_plan:export',
  'GET /api/occupationOrder/export/xlsx': 'occupation_order:export',
  'GET /api/reservation/export/xlsx': 'reservation:export',
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
  'GET /api/pile/import/template': 'basic:host:import',
  'POST /api/pile/import': 'basic:host:import',
  'POST /api/pile/batch/enable': 'basic:host:enable',
  'POST /api/pile/batch/disable': 'basic:host:enable',
  'GET /api/pile/unknown/page/:page/size/:size': 'basic:host:unknown',
  'GET /api/pile/unknown/export': 'basic:host:unknown:export',
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
  // The home page's figures of the day (apps/api/src/overview).
  'GET /api/overview/today': 'home',
  // Live monitoring (libs/server/monitoring).
  'GET /api/monitor/station/list': 'operation:stationMonitor',
  'GET /api/monitor/station/:id': 'operation:stationMonitor',
  'GET /api/monitor/pile/stations': 'operation:pileMonitor',
  'GET /api/monitor/pile/page/:page/size/:size': 'operation:pileMonitor',
  'GET /api/monitor/vehicle/page/:page/size/:size': 'operation:busList',
  'POST /api/monitor/pile/:chargePointId/command/:action': 'pile:command',
  // Basic data beyond the first grids (libs/server/assets): new grids, card actions, pictures, fee
  // settings, host delivery, and xlsx export (every grid) and import (the flat ones).
  'GET /api/parkingSpace/page/:page/size/:size': 'basic:parkingSpace:query',
  'GET /api/parkingSpace/:id': 'basic:parkingSpace:query',
  'POST /api/parkingSpace': 'basic:parkingSpace:add',
  'PUT /api/parkingSpace/:id': 'basic:parkingSpace:edit',
  'DELETE /api/parkingSpace/:id': 'basic:parkingSpace:delete',
  'GET /api/camera/page/:page/size/:size': 'basic:camera:query',
  'GET /api/camera/:id': 'basic:camera:query',
  'POST /api/camera': 'basic:camera:add',
  'PUT /api/camera/:id': 'basic:camera:edit',
  'DELETE /api/camera/:id': 'basic:camera:delete',
  'GET /api/alarmCode/page/:page/size/:size': 'basic:alarmCode:query',
  'GET /api/alarmCode/:id': 'basic:alarmCode:query',
  'POST /api/alarmCode': 'basic:alarmCode:add',
  'PUT /api/alarmCode/:id': 'basic:alarmCode:edit',
  'DELETE /api/alarmCode/:id': 'basic:alarmCode:delete',
  'GET /api/stopCode/page/:page/size/:size': 'basic:stopCode:query',
  'GET /api/stopCode/:id': 'basic:stopCode:query',
  'POST /api/stopCode': 'basic:stopCode:add',
  'PUT /api/stopCode/:id': 'basic:stopCode:edit',
  'DELETE /api/stopCode/:id': 'basic:stopCode:delete',
  'GET /api/maintenancePersonnel/page/:page/size/:size': 'basic:maintenancePersonnel:query',
  'GET /api/maintenancePersonnel/:id': 'basic:maintenancePersonnel:query',
  'POST /api/maintenancePersonnel': 'basic:maintenancePersonnel:add',
  'PUT /api/maintenancePersonnel/:id': 'basic:maintenancePersonnel:edit',
  'DELETE /api/maintenancePersonnel/:id': 'basic:maintenancePersonnel:delete',
  'GET /api/peakTime/page/:page/size/:size': 'basic:peakTime:query',
  'GET /api/peakTime/:id': 'basic:peakTime:query',
  'POST /api/peakTime': 'basic:peakTime:add',
  'PUT /api/peakTime/:id': 'basic:peakTime:edit',
  'DELETE /api/peakTime/:id': 'basic:peakTime:delete',
  'GET /api/company/export': 'basic:company:export',
  'GET /api/company/import/template': 'basic:company:import',
  'POST /api/company/import': 'basic:company:import',
  'GET /api/branch/export': 'basic:branch:export',
  'GET /api/branch/import/template': 'basic:branch:import',
  'POST /api/branch/import': 'basic:branch:import',
  'GET /api/fleet/export': 'basic:fleet:export',
  'GET /api/fleet/import/template': 'basic:fleet:import',
  'POST /api/fleet/import': 'basic:fleet:import',
  'GET /api/line/export': 'basic:line:export',
  'GET /api/line/import/template': 'basic:line:import',
  'POST /api/line/import': 'basic:line:import',
  'GET /api/station/export': 'basic:station:export',
  'GET /api/station/import/template': 'basic:station:import',
  'POST /api/station/import': 'basic:station:import',
  'GET /api/gun/export': 'basic:gun:export',
  'GET /api/gun/import/template': 'basic:gun:import',
  'POST /api/gun/import': 'basic:gun:import',
  'GET /api/transformer/export': 'basic:transformer:export',
  'GET /api/transformer/import/template': 'basic:transformer:import',
  'POST /api/transformer/import': 'basic:transformer:import',
  'GET /api/card/export': 'basic:cardConfig:export',
  'GET /api/card/import/template': 'basic:cardConfig:import',
  'POST /api/card/import': 'basic:cardConfig:import',
  'GET /api/manufacturer/export': 'basic:manufacturer:export',
  'GET /api/manufacturer/import/template': 'basic:manufacturer:import',
  'POST /api/manufacturer/import': 'basic:manufacturer:import',
  'GET /api/operator/export': 'basic:operator:export',
  'GET /api/operator/import/template': 'basic:operator:import',
  'POST /api/operator/import': 'basic:operator:import',
  'GET /api/region/export': 'basic:region:export',
  'GET /api/region/import/template': 'basic:region:import',
  'POST /api/region/import': 'basic:region:import',
  'GET /api/label/export': 'basic:label:export',
  'GET /api/label/import/template': 'basic:label:import',
  'POST /api/label/import': 'basic:label:import',
  'GET /api/parkingSpace/export': 'basic:parkingSpace:export',
  'GET /api/parkingSpace/import/template': 'basic:parkingSpace:import',
  'POST /api/parkingSpace/import': 'basic:parkingSpace:import',
  'GET /api/camera/export': 'basic:camera:export',
  'GET /api/camera/import/template': 'basic:camera:import',
  'POST /api/camera/import': 'basic:camera:import',
  'GET /api/alarmCode/export': 'basic:alarmCode:export',
  'GET /api/alarmCode/import/template': 'basic:alarmCode:import',
  'POST /api/alarmCode/import': 'basic:alarmCode:import',
  'GET /api/stopCode/export': 'basic:stopCode:export',
  'GET /api/stopCode/import/template': 'basic:stopCode:import',
  'POST /api/stopCode/import': 'basic:stopCode:import',
  'GET /api/maintenancePersonnel/export': 'basic:maintenancePersonnel:export',
  'GET /api/maintenancePersonnel/import/template': 'basic:maintenancePersonnel:import',
  'POST /api/maintenancePersonnel/import': 'basic:maintenancePersonnel:import',
  'GET /api/peakTime/export': 'basic:peakTime:export',
  'GET /api/peakTime/import/template': 'basic:peakTime:import',
  'POST /api/peakTime/import': 'basic:peakTime:import',
  'GET /api/vehicle/import/template': 'basic:vehicle:import',
  'POST /api/pile/batch/delivery': 'basic:host:delivery',
  'POST /api/station/:id/picture': 'basic:station:edit',
  'GET /api/station/:id/picture/:pictureId': 'basic:station:query',
  'DELETE /api/station/:id/picture/:pictureId': 'basic:station:edit',
  'GET /api/stationFee/export': 'basic:stationFee:export',
  'GET /api/stationFee/import/template': 'basic:stationFee:import',
  'POST /api/stationFee/import': 'basic:stationFee:import',
  'GET /api/stationFee/page/:page/size/:size': 'basic:stationFee:query',
  'GET /api/stationFee/:id': 'basic:stationFee:query',
  'PUT /api/stationFee/:id': 'basic:stationFee:edit',
  'POST /api/card/:id/make': 'basic:cardConfig:make',
  'POST /api/card/:id/reportLoss': 'basic:cardConfig:reportLoss',
  'POST /api/card/:id/releaseLoss': 'basic:cardConfig:releaseLoss',
  'POST /api/card/:id/replace': 'basic:cardConfig:replace',
  'POST /api/card/:id/swap': 'basic:cardConfig:swap',
  'POST /api/card/:id/logout': 'basic:cardConfig:logout',
  // IC cards (libs/server/iccard).
  'GET /api/iccard/company/page/:page/size/:size': 'iccard:customer:query',
  'POST /api/iccard/company': 'iccard:customer:edit',
  'PUT /api/iccard/company/:id': 'iccard:customer:edit',
  'GET /api/iccard/customer/page/:page/size/:size': 'iccard:customer:query',
  'POST /api/iccard/customer': 'iccard:customer:edit',
  'PUT /api/iccard/customer/:id': 'iccard:customer:edit',
  'GET /api/iccard/card/page/:page/size/:size': 'iccard:cardManage:query',
  'POST /api/iccard/card': 'iccard:cardManage:add',
  'POST /api/iccard/card/:cardNo/:action': 'iccard:cardManage:operate',
  'GET /api/iccard/action/page/:page/size/:size': 'iccard:recharge:query',
  'POST /api/iccard/group/:id/:direction': 'iccard:groupAccount:allocate',
  // IC-card screens' reads and exports (libs/server/iccard/src/queries).
  'GET /api/iccard/account/page/:page/size/:size': 'iccard:customer:query',
  'GET /api/iccard/group/:id': 'iccard:customer:query',
  'GET /api/iccard/record/page/:page/size/:size': 'iccard:recharge:query',
  'GET /api/iccard/card/:cardNo/detail': 'iccard:cardManage:query',
  'GET /api/iccard/company/export/xlsx': 'iccard:customer:query',
  'GET /api/iccard/customer/export/xlsx': 'iccard:customer:query',
  'GET /api/iccard/card/export/xlsx': 'iccard:cardManage:query',
  'GET /api/iccard/action/export/xlsx': 'iccard:recharge:query',
  'GET /api/iccard/account/export/xlsx': 'iccard:customer:query',
  'GET /api/iccard/record/export/xlsx': 'iccard:recharge:query',
  'GET /test-unguarded': 'none',
};

/** The demo users of the seeded roles (admin, operator, maintainer, fleet_manager). */
const USERS = ['admin', 'operator', 'maintainer', 'fleet'] as const;

/**
 * The permission codes a user holds through their roles, read from the grants the migrations seeded:
 * the expectations follow the seed instead of repeating it.
 */
async function grantedCodes(t: ApiTestApp, username: string): Promise<Set<string>> {
  const rows = (await t.db.dataSource.query(
    `SELECT DISTINCT s.code
       FROM sys_user u
       JOIN sys_user_role ur ON ur.user_id = u.id
       JOIN sys_role_resource rr ON rr.role_id = ur.role_id
       JOIN sys_resource s ON s.id = rr.resource_id
      WHERE u.username = $1`,
    [username],
  )) as { code: string }[];
  return new Set(rows.map((row) => row.code));
}

/** Whether ZodBody validates the body of the route (so the OpenAPI document must give its schema). */
function validatesBody({ controller, handlerName }: RegisteredRoute): boolean {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handlerName) ?? {}) as Record<
    string,
    { pipes?: unknown[] }
  >;
  return Object.entries(args).some(
    ([key, arg]) =>
      key.startsWith(`${RouteParamtypes.BODY}:`) &&
      (arg.pipes ?? []).some((pipe) => pipe instanceof ZodValidationPipe),
  );
}

const PARAMS: Record<string, string> = {
  ':id': '999999',
  ':page': '1',
  ':size': '10',
  ':code': 'message_type',
  ':configKey': 'no_such_key',
  ':stationId': '1',
  ':chargePointId': 'NO-SUCH-PILE',
  ':action': 'Reset',
  ':pictureId': '999999',
  ':progressId': '00000000-0000-4000-8000-000000000000',
  ':cardNo': 'NO-SUCH-CARD',
  ':direction': 'allocate',
};

describe('authorisation: every route x every seeded role', () => {
  let t: ApiTestApp;
  const tokens: Record<string, SessionTokens> = {};
  const granted: Record<string, Set<string>> = {};

  beforeAll(async () => {
    t = await startApiTestApp({}, [UnguardedProbeController]);
    for (const user of USERS) {
      tokens[user] = await t.login(user, user === 'admin' ? ADMIN_PASSWORD : DEMO_PASSWORD);
      granted[user] = await grantedCodes(t, user);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every registered route is @Public, @Authenticated or permission-guarded, exactly as listed', () => {
    const unguarded = [...registeredRoutes(t.app)].filter(
      ([key, { rule }]) => rule.kind === 'none' && ROUTES[key] !== 'none',
    );
    expect(unguarded.map(([key]) => key)).toEqual([]);
    expect(registeredRouteRules(t.app)).toEqual(ROUTES);
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

  it('the OpenAPI document gives the success answer of every route: a JSON schema, a file or nothing (204)', async () => {
    type Responses = Record<
      string,
      { content?: Record<string, { schema?: { $ref?: string; type?: string } }> }
    >;
    const doc = (await t.http().get('/api/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, { responses: Responses }>>;
    };
    const undocumented = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, { responses }]) => {
          const [code] = Object.keys(responses).filter((c) => /^2\d\d$/.test(c));
          if (code === '204') return responses[code].content !== undefined;
          const content = Object.entries(responses[code ?? '']?.content ?? {});
          return !content.some(([, { schema }]) => schema?.$ref !== undefined || schema?.type !== undefined);
        })
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(undocumented).toEqual([]);
  });

  it('the OpenAPI document gives the request body schema of every route whose body ZodBody validates', async () => {
    type Operation = { requestBody?: { content: Record<string, { schema?: { type?: string } }> } };
    const doc = (await t.http().get('/api/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, Operation>>;
    };
    const validated = [...registeredRoutes(t.app)]
      .filter(([, route]) => validatesBody(route))
      .map(([key]) => key);
    expect(validated).toEqual(expect.arrayContaining(['POST /auth/login', 'POST /api/user']));
    const undocumented = validated.filter((key) => {
      const [method, path] = key.split(' ');
      const operation = doc.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
      return operation?.requestBody?.content['application/json']?.schema === undefined;
    });
    expect(undocumented).toEqual([]);
    const login = doc.paths['/auth/login']?.['post']?.requestBody?.content['application/json']?.schema;
    expect(login).toEqual(
      expect.objectContaining({ type: 'object', required: expect.arrayContaining(['username', 'password']) }),
    );
  });

  it('the administrator holds every permission a route asks for; the other roles none that changes who may do what', () => {
    const required = [...new Set(Object.values(ROUTES).filter((rule) => rule.includes(':')))];
    expect(required.filter((code) => !granted['admin'].has(code))).toEqual([]);
    for (const user of USERS.filter((u) => u !== 'admin')) {
      // Reading users, organisations and logs is fine; any other sys route administers access.
      const administering = required.filter(
        (code) =>
          granted[user].has(code) &&
          code.startsWith('sys:') &&
          !code.endsWith(':query') &&
          !code.startsWith('sys:log:'),
      );
      expect({ user, administering }).toEqual({ user, administering: [] });
    }
  });

  it('every string input of every route refuses a NUL character with a 400 naming it (not a 500 from PostgreSQL)', async () => {
    const probes = textInputProbes(t.app, PARAMS, 'A\u0000B');
    // The walk reaches what an outside test found answering 500: grid filters, bodies, the sign-in.
    expect(probes.map((p) => p.name)).toEqual(
      expect.arrayContaining([
        'POST /auth/login body.username',
        'GET /api/station/page/:page/size/:size query.name',
        'GET /api/vehicle/page/:page/size/:size query.plate',
        'POST /api/station body.address',
        'PUT /api/vehicle/:id body.vin',
        'PUT /api/platformConfig/:configKey path.configKey',
      ]),
    );
    expect(probes.length).toBeGreaterThan(300);
    // Logging out with the bearer would end the session the rest of the walk uses, were the body taken.
    const headers = (probe: { name: string }) =>
      probe.name.startsWith('POST /auth/logout') ? {} : bearer(tokens['admin']);
    expect(await unansweredNulProbes(t.app, probes, headers)).toEqual([]);
  });

  const cases = Object.entries(ROUTES).flatMap(([route, rule]) =>
    ['anonymous', ...USERS].map((who) => [route, who, rule] as const),
  );

  it.each(cases)('%s as %s (%s)', async (route, who, rule) => {
    const { method, path } = routeRequest(route, PARAMS);
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
    } else if (rule === 'authenticated' || granted[who].has(rule)) {
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
