import type { INestApplication } from '@nestjs/common';
import { setupOpenApiDocs } from '@voltdepot/server-core';

/** Where msg-center serves its OpenAPI document (under /ms, which the console's proxy sends to it). */
export const MSG_DOCS_PATH = 'ms/docs';
export const MSG_DOCS_JSON_PATH = 'ms/docs-json';

/**
 * UI at /ms/docs, JSON at /ms/docs-json (no token needed): every route under /ms with its parameters,
 * request body and answers, generated from the zod schemas that validate and describe them (`ApiDoc`,
 * msg-schemas.ts). The console's `msg-center.generated.ts` is generated from it. Call before the app
 * initialises.
 */
export function setupMsgOpenApi(app: INestApplication): void {
  setupOpenApiDocs(app, {
    path: MSG_DOCS_PATH,
    jsonPath: MSG_DOCS_JSON_PATH,
    title: 'Voltdepot message service',
    description:
      'Message configs, templates, groups, events, alerts, send logs and the inbox (base /ms/m1/msg); ' +
      'STOMP 1.2 push at /ms/ws.',
    // Only the message service's own routes (/health and /metrics are the platform's).
    includePath: (path) => path.startsWith('/ms/'),
  });
}
