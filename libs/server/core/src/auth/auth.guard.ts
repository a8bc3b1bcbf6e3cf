import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthErrorCodes } from '@voltdepot/shared-contracts';
import type { HttpRequest } from '../http/express-types';
import { AccessTokenClaims } from './access-token';
import { AuthException } from './auth.exception';
import { routeAccessRule } from './permissions.decorator';
import type { RequestWithPrincipal } from './principal';

/** Verifies an access token: signature, expiry and that its session is still alive. */
export interface AccessTokenVerifier {
  verify(token: string): Promise<AccessTokenClaims>;
}
export const ACCESS_TOKEN_VERIFIER = Symbol('ACCESS_TOKEN_VERIFIER');

/**
 * The permission codes of a user, or `null` when the user no longer exists or is disabled
 * (their tokens then count as revoked). Each service provides its own (api: the identity area).
 */
export interface PermissionLookup {
  permissionsOf(userId: number): Promise<ReadonlySet<string> | null>;
}
export const PERMISSION_LOOKUP = Symbol('PERMISSION_LOOKUP');

const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * The one auth guard of every HTTP service. Deny by default: a route passes only if it is
 * `@Public()`, `@Authenticated()` with a valid token, or `@RequirePermissions(...)` with a valid token
 * and every listed code. 401 for a missing/invalid/expired/revoked token, 403 for a missing permission
 * or a route without any access rule.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(ACCESS_TOKEN_VERIFIER) private readonly verifier: AccessTokenVerifier,
    @Inject(PERMISSION_LOOKUP) private readonly permissions: PermissionLookup,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return false;
    const rule = routeAccessRule(this.reflector, context.getHandler(), context.getClass());
    if (rule.kind === 'public') return true;

    const req = context.switchToHttp().getRequest<RequestWithPrincipal>();
    const token = bearerToken(req);
    if (token === undefined) throw new AuthException(AuthErrorCodes.TokenMissing, 'Authentication required');
    const claims = await this.verifier.verify(token);
    const permissions = await this.permissions.permissionsOf(claims.userId);
    if (permissions === null) {
      throw new AuthException(AuthErrorCodes.TokenRevoked, 'Session has been revoked');
    }
    req.principal = { ...claims, permissions };

    switch (rule.kind) {
      case 'authenticated':
        return true;
      case 'permissions': {
        const missing = rule.codes.filter((code) => !permissions.has(code));
        if (missing.length === 0) return true;
        throw new AuthException(
          AuthErrorCodes.PermissionDenied,
          `Missing permission: ${missing.join(', ')}`,
          {
            missing,
          },
        );
      }
      case 'none':
        throw new AuthException(
          AuthErrorCodes.PermissionDenied,
          'Access denied: the route declares no permission (denied by default)',
        );
    }
  }
}

function bearerToken(req: HttpRequest): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  return BEARER.exec(header.trim())?.[1];
}
