import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

/**
 * OpenAPI for every route: UI at /api/docs, JSON at /api/docs-json (the console's client is generated
 * from it). Built lazily on first request. Request bodies are zod-validated, so their schemas are not in
 * the document yet; paths, parameters, tags and the bearer scheme are.
 */
export function setupOpenApi(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Voltdepot API')
    .setDescription('Operations back office for electric-bus depot charging')
    .setVersion('1')
    .addBearerAuth()
    .build();
  SwaggerModule.setup('api/docs', app, () => SwaggerModule.createDocument(app, config), {
    jsonDocumentUrl: 'api/docs-json',
  });
}
