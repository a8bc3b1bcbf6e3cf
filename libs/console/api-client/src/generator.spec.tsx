import { describe, expect, expectTypeOf, it } from 'vitest';
import { answerOf, renderClient, TARGETS, untypedOperations, type OpenApiDocument } from '../tools/generate';
import type { ApiOperationTypes } from './generated';
import type { MsgOperationTypes } from './msg-center.generated';
import type { GatewayOperationTypes } from './ocpp-gateway.generated';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const json = (schema: object) => ({ content: { 'application/json': { schema } } });

/** A document with one operation per kind of answer. */
const document = (extra: OpenApiDocument['paths'] = {}): OpenApiDocument => ({
  paths: {
    '/things/{id}': {
      get: { operationId: 'get', responses: { '200': json({ $ref: '#/components/schemas/Thing' }) } },
      delete: { operationId: 'remove', responses: { '204': { description: 'Done' } } },
    },
    '/things/export': {
      get: {
        operationId: 'export',
        responses: { '200': { content: { [XLSX]: { schema: { type: 'string', format: 'binary' } } } } },
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
        responses: { '200': { content: { 'text/plain': { schema: { type: 'string' } } } } },
      },
    },
    ...extra,
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        properties: { id: { type: 'integer' } },
        required: ['id'],
        additionalProperties: false,
      },
    },
  },
});

describe('the generator types every answer', () => {
  it.each([
    [
      'JSON by its schema',
      { responses: { '200': json({ type: 'array', items: { type: 'string' } }) } },
      'json',
      'string[]',
    ],
    ['a file (binary, by its content type) as Blob', document().paths['/things/export'].get, 'file', 'Blob'],
    ['text as string', document().paths['/metrics'].get, 'text', 'string'],
    ['no content (204) as void', { responses: { '204': { description: 'Done' } } }, 'none', 'void'],
    ['no success answer: untyped', { responses: { '404': json({}) } }, 'untyped', 'unknown'],
    ['JSON saying "any value": untyped', { responses: { '200': json({}) } }, 'untyped', 'unknown'],
    [
      'JSON without a schema: untyped',
      { responses: { '200': { content: { 'application/json': {} } } } },
      'untyped',
      'unknown',
    ],
    ['a 200 without content: untyped', { responses: { '200': { description: 'OK' } } }, 'untyped', 'unknown'],
  ])('%s', (_name, operation, kind, type) => {
    expect(answerOf(operation!)).toEqual({ kind, type });
  });

  it('refuses a document with an untyped answer, naming the operation; file downloads pass', async () => {
    const good = document();
    expect(untypedOperations(good)).toEqual([]);
    const source = await renderClient(good, TARGETS.api);
    expect(source).toContain('response: Thing;');
    expect(source).toContain('response: Blob;');
    expect(source).toContain('response: void;');

    const bad = document({
      '/untyped': { post: { operationId: 'Things_untyped', responses: { '201': json({}) } } },
    });
    expect(untypedOperations(bad)).toEqual(['Things_untyped (POST /untyped)']);
    await expect(renderClient(bad, TARGETS.api)).rejects.toThrow(
      /untyped:\nThings_untyped \(POST \/untyped\)/,
    );
  });

  it('the committed clients type every answer (checked by tsc)', () => {
    // The operations whose answer is `unknown`: tsc fails here ("Expected 1 arguments") when any is.
    type Untyped<T extends Record<string, { response: unknown }>> = {
      [K in keyof T]: unknown extends T[K]['response'] ? K : never;
    }[keyof T];
    expectTypeOf<Untyped<ApiOperationTypes>>().toEqualTypeOf<never>();
    expectTypeOf<Untyped<MsgOperationTypes>>().toEqualTypeOf<never>();
    expectTypeOf<Untyped<GatewayOperationTypes>>().toEqualTypeOf<never>();
  });
});
