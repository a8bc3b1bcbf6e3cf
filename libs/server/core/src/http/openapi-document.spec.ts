import { Controller, Delete, Get, HttpCode, Module, Post, Res, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { z } from 'zod';
import { Authenticated, RequirePermissions } from '../auth/permissions.decorator';
import { Public } from '../auth/public.decorator';
import { ZodBody, ZodParams } from '../errors/zod-validation.pipe';
import { ApiDoc, CONTENT_TYPES } from './api-doc.decorator';
import { apiSchemas, view } from './api-schemas';
import { DocumentedResponseCheck } from './documented-response.check';
import type { HttpResponse } from './express-types';
import { createOpenApiDocument } from './openapi-document';

const thingSchema = apiSchemas.named('SpecThing', view({ id: z.number().int(), name: z.string() }));
const unusedSchema = apiSchemas.named('SpecUnused', view({ id: z.number() }));
const params = z.object({ id: z.coerce.number().int().positive() });
const body = z.object({ name: z.string().min(1) });

@RequirePermissions('thing:query')
@Controller('things')
class ThingsController {
  @ApiDoc({ summary: 'One thing', response: thingSchema, errors: [404] })
  @Get(':id')
  get(@ZodParams(params) p: { id: number }): { id: number; name: string } {
    return { id: p.id, name: p.id === 7 ? 'seven' : (p.id as unknown as string) };
  }

  @ApiDoc({ response: thingSchema })
  @RequirePermissions('thing:add')
  @Post()
  create(@ZodBody(body) dto: { name: string }): { id: number; name: string } {
    return { id: 1, name: dto.name };
  }

  @ApiDoc()
  @HttpCode(204)
  @Delete(':id')
  remove(@ZodParams(params) _p: { id: number }): void {}

  @ApiDoc({ produces: [CONTENT_TYPES.xlsx] })
  @Get('export/xlsx')
  export(@Res() res: HttpResponse): void {
    res.end('');
  }

  @ApiDoc({ response: z.array(thingSchema) })
  @Public()
  @Get('public/list')
  list(): { id: number; name: string }[] {
    return [];
  }

  @ApiDoc({ response: z.array(z.string()) })
  @Authenticated()
  @Get('mine/names')
  mine(): string[] {
    return [];
  }
}

@Controller('bad')
class UndocumentedController {
  @RequirePermissions('x')
  @Get()
  get(): string {
    return 'x';
  }

  @ApiDoc()
  @RequirePermissions('x')
  @Post()
  create(): void {}
}

// Compile-time checks of ApiDoc (typecheck fails when one of these is accepted).
export class TypedHandlers {
  // @ts-expect-error the handler answers something the schema does not describe
  @ApiDoc({ response: thingSchema })
  wrongType(): { id: string; name: string } {
    return { id: 'x', name: 'y' };
  }

  // @ts-expect-error a route documented without a body must not answer one
  @ApiDoc()
  answersSomething(): Promise<number> {
    return Promise.resolve(1);
  }

  @ApiDoc({ response: thingSchema })
  async fine(): Promise<{ id: number; name: string }> {
    return { id: 1, name: 'x' };
  }
}

async function appWith(...controllers: (new (...args: never[]) => object)[]): Promise<INestApplication> {
  @Module({ controllers })
  class SpecModule {}
  const app = await NestFactory.create(SpecModule, { logger: false });
  await app.init();
  return app;
}

describe('createOpenApiDocument', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await appWith(ThingsController);
  });
  afterAll(() => app.close());

  const document = () => createOpenApiDocument(app, { title: 'Spec', description: 'Things' });

  it('documents the answer, the status Nest sends, and errors from the pipes and the guard', () => {
    const paths = document().paths;
    const error = { content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } };
    expect(paths['/things/{id}'].get).toEqual(
      expect.objectContaining({
        summary: 'One thing',
        security: [{ bearer: [] }],
        parameters: [
          expect.objectContaining({ name: 'id', in: 'path', schema: { type: 'integer', minimum: 1 } }),
        ],
        responses: {
          200: {
            description: 'OK',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/SpecThing' } } },
          },
          400: expect.objectContaining(error),
          401: expect.objectContaining(error),
          403: expect.objectContaining(error),
          404: expect.objectContaining(error),
        },
      }),
    );
    expect(Object.keys(paths['/things'].post!.responses)).toEqual(['201', '400', '401', '403']);
    expect(Object.keys(paths['/things/{id}'].delete!.responses)).toEqual(['204', '400', '401', '403']);
    expect(Object.keys(paths['/things/public/list'].get!.responses)).toEqual(['200']);
    expect(paths['/things/public/list'].get!.security).toBeUndefined();
    expect(Object.keys(paths['/things/mine/names'].get!.responses)).toEqual(['200', '401']);
  });

  it('documents a file by its content type', () => {
    expect(document().paths['/things/export/xlsx'].get!.responses['200']).toEqual({
      description: 'The file',
      content: { [CONTENT_TYPES.xlsx]: { schema: { type: 'string', format: 'binary' } } },
    });
  });

  it('lists exactly the components its operations reference', () => {
    const schemas = document().components!.schemas!;
    expect(Object.keys(schemas)).toEqual(['ErrorBody', 'SpecThing']);
    expect(apiSchemas.toSchema(unusedSchema, 'output')).toEqual({ $ref: '#/components/schemas/SpecUnused' });
    expect(Object.keys(document().components!.schemas!)).not.toContain('SpecUnused');
  });

  it('refuses a route without ApiDoc, and an ApiDoc without a body on a route answering 200 or 201', async () => {
    const bad = await appWith(UndocumentedController);
    try {
      expect(() => createOpenApiDocument(bad, { title: 'Bad', description: '' })).toThrow(
        'GET /bad has no @ApiDoc\nPOST /bad answers 201 but documents no body (response or produces)',
      );
    } finally {
      await bad.close();
    }
  });

  it('refuses a second schema under a taken name', () => {
    expect(() => apiSchemas.named('SpecThing', view({ id: z.number() }))).toThrow(/already taken/);
  });
});

describe('DocumentedResponseCheck', () => {
  let app: INestApplication;
  let check: DocumentedResponseCheck;
  beforeAll(async () => {
    @Module({ controllers: [ThingsController] })
    class SpecModule {}
    app = await NestFactory.create(SpecModule, { logger: false });
    check = new DocumentedResponseCheck();
    app.useGlobalInterceptors(check);
    await app.init();
  });
  afterAll(() => app.close());

  it('records answers that differ from their documented schema, and leaves the answers alone', async () => {
    const get = (id: number) => app.get(ThingsController).get({ id });
    expect(get(7)).toEqual({ id: 7, name: 'seven' });
    const server = app.getHttpServer() as import('http').Server;
    await new Promise<void>((resolve) => server.listen(0, resolve));
    const port = (server.address() as import('net').AddressInfo).port;
    const ok = await fetch(`http://127.0.0.1:${port}/things/7`);
    expect(await ok.json()).toEqual({ id: 7, name: 'seven' });
    expect(check.violations).toEqual([]);
    expect(() => check.assertNone()).not.toThrow();

    const wrong = await fetch(`http://127.0.0.1:${port}/things/8`);
    expect(await wrong.json()).toEqual({ id: 8, name: 8 });
    expect(check.violations).toEqual(['GET /things/8: name: Expected string, received number']);
    expect(() => check.assertNone()).toThrow(/GET \/things\/8: name: Expected string/);
  });
});
