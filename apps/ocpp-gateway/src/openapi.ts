import type { INestApplication } from '@nestjs/common';
import { createOpenApiDocument, setupOpenApiDocs, type OpenApiDocumentOptions } from '@voltdepot/server-core';
import type { OpenAPIObject } from '@nestjs/swagger';

const GATEWAY_DOCUMENT: OpenApiDocumentOptions = {
  title: 'Voltdepot OCPP gateway',
  description:
    "Operators' commands to a pile (routed to the replica it is connected to), their journal and the pile's OCPP frames.",
  // The command API only (/health and /metrics are the platform's).
  includePath: (path) => path.startsWith('/api/'),
};

/** The gateway's document (the console's `ocpp-gateway.generated.ts` is generated from it). */
export function createGatewayOpenApiDocument(app: INestApplication): OpenAPIObject {
  return createOpenApiDocument(app, GATEWAY_DOCUMENT);
}

/** UI at /docs, JSON at /docs-json on the gateway's HTTP port (no token needed). Call before the app initialises. */
export function setupGatewayOpenApi(app: INestApplication): void {
  setupOpenApiDocs(app, { ...GATEWAY_DOCUMENT, path: 'docs', jsonPath: 'docs-json' });
}
