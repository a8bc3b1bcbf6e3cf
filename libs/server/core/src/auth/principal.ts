import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { HttpRequest } from '../http/express-types';

/** Who is calling: set on the request by the auth guard once the access token is verified. */
export type AuthPrincipal = {
  userId: number;
  username: string;
  /** The session (refresh-token family) the access token belongs to. */
  sessionId: string;
  /** Permission codes the caller holds (resource codes through roles). */
  permissions: ReadonlySet<string>;
};

export type RequestWithPrincipal = HttpRequest & { principal?: AuthPrincipal };

export function principalOf(req: HttpRequest): AuthPrincipal | undefined {
  return (req as RequestWithPrincipal).principal;
}

/** `@CurrentPrincipal() me: AuthPrincipal` in a handler guarded by `@Authenticated()` or `@RequirePermissions()`. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const principal = principalOf(context.switchToHttp().getRequest<HttpRequest>());
  if (principal === undefined)
    throw new Error('CurrentPrincipal used on a route without an authenticated caller');
  return principal;
});
