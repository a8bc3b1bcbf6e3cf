import { RequestMethod, type INestApplication, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';

/** One route a Nest application serves: method, full path template and the handler behind it. */
export type ServedRoute = {
  /** `GET`, `POST`, ... */
  method: string;
  /** `/api/user/:id`: the full path template. */
  path: string;
  controller: Type<object>;
  /** The name of the handler on the controller's prototype (for parameter metadata). */
  handlerName: string;
  handler: (...args: unknown[]) => unknown;
};

/**
 * Every route registered in the Nest application (walking its controllers, as the router does). A handler
 * serving several paths (`@Get(['a', 'b'])`), or a controller mounted on several, gives a route for each.
 */
export function servedRoutes(app: INestApplication): ServedRoute[] {
  const routes: ServedRoute[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type<object> | null;
      if (controller === null) continue;
      const bases = [Reflect.getMetadata(PATH_METADATA, controller) ?? ''].flat() as string[];
      for (const handlerName of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[handlerName];
        if (typeof handler !== 'function' || handlerName === 'constructor') continue;
        const paths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (paths === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        for (const base of bases) {
          for (const path of [paths].flat()) {
            const full = `/${[base, path]
              .map((p) => p.replace(/^\/+|\/+$/g, ''))
              .filter(Boolean)
              .join('/')}`;
            routes.push({
              method,
              path: full,
              controller,
              handlerName,
              handler: handler as ServedRoute['handler'],
            });
          }
        }
      }
    }
  }
  return routes;
}
