import { Controller, Get, Module } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { z } from 'zod';
import { Public } from '../auth/public.decorator';
import { createServiceApp } from '../bootstrap/bootstrap-service';
import { ApiDoc } from './api-doc.decorator';
import { setupOpenApiDocs } from './openapi-document';
import { API_DOCS_CSP, contentSecurityPolicy, SERVICE_CSP } from './security-headers';

@Public()
@Controller('things')
class ThingsController {
  @ApiDoc({ response: z.array(z.string()) })
  @Get()
  list(): string[] {
    return ['one'];
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

/** The security headers of createServiceApp, and the OpenAPI page's own policy (Swagger UI must run). */
describe('security headers of a service app', () => {
  let app: NestExpressApplication;

  beforeAll(async () => {
    const config = { SERVICE_NAME: 'spec', LOG_LEVEL: 'silent' as const, PORT: 0 };
    app = (await createServiceApp(ThingsModule, { config })).app;
    setupOpenApiDocs(app, {
      title: 'Spec',
      description: 'Things',
      path: 'api/docs',
      jsonPath: 'api/docs-json',
    });
    await app.init();
  });

  afterAll(() => app?.close());

  it('JSON answers and the OpenAPI JSON get the policy that lets nothing load', async () => {
    for (const path of ['/things', '/api/docs-json', '/api/docs-jsonx']) {
      const res = await request(app.getHttpServer()).get(path);
      expect([path, res.headers['content-security-policy']]).toEqual([
        path,
        contentSecurityPolicy(SERVICE_CSP),
      ]);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('the OpenAPI page and its files get the policy Swagger UI runs under', async () => {
    const page = await request(app.getHttpServer()).get('/api/docs').redirects(1).expect(200);
    expect(page.text).toContain('swagger-ui-bundle.js');
    const script = await request(app.getHttpServer()).get('/api/docs/swagger-ui-init.js').expect(200);
    for (const res of [page, script]) {
      expect(res.headers['content-security-policy']).toBe(contentSecurityPolicy(API_DOCS_CSP));
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });
});
