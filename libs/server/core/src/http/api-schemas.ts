import type { ErrorBody, HealthReport } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { SchemaRegistry } from './zod-openapi';

/**
 * The one registry of named response schemas of every service (api, msg-center, gateway): a schema
 * registered here becomes a component of the OpenAPI document that uses it (and a named type of the
 * console's generated client). A document lists only the components its operations reference, so one
 * process may serve several documents.
 */
export const apiSchemas = new SchemaRegistry();

/**
 * Checks at compile time that a schema describes exactly `T` (each is assignable to the other), for the
 * shapes a contract of @voltdepot/shared-contracts already names (STOMP pushes share them):
 * `exactly<HealthReport>()(z.object({ ... }))`.
 */
export function exactly<T>() {
  return <S extends z.ZodType<T, z.ZodTypeDef, unknown>>(
    schema: S &
      ([T] extends [z.output<S>] ? unknown : { missingFromSchema: Exclude<keyof T, keyof z.output<S>> }),
  ): S => schema;
}

/** A response object: every field it may carry is listed (the answers are checked strictly in tests). */
export function view<T extends z.ZodRawShape>(shape: T) {
  return z.object(shape).strict();
}

/** `{ list, total }` of a grid. */
export function gridPageOf<S extends z.ZodTypeAny>(name: string, item: S) {
  return apiSchemas.named(name, view({ list: z.array(item), total: z.number().int().min(0) }));
}

export const errorBodySchema = apiSchemas.named(
  'ErrorBody',
  exactly<ErrorBody>()(
    view({
      code: z.string().describe('Error code, e.g. VALIDATION_FAILED, FORBIDDEN, MSG_TEMPLATE_NOT_EDITABLE'),
      message: z.string(),
      details: z
        .unknown()
        .optional()
        .describe('Validation failures: [{ field, message }] naming every failing field'),
      correlationId: z.string(),
    }),
  ),
);

export const idResponseSchema = apiSchemas.named('IdResponse', view({ id: z.number().int().positive() }));

export const healthReportSchema = apiSchemas.named(
  'HealthReport',
  exactly<HealthReport>()(
    view({
      service: z.string(),
      status: z.enum(['ok', 'degraded', 'down']),
      version: z.string(),
      uptimeSeconds: z.number(),
      dependencies: z.array(
        view({
          name: z.string(),
          status: z.enum(['up', 'down']),
          latencyMs: z.number().optional(),
          error: z.string().optional(),
        }),
      ),
    }),
  ),
);
