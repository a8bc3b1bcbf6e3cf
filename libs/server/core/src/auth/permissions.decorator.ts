import { SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { IS_PUBLIC_KEY } from './public.decorator';

/** Metadata key: permission codes a route requires (all of them). */
export const REQUIRED_PERMISSIONS_KEY = 'voltdepot:requiredPermissions';
/** Metadata key: any signed-in user may call the route (own profile, favourites, dictionaries). */
export const IS_AUTHENTICATED_KEY = 'voltdepot:isAuthenticated';

/**
 * The caller must hold every listed permission code (resource codes granted through roles).
 * On a controller it applies to every handler; a handler's own decorator overrides it.
 */
export const RequirePermissions = (...codes: [string, ...string[]]): MethodDecorator & ClassDecorator =>
  SetMetadata(REQUIRED_PERMISSIONS_KEY, codes);

/** Any signed-in user, whatever their permissions. Explicit, so "forgot to guard" stays denied. */
export const Authenticated = (): MethodDecorator & ClassDecorator => SetMetadata(IS_AUTHENTICATED_KEY, true);

export type RouteAccessRule =
  | { kind: 'public' }
  | { kind: 'authenticated' }
  | { kind: 'permissions'; codes: readonly string[] }
  /** No rule at all: the guard denies it (deny by default). */
  | { kind: 'none' };

type Target = Parameters<Reflector['get']>[1];

/** The access rule of a handler; the handler's own metadata wins over its controller's. */
export function routeAccessRule(reflector: Reflector, handler: Target, controller: Target): RouteAccessRule {
  const targets = [handler, controller];
  // Nearest declaration wins: look at the handler first, then at the class.
  for (const target of targets) {
    if (reflector.get<boolean | undefined>(IS_PUBLIC_KEY, target) === true) return { kind: 'public' };
    const codes = reflector.get<string[] | undefined>(REQUIRED_PERMISSIONS_KEY, target);
    if (codes !== undefined && codes.length > 0) return { kind: 'permissions', codes };
    if (reflector.get<boolean | undefined>(IS_AUTHENTICATED_KEY, target) === true) {
      return { kind: 'authenticated' };
    }
  }
  return { kind: 'none' };
}
