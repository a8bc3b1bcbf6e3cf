import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { msgSchemas } from './msg-schemas';

/** Where msg-center serves its OpenAPI document (under /ms, which the console's proxy sends to it). */
export const MSG_DOCS_PATH = 'ms/docs';
export const MSG_DOCS_JSON_PATH = 'ms/docs-json';

/**
 * The message service's document: every route under /ms with its parameters, request body and answers,
 * generated from the zod schemas that validate them (see MsgApi). The console's `msg-center.generated.ts`
 * is generated from it.
 */
export function createMsgOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Voltdepot message service')
    .setDescription(
      'Message configs, templates, groups, events, alerts, send logs and the inbox (base /ms/m1/msg); ' +
        'STOMP 1.2 push at /ms/ws.',
    )
    .setVersion('1')
    .addBearerAuth()
    .build();
  const document = SwaggerModule.createDocument(app, config);
  // Only the message service's own routes (/health and /metrics are the platform's).
  document.paths = Object.fromEntries(
    Object.entries(document.paths).filter(([path]) => path.startsWith('/ms/')),
  );
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...msgSchemas.components },
  };
  // A route served at two paths gets `<id>[0]`, `<id>[1]`: the first (the spec's path) keeps the plain id.
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as { operationId?: string }[]) {
      const m = /^(.*)\[(\d+)\]$/.exec(operation?.operationId ?? '');
      if (m) operation.operationId = m[2] === '0' ? m[1] : `${m[1]}_alias${m[2]}`;
    }
  }
  return document;
}

/** UI at /ms/docs, JSON at /ms/docs-json (no token needed). Call before the app initialises. */
export function setupMsgOpenApi(app: INestApplication): void {
  let document: OpenAPIObject | undefined;
  SwaggerModule.setup(MSG_DOCS_PATH, app, () => (document ??= createMsgOpenApiDocument(app)), {
    jsonDocumentUrl: MSG_DOCS_JSON_PATH,
  });
}
