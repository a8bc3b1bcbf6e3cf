import { Controller, ExecutionContext, Get } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthErrorCodes } from '@voltdepot/shared-contracts';
import { AccessTokenClaims, signAccessToken, verifyAccessToken } from './access-token';
import { AuthException } from './auth.exception';
import { AuthGuard } from './auth.guard';
import { Authenticated, RequirePermissions, routeAccessRule } from './permissions.decorator';
import { Public } from './public.decorator';
import type { RequestWithPrincipal } from './principal';

@Controller()
class Routes {
  @Get() @Public() open(): void {}
  @Get() @Authenticated() signedIn(): void {}
  @Get() @RequirePermissions('sys:user:add') addUser(): void {}
  @Get() @RequirePermissions('a', 'b') both(): void {}
  @Get() forgotten(): void {}
}

@RequirePermissions('sys:role:query')
@Controller()
class GuardedController {
  @Get() list(): void {}
  @Get() @Public() peek(): void {}
}

const SECRET = 'unit-test-secret-0123456789abcdef0123';
const claims: AccessTokenClaims = { userId: 7, username: 'u7', sessionId: 's-1' };

function context(
  cls: new () => object,
  method: string,
  authorization?: string,
): [ExecutionContext, RequestWithPrincipal] {
  const req = { headers: authorization === undefined ? {} : { authorization } } as RequestWithPrincipal;
  const ctx = {
    getType: () => 'http',
    getHandler: () => (cls.prototype as Record<string, unknown>)[method],
    getClass: () => cls,
    switchToHttp: () => ({ getRequest: () => req }),
  } as unknown as ExecutionContext;
  return [ctx, req];
}

function guard(
  permissions: string[] | null,
  verify: (t: string) => Promise<AccessTokenClaims> = async () => claims,
) {
  return new AuthGuard(
    new Reflector(),
    { verify },
    { permissionsOf: async () => (permissions === null ? null : new Set(permissions)) },
  );
}

async function outcome(promise: Promise<boolean>): Promise<string> {
  try {
    return (await promise) ? 'allow' : 'deny';
  } catch (error) {
    return error instanceof AuthException ? `${error.httpStatus} ${error.code}` : `error ${String(error)}`;
  }
}

describe('AuthGuard (deny by default)', () => {
  it.each([
    ['public, no token', Routes, 'open', undefined, ['x'], 'allow'],
    ['authenticated, no token', Routes, 'signedIn', undefined, [], `401 ${AuthErrorCodes.TokenMissing}`],
    ['authenticated, basic auth', Routes, 'signedIn', 'Basic abc', [], `401 ${AuthErrorCodes.TokenMissing}`],
    ['authenticated, token', Routes, 'signedIn', 'Bearer t', [], 'allow'],
    ['permission held', Routes, 'addUser', 'Bearer t', ['sys:user:add'], 'allow'],
    ['permission missing', Routes, 'addUser', 'Bearer t', ['sys:user:query'], '403 FORBIDDEN'],
    ['one of two permissions', Routes, 'both', 'Bearer t', ['a'], '403 FORBIDDEN'],
    ['both permissions', Routes, 'both', 'Bearer t', ['a', 'b'], 'allow'],
    [
      'no rule, even with every permission',
      Routes,
      'forgotten',
      'Bearer t',
      ['sys:user:add', 'a', 'b'],
      '403 FORBIDDEN',
    ],
    ['no rule, no token', Routes, 'forgotten', undefined, [], `401 ${AuthErrorCodes.TokenMissing}`],
    ['controller-level permission held', GuardedController, 'list', 'Bearer t', ['sys:role:query'], 'allow'],
    ['controller-level permission missing', GuardedController, 'list', 'Bearer t', [], '403 FORBIDDEN'],
    ['handler @Public over controller permission', GuardedController, 'peek', undefined, [], 'allow'],
    ['user disabled or gone', Routes, 'signedIn', 'Bearer t', null, `401 ${AuthErrorCodes.TokenRevoked}`],
  ] as const)('%s -> %s', async (_case, cls, method, header, permissions, expected) => {
    const [ctx, req] = context(cls, method, header);
    expect(await outcome(guard(permissions === null ? null : [...permissions]).canActivate(ctx))).toBe(
      expected,
    );
    if (expected === 'allow' && header !== undefined) expect(req.principal).toMatchObject(claims);
  });

  it('passes verifier failures through (401 from the verifier)', async () => {
    const [ctx] = context(Routes, 'signedIn', 'Bearer t');
    const failing = guard([], async () => {
      throw new AuthException(AuthErrorCodes.TokenExpired, 'Access token has expired');
    });
    expect(await outcome(failing.canActivate(ctx))).toBe(`401 ${AuthErrorCodes.TokenExpired}`);
  });

  it('routeAccessRule reads the nearest declaration', () => {
    const reflector = new Reflector();
    expect(routeAccessRule(reflector, GuardedController.prototype.list, GuardedController)).toEqual({
      kind: 'permissions',
      codes: ['sys:role:query'],
    });
    expect(routeAccessRule(reflector, Routes.prototype.forgotten, Routes)).toEqual({ kind: 'none' });
  });
});

describe('access tokens', () => {
  it('round-trips the claims', async () => {
    const { token, expiresAt } = await signAccessToken(claims, SECRET, 60, 1_700_000_000_000);
    expect(expiresAt).toBe(1_700_000_060_000);
    await expect(verifyAccessToken(token, SECRET, 1_700_000_030_000)).resolves.toEqual({
      ...claims,
      expiresAt: 1_700_000_060_000,
    });
  });

  it.each([
    ['expired', SECRET, 1_700_000_061_000, AuthErrorCodes.TokenExpired],
    [
      'signed with another secret',
      'another-secret-0123456789abcdef01234',
      1_700_000_001_000,
      AuthErrorCodes.TokenInvalid,
    ],
  ])('%s -> %s', async (_case, secret, now, code) => {
    const { token } = await signAccessToken(claims, SECRET, 60, 1_700_000_000_000);
    await expect(verifyAccessToken(token, secret, now)).rejects.toMatchObject({ code, httpStatus: 401 });
  });

  it('refuses a short secret', async () => {
    await expect(signAccessToken(claims, 'short', 60)).rejects.toThrow('at least 32 characters');
  });
});
