import { Get } from '@nestjs/common';
import {
  type AuthPrincipal,
  CurrentPrincipal,
  RequirePermissions,
  ZodParams,
  ZodQuery,
} from '@voltdepot/server-core';
import type { z } from 'zod';
import { gridPageParamsSchema, type GridPageParams } from './query-params';

/** The handler of a grid's page: the caller, `page/{page}/size/{size}` and the grid's filters. */
type GridPageHandler<Q, R> = (me: AuthPrincipal, p: GridPageParams, q: Q) => Promise<R>;

/**
 * `GET page/{page}/size/{size}` of a billing grid, `permission` required. The handler's three
 * parameters are bound in this order: the signed-in caller, the page and size (400 naming them when
 * out of range), and the query validated by `querySchema` (each of its fields documented as a query
 * parameter). The type checks that the handler takes them in that order.
 */
export function GridPageRoute<S extends z.ZodTypeAny>(permission: string, querySchema: S) {
  return <R>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<GridPageHandler<z.output<S>, R>>,
  ): void => {
    // The order in which the decorators written out on the handler would apply.
    ZodQuery(querySchema)(target, key, 2);
    ZodParams(gridPageParamsSchema)(target, key, 1);
    CurrentPrincipal()(target, key, 0);
    RequirePermissions(permission)(target, key, descriptor);
    Get('page/:page/size/:size')(target, key, descriptor);
  };
}
