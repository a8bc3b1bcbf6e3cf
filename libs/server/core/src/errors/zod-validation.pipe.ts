import { Body, Injectable, Param, PipeTransform, Query } from '@nestjs/common';
import { ApiBody, ApiParam, ApiQuery } from '@nestjs/swagger';
import { z } from 'zod';
import { isZodOptional, zodToOpenApi } from '../http/zod-openapi';
import { ValidationException } from './validation.exception';

/**
 * Validates and converts a request part with a zod schema; failures become a 400 naming every field.
 *
 * ```ts
 * const createStationSchema = z.object({ name: z.string().min(1), maxPowerW: z.number().int().positive() });
 * type CreateStationDto = z.infer<typeof createStationSchema>;
 *
 * @Post('/api/stations')
 * create(@Body(new ZodValidationPipe(createStationSchema)) dto: CreateStationDto) { ... }
 * // or, shorter: create(@ZodBody(createStationSchema) dto: CreateStationDto)
 * ```
 */
@Injectable()
export class ZodValidationPipe<S extends z.ZodTypeAny> implements PipeTransform<unknown, z.output<S>> {
  constructor(private readonly schema: S) {}

  transform(value: unknown): z.output<S> {
    const result = this.schema.safeParse(value);
    if (!result.success) throw ValidationException.fromZod(result.error);
    return result.data;
  }
}

/** `@Body()` validated by `schema`, and documented in the OpenAPI description with the same schema. */
export const ZodBody =
  (schema: z.ZodTypeAny): ParameterDecorator =>
  (target, key, index) => {
    Body(new ZodValidationPipe(schema))(target, key, index);
    const method = methodOf(target, key);
    if (method) ApiBody({ schema: zodToOpenApi(schema) })(target, method.key, method.descriptor);
  };

/**
 * `@Query()` validated by `schema` (values arrive as strings: use `z.coerce` for numbers); each field
 * of an object schema is documented as a query parameter.
 */
export const ZodQuery =
  (schema: z.ZodTypeAny): ParameterDecorator =>
  (target, key, index) => {
    Query(new ZodValidationPipe(schema))(target, key, index);
    const method = methodOf(target, key);
    const shape = objectShape(schema);
    if (!method || !shape) return;
    for (const [name, field] of Object.entries(shape)) {
      ApiQuery({ name, required: !isZodOptional(field), schema: zodToOpenApi(field) })(
        target,
        method.key,
        method.descriptor,
      );
    }
  };

/**
 * `@Param()` validated by `schema` (values arrive as strings: use `z.coerce` or `intParam` for numbers);
 * each field of an object schema is documented as a path parameter.
 */
export const ZodParams =
  (schema: z.ZodTypeAny): ParameterDecorator =>
  (target, key, index) => {
    Param(new ZodValidationPipe(schema))(target, key, index);
    const method = methodOf(target, key);
    const shape = objectShape(schema);
    if (!method || !shape) return;
    for (const [name, field] of Object.entries(shape)) {
      ApiParam({ name, required: true, schema: zodToOpenApi(field) })(target, method.key, method.descriptor);
    }
  };

function methodOf(
  target: object,
  key: string | symbol | undefined,
): { key: string | symbol; descriptor: PropertyDescriptor } | undefined {
  if (key === undefined) return undefined; // a constructor parameter: nothing to document
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  return descriptor ? { key, descriptor } : undefined;
}

/** The fields of an object schema, also behind refinements and transforms. */
function objectShape(schema: z.ZodTypeAny): Record<string, z.ZodTypeAny> | undefined {
  if (schema instanceof z.ZodObject) return schema.shape as Record<string, z.ZodTypeAny>;
  if (schema instanceof z.ZodEffects) return objectShape(schema.innerType() as z.ZodTypeAny);
  if (schema instanceof z.ZodPipeline) return objectShape(schema._def.in as z.ZodTypeAny);
  return undefined;
}
