import { Controller, Get, Module, Post, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { z } from 'zod';
import { ZodBody, ZodQuery } from '../errors/zod-validation.pipe';
import { isZodOptional, SchemaRegistry, zodToOpenApi } from './zod-openapi';

describe('zodToOpenApi', () => {
  it.each([
    ['string with length checks', z.string().min(6).max(20), { type: 'string', minLength: 6, maxLength: 20 }],
    ['email', z.string().email(), { type: 'string', format: 'email' }],
    ['pattern', z.string().regex(/^[A-Z]{2}\d+$/), { type: 'string', pattern: '^[A-Z]{2}\\d+$' }],
    ['integer fen', z.number().int().nonnegative(), { type: 'integer', minimum: 0 }],
    ['exclusive bound', z.number().positive(), { type: 'number', minimum: 0, exclusiveMinimum: true }],
    [
      'exclusive integer bounds',
      z.number().positive().int().lt(10),
      { type: 'integer', minimum: 1, maximum: 9 },
    ],
    ['coerced number', z.coerce.number().int().max(100), { type: 'integer', maximum: 100 }],
    ['boolean', z.boolean(), { type: 'boolean' }],
    ['enum', z.enum(['GE', 'LE']), { type: 'string', enum: ['GE', 'LE'] }],
    ['numeric literal', z.literal(3), { type: 'integer', enum: [3] }],
    ['nullable', z.string().nullable(), { type: 'string', nullable: true }],
    ['default', z.number().int().default(10), { type: 'integer', default: 10 }],
    [
      'array with bounds',
      z.array(z.number().int()).min(1).max(5),
      {
        type: 'array',
        items: { type: 'integer' },
        minItems: 1,
        maxItems: 5,
      },
    ],
    ['record', z.record(z.string()), { type: 'object', additionalProperties: { type: 'string' } }],
    [
      'passthrough object (other keys are kept)',
      z.object({ a: z.number().optional() }).passthrough(),
      { type: 'object', properties: { a: { type: 'number' } }, additionalProperties: {} },
    ],
    ['refined (documents the input)', z.string().refine((v) => v !== 'x'), { type: 'string' }],
    // zod accepts the first option that matches, so several may: anyOf, not oneOf.
    ['union', z.union([z.string(), z.number()]), { anyOf: [{ type: 'string' }, { type: 'number' }] }],
  ])('%s', (_, schema, expected) => {
    expect(zodToOpenApi(schema)).toEqual(expected);
  });

  it('numeric TypeScript enums keep their values, not their reverse mapping', () => {
    enum Status {
      Unpaid = 0,
      Paid = 1,
      Abnormal = 3,
    }
    expect(zodToOpenApi(z.nativeEnum(Status))).toEqual({ type: 'integer', enum: [0, 1, 3] });
  });

  it('objects list their required fields; optional and defaulted ones are not required', () => {
    const schema = z
      .object({
        name: z.string().min(1).describe('Station name'),
        code: z.string().optional(),
        status: z.number().int().default(0),
        tags: z.array(z.string()),
      })
      .strict();
    expect(zodToOpenApi(schema)).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, description: 'Station name' },
        code: { type: 'string' },
        status: { type: 'integer', default: 0 },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['name', 'tags'],
      additionalProperties: false,
    });
  });
});

describe('input and output modes', () => {
  it.each([
    ['optional', z.string().optional(), true, true],
    ['defaulted: the client may leave it out, the answer always has it', z.number().default(1), true, false],
    [
      'refined optional',
      z
        .string()
        .optional()
        .refine((v) => v !== 'x'),
      true,
      true,
    ],
    [
      'transformed optional: the output is unknown to zod',
      z.string().optional().transform(Number),
      true,
      false,
    ],
    ['nullable is not optional', z.string().nullable(), false, false],
    ['required', z.string(), false, false],
  ])('%s', (_, schema, input, output) => {
    expect([isZodOptional(schema, 'input'), isZodOptional(schema, 'output')]).toEqual([input, output]);
  });

  it('answers have no defaults; pipelines are described by their input or their output', () => {
    const schema = z.object({
      size: z.number().int().default(10),
      at: z.string().pipe(z.coerce.date()),
    });
    expect(zodToOpenApi(schema, 'output')).toEqual({
      type: 'object',
      properties: { size: { type: 'integer' }, at: { type: 'string', format: 'date-time' } },
      required: ['size', 'at'],
    });
    expect(zodToOpenApi(schema, 'input')).toEqual({
      type: 'object',
      properties: { size: { type: 'integer', default: 10 }, at: { type: 'string' } },
      required: ['at'],
    });
  });

  it('a recursive schema that is not named ends as "any value" instead of recursing forever', () => {
    type Node = { name: string; children: Node[] };
    const node: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string(), children: z.array(node) }));
    expect(zodToOpenApi(node)).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: {} } },
      required: ['name', 'children'],
    });
  });
});

describe('SchemaRegistry', () => {
  it('named schemas become references to components, defined once, also when recursive', () => {
    const registry = new SchemaRegistry();
    type Node = { name: string; children: Node[] };
    const node: z.ZodType<Node> = registry.named(
      'Node',
      z.lazy(() => z.object({ name: z.string(), children: z.array(node) }).strict()),
    );
    const page = z.object({ list: z.array(node), first: node.nullable().describe('The first node') });
    expect(registry.toSchema(page, 'output')).toEqual({
      type: 'object',
      properties: {
        list: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
        first: {
          allOf: [{ $ref: '#/components/schemas/Node' }],
          nullable: true,
          description: 'The first node',
        },
      },
      required: ['list', 'first'],
    });
    expect(registry.components).toEqual({
      Node: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
        },
        required: ['name', 'children'],
        additionalProperties: false,
      },
    });
  });

  it('lists only the components referenced so far, sorted by name', () => {
    const registry = new SchemaRegistry();
    const b = registry.named('B', z.object({ id: z.number() }));
    registry.named('Unused', z.string());
    const a = registry.named('A', z.object({ b }));
    expect(registry.toSchema(a, 'input')).toEqual({ $ref: '#/components/schemas/A' });
    expect(Object.keys(registry.components)).toEqual(['A', 'B']);
  });
});

describe('ZodBody and ZodQuery in the OpenAPI document', () => {
  const body = z.object({ username: z.string().min(1), password: z.string().min(6) });
  const query = z.object({ page: z.coerce.number().int().min(1), keyword: z.string().optional() });

  @Controller('things')
  class ThingsController {
    @Post()
    create(@ZodBody(body) dto: z.infer<typeof body>) {
      return dto;
    }

    @Get()
    list(@ZodQuery(query) dto: z.infer<typeof query>) {
      return dto;
    }
  }

  let app: INestApplication;
  beforeAll(async () => {
    @Module({ controllers: [ThingsController] })
    class ThingsModule {}
    app = await NestFactory.create(ThingsModule, { logger: false });
    await app.init();
  });
  afterAll(() => app.close());

  it('documents the validated body and query with the schemas the pipes enforce', () => {
    const document = SwaggerModule.createDocument(app, new DocumentBuilder().build());
    const post = document.paths['/things']?.post;
    expect(post?.requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              username: { type: 'string', minLength: 1 },
              password: { type: 'string', minLength: 6 },
            },
            required: ['username', 'password'],
          },
        },
      },
    });
    const parameters = document.paths['/things']?.get?.parameters as { name: string; required: boolean }[];
    expect(parameters.map(({ name, required }) => ({ name, required }))).toEqual(
      expect.arrayContaining([
        { name: 'page', required: true },
        { name: 'keyword', required: false },
      ]),
    );
  });
});
