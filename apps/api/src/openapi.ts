import type { INestApplication } from '@nestjs/common';
import { setupOpenApiDocs } from '@voltdepot/server-core';

/**
 * OpenAPI for every route: UI at /api/docs, JSON at /api/docs-json (the console's client is generated
 * from it). Built on first request from the routes themselves: parameters, query and body from the zod
 * pipes that validate them, answers from each route's `ApiDoc`.
 */
export function setupOpenApi(app: INestApplication): void {
  setupOpenApiDocs(app, {
    path: 'api/docs',
    jsonPath: 'api/docs-json',
    title: 'Voltdepot API',
    description: 'Operations back office for electric-bus depot charging',
  });
}
