import { Body, Injectable, Param, PipeTransform, Query } from '@nestjs/common';
import type { z } from 'zod';
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

/** `@Body()` validated by `schema`. */
export const ZodBody = (schema: z.ZodTypeAny): ParameterDecorator => Body(new ZodValidationPipe(schema));

/** `@Query()` validated by `schema` (values arrive as strings: use `z.coerce` for numbers). */
export const ZodQuery = (schema: z.ZodTypeAny): ParameterDecorator => Query(new ZodValidationPipe(schema));

/** `@Param()` validated by `schema` (values arrive as strings: use `z.coerce` for numbers). */
export const ZodParams = (schema: z.ZodTypeAny): ParameterDecorator => Param(new ZodValidationPipe(schema));
