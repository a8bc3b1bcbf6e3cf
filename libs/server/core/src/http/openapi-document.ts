import type { INestApplication } from '@nestjs/common';
import { HTTP_CODE_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type {
  OperationObject,
  ResponsesObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { routeAccessRule } from '../auth/permissions.decorator';
import { ZodValidationPipe } from '../errors/zod-validation.pipe';
import { apiDocOf, type ApiDocSpec } from './api-doc.decorator';
import type { HttpResponse, NextFunction } from './express-types';
import { apiSchemas, errorBodySchema } from './api-schemas';
import { servedRoutes, type ServedRoute } from './routes';
import { API_DOCS_CSP, contentSecurityPolicy } from './security-headers';
import { zodToOpenApi, type OpenApiSchema } from './zod-openapi';

export type OpenApiDocumentOptions = {
  title: string;
  description: string;
  /** Only the paths this accepts (a service may leave out the platform's /health and /metrics). */
  includePath?: (path: string) => boolean;
};

const ERROR_TEXT: Record<number, string> = {
  400: 'Validation failed: every failing field is named in details',
  401: 'No, invalid, expired or revoked access token',
  403: 'The permission this route needs is missing',
  404: 'Not found',
  409: 'Conflict (name taken, in use, not editable)',
  413: 'Upload too large',
  422: 'Business rule refused',
  429: 'Too many requests: Retry-After says when to try again',
  502: 'The pile answered with an error',
  503: 'A dependency is unavailable',
  504: 'The pile did not answer in time',
};

/**
 * The OpenAPI document of a service: every route with its parameters, query and body (from the zod pipes
 * that validate them), its success answer (`ApiDoc`), its status (`@HttpCode` or Nest's default) and its
 * error answers (400 when a zod pipe validates the request, 401/403 from its guard rule, the rest from
 * `ApiDoc`). Named schemas of `apiSchemas` are the document's components (only those it references).
 * Throws when a route has no `ApiDoc`, or when its `ApiDoc` contradicts its status.
 */
export function createOpenApiDocument(app: INestApplication, options: OpenApiDocumentOptions): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(options.title)
    .setDescription(options.description)
    .setVersion('1')
    .addBearerAuth()
    .build();
  const document = SwaggerModule.createDocument(app, config);
  const include = options.includePath ?? (() => true);
  document.paths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => include(path)));

  const reflector = app.get(Reflector);
  const problems: string[] = [];
  for (const route of servedRoutes(app)) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const operation = (document.paths[path] as Record<string, OperationObject> | undefined)?.[
      route.method.toLowerCase()
    ];
    if (operation === undefined) continue;
    const spec = apiDocOf(route.handler);
    if (spec === undefined) {
      problems.push(`${route.method} ${route.path} has no @ApiDoc`);
      continue;
    }
    const problem = describeOperation(operation, route, spec, reflector);
    if (problem !== undefined) problems.push(`${route.method} ${route.path} ${problem}`);
  }
  if (problems.length > 0) throw new Error(`OpenAPI document of ${options.title}:\n${problems.join('\n')}`);

  // A route served at two paths gets `<id>[0]`, `<id>[1]`: the first keeps the plain id.
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as { operationId?: string }[]) {
      const m = /^(.*)\[(\d+)\]$/.exec(operation?.operationId ?? '');
      if (m) operation.operationId = m[2] === '0' ? m[1] : `${m[1]}_alias${m[2]}`;
    }
  }
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...referencedComponents(document.paths) },
  };
  return document;
}

/**
 * Serves the document (built on first request) as a UI at `path` and JSON at `jsonPath`, without a
 * token. Call before the app initialises.
 */
export function setupOpenApiDocs(
  app: INestApplication,
  options: OpenApiDocumentOptions & { path: string; jsonPath: string },
): void {
  // The UI page and its files: the services' policy (nothing loads) would leave the page blank.
  const docsPolicy = contentSecurityPolicy(API_DOCS_CSP);
  app.use(`/${options.path}`, (_req: unknown, res: HttpResponse, next: NextFunction) => {
    res.setHeader('Content-Security-Policy', docsPolicy);
    next();
  });
  let document: OpenAPIObject | undefined;
  SwaggerModule.setup(options.path, app, () => (document ??= createOpenApiDocument(app, options)), {
    jsonDocumentUrl: options.jsonPath,
  });
}

function describeOperation(
  operation: OperationObject,
  route: ServedRoute,
  spec: ApiDocSpec,
  reflector: Reflector,
): string | undefined {
  const declared = Reflect.getMetadata(HTTP_CODE_METADATA, route.handler) as number | undefined;
  const status = declared ?? (route.method === 'POST' ? 201 : 200);
  const responses: ResponsesObject = {};
  if (spec.response !== undefined) {
    if (status === 204) return 'answers 204 but documents a body';
    responses[status] = {
      description: 'OK',
      content: { 'application/json': { schema: apiSchemas.toSchema(spec.response, 'output') } },
    };
  } else if (spec.produces !== undefined) {
    responses[status] = {
      description: 'The file',
      content: Object.fromEntries(
        spec.produces.map((type) => [
          type,
          { schema: type.startsWith('text/') ? { type: 'string' } : { type: 'string', format: 'binary' } },
        ]),
      ),
    };
  } else {
    if (status !== 204) return `answers ${status} but documents no body (response or produces)`;
    responses[204] = { description: 'Done, no content' };
  }

  if (spec.body === 'file') {
    operation.requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } },
        },
      },
    };
  } else if (spec.body !== undefined) {
    operation.requestBody = {
      required: true,
      content: { 'application/json': { schema: zodToOpenApi(spec.body) } },
    };
  }

  const rule = routeAccessRule(reflector, route.handler, route.controller);
  const errors = new Set<number>(spec.errors ?? []);
  if (spec.body !== undefined && spec.body !== 'file') errors.add(400);
  if (validatesRequest(route)) errors.add(400);
  if (rule.kind !== 'public') errors.add(401);
  if (rule.kind === 'permissions' || rule.kind === 'none') errors.add(403);
  const error = apiSchemas.toSchema(errorBodySchema, 'output');
  for (const code of [...errors].sort()) {
    responses[code] = {
      description: ERROR_TEXT[code] ?? 'Error',
      content: { 'application/json': { schema: error } },
    };
  }
  operation.responses = responses;
  if (spec.summary !== undefined) operation.summary = spec.summary;
  if (rule.kind === 'public') delete operation.security;
  else operation.security = [{ bearer: [] }];
  return undefined;
}

/** Whether a zod pipe validates a part of the request (so a bad one answers 400). */
function validatesRequest({ controller, handlerName }: ServedRoute): boolean {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handlerName) ?? {}) as Record<
    string,
    { pipes?: unknown[] }
  >;
  return Object.values(args).some((arg) =>
    (arg.pipes ?? []).some((pipe) => pipe instanceof ZodValidationPipe),
  );
}

/** The components the paths reference, directly or through other components. */
function referencedComponents(paths: OpenAPIObject['paths']): Record<string, OpenApiSchema> {
  const all = apiSchemas.components;
  const used: Record<string, OpenApiSchema> = {};
  const pending = [...JSON.stringify(paths).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (used[name] !== undefined || all[name] === undefined) continue;
    used[name] = all[name];
    pending.push(
      ...[...JSON.stringify(all[name]).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]),
    );
  }
  return Object.fromEntries(Object.entries(used).sort(([a], [b]) => a.localeCompare(b)));
}
