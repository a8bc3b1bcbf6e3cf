import { ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';

/** Metadata key read by the auth guard: routes and controllers carrying it need no credentials. */
export const IS_PUBLIC_KEY = 'voltdepot:isPublic';

/**
 * Marks a route handler or a whole controller as reachable without authentication.
 * The global auth guard denies everything else by default, so public must be explicit.
 */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC_KEY, true);

/** For guards: is the handler (or its controller) marked `@Public()`? */
export function isPublicRoute(reflector: Reflector, context: ExecutionContext): boolean {
  return (
    reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC_KEY, [
      context.getHandler(),
      context.getClass(),
    ]) === true
  );
}
