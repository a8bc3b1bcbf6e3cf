import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiResponse } from '@nestjs/swagger';
import { zodToOpenApi } from '@voltdepot/server-core';
import type { z } from 'zod';
import { errorBodySchema, msgSchemas } from './msg-schemas';

export type MsgApiSpec = {
  summary: string;
  /**
   * The path parameters' schema (`{page}/size/{size}`, `{id}`). The query and the body are documented by
   * the zod pipes that validate them (ZodQuery, ZodBody of @voltdepot/server-core).
   */
  params?: z.AnyZodObject;
  /** The success answer. */
  response: z.ZodTypeAny;
  /** Default 200 (201 for POST routes that create). */
  status?: 200 | 201;
  /** Error answers besides 401 (every route) and 403 (routes that need a permission). */
  errors?: (400 | 404 | 409 | 422)[];
  /** Open to every signed-in user (no 403). */
  anyUser?: boolean;
};

const ERROR_TEXT: Record<number, string> = {
  400: 'Validation failed: every failing field is named in details',
  401: 'No, invalid, expired or revoked access token',
  403: 'The permission this route needs is missing',
  404: 'Not found',
  409: 'Conflict (name taken, in use, not editable)',
  422: 'Business rule refused',
};

/**
 * The OpenAPI description of a message service route, from the same zod schemas that validate it: path
 * parameters, the success answer and the error answers (`ErrorBody`).
 */
export function MsgApi(spec: MsgApiSpec): MethodDecorator {
  const decorators: MethodDecorator[] = [ApiOperation({ summary: spec.summary }), ApiBearerAuth()];
  for (const [name, schema] of Object.entries((spec.params?.shape ?? {}) as Record<string, z.ZodTypeAny>)) {
    decorators.push(ApiParam({ name, required: true, schema: zodToOpenApi(schema) }));
  }
  decorators.push(
    ApiResponse({
      status: spec.status ?? 200,
      description: 'OK',
      schema: msgSchemas.toSchema(spec.response, 'output'),
    }),
  );
  const error = msgSchemas.toSchema(errorBodySchema, 'output');
  for (const code of [...(spec.errors ?? []), 401, ...(spec.anyUser ? [] : [403])].sort()) {
    decorators.push(ApiResponse({ status: code, description: ERROR_TEXT[code], schema: error }));
  }
  return applyDecorators(...decorators);
}
