import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  apiOperations,
  apiPath,
  type ApiBody,
  type ApiQuery,
  type ApiResponse,
  type StationPage,
  type UserView,
} from './generated';

describe('generated api client', () => {
  it('fills path parameters in, percent-encoded', () => {
    expect(apiPath('LogsController_operations', { page: 1, size: 10 })).toBe(
      '/api/operationLog/page/1/size/10',
    );
    expect(apiPath('AuthController_getCaptcha')).toBe('/auth/captcha');
  });

  it('refuses a missing path parameter', () => {
    expect(() => apiPath('LogsController_operations', { page: 1 } as never)).toThrow(/size is missing/);
  });

  it('serves the paths of the spec exactly as written', () => {
    const paths = Object.values(apiOperations).map((operation) => `${operation.method} ${operation.path}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        'GET /public/noAuth/getPlatformModuleConfigList',
        'GET /authority/users/currentuser/info',
        'GET /authority/users/currentuser/menus',
        'GET /user/getUserExt',
        'PUT /user/password',
        'POST /auth/refresh',
        'GET /api/operationLog/export',
      ]),
    );
  });

  it('types the query and body of an operation from the api document (checked by tsc)', () => {
    const query: ApiQuery<'LogsController_operations'> = { method: 'POST', success: 'true', path: '/api' };
    // @ts-expect-error the operation log records no GET
    const refused: ApiQuery<'LogsController_operations'> = { method: 'GET' };
    const body: ApiBody<'AuthController_login'> = {
      username: 'admin',
      password: 'x',
      captchaId: 'c',
      captchaCode: 'x7Kp',
    };
    expect([query.method, refused.method, body.username]).toEqual(['POST', 'GET', 'admin']);
  });

  it('types the answer of every operation from the api document (checked by tsc)', () => {
    expectTypeOf<ApiResponse<'UsersController_get'>>().toEqualTypeOf<UserView>();
    expectTypeOf<ApiResponse<'StationController_page'>>().toEqualTypeOf<StationPage>();
    expectTypeOf<ApiResponse<'StationController_page'>['list'][number]['labelIds']>().toEqualTypeOf<
      number[]
    >();
    expectTypeOf<ApiResponse<'UsersSpreadsheetController_export'>>().toEqualTypeOf<Blob>();
    expectTypeOf<ApiResponse<'UsersController_remove'>>().toEqualTypeOf<void>();
    expectTypeOf<ApiResponse<'MetricsController_get'>>().toEqualTypeOf<string>();
  });
});
