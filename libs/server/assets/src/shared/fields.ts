import { intParam, pageParams, INT32_MAX } from '@voltdepot/server-core';
import { z } from 'zod';

/**
 * Field schemas with the messages of business-areas §5: a missing required value "cannot be empty",
 * text has a length hint ("1 to 32 characters"), codes name their allowed values. Body numbers must be
 * JSON numbers, not numeric strings.
 */

function typeErrors(label: string, expected: string): z.RawCreateParams {
  return {
    errorMap: (issue, ctx) => {
      if (issue.code === 'invalid_type') {
        const missing = issue.received === 'undefined' || issue.received === 'null';
        return { message: missing ? `${label} cannot be empty` : `${label} must be ${expected}` };
      }
      return { message: ctx.defaultError };
    },
  };
}

/** Required text, trimmed, `min` to `max` characters, optionally matching `pattern`: one message per field. */
export function requiredText(
  label: string,
  max: number,
  min = 1,
  pattern?: { regex: RegExp; message: string },
) {
  return z
    .string(typeErrors(label, 'text'))
    .trim()
    .superRefine((v, ctx) => {
      const fail = (message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, message });
      if (v.length === 0) fail(`${label} cannot be empty`);
      else if (v.length < min || v.length > max)
        fail(`${label} must be ${min === max ? max : `${min} to ${max}`} characters`);
      else if (pattern !== undefined && !pattern.regex.test(v)) fail(pattern.message);
    });
}

/** Optional text: absent, null or blank is stored as null. */
export function optionalText(label: string, max: number) {
  return z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    z
      .string({ invalid_type_error: `${label} must be text` })
      .trim()
      .max(max, `${label} must be 1 to ${max} characters`)
      .nullish()
      .transform((v) => v ?? null),
  );
}

/** Required whole number in [min, max]. */
export function requiredInt(label: string, min: number, max: number) {
  return z
    .number(typeErrors(label, 'a number'))
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be between ${min} and ${max}`)
    .max(max, `${label} must be between ${min} and ${max}`);
}

export function optionalInt(label: string, min: number, max: number) {
  return z
    .number({ invalid_type_error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be between ${min} and ${max}`)
    .max(max, `${label} must be between ${min} and ${max}`)
    .nullish()
    .transform((v) => v ?? null);
}

/** A required numeric code out of a fixed list (business-areas §4, §9). */
export function requiredCode<T extends number>(label: string, codes: readonly T[]) {
  return z
    .number(typeErrors(label, `one of ${codes.join(', ')}`))
    .refine((v): v is T => (codes as readonly number[]).includes(v), {
      message: `${label} must be one of ${codes.join(', ')}`,
    });
}

export function optionalCode<T extends number>(label: string, codes: readonly T[]) {
  return z
    .number({ invalid_type_error: `${label} must be one of ${codes.join(', ')}` })
    .refine((v): v is T => (codes as readonly number[]).includes(v), {
      message: `${label} must be one of ${codes.join(', ')}`,
    })
    .nullish()
    .transform((v) => v ?? null);
}

/** Blank text counts as missing. */
const blankAsMissing = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

export function requiredEnum<T extends string>(label: string, values: readonly [T, ...T[]]) {
  return z.preprocess(
    blankAsMissing,
    z.enum(values as [T, ...T[]], {
      errorMap: (issue) => {
        const missing =
          issue.code === 'invalid_type' && (issue.received === 'undefined' || issue.received === 'null');
        return {
          message: missing ? `${label} cannot be empty` : `${label} must be one of ${values.join(', ')}`,
        };
      },
    }),
  );
}

export function requiredBoolean(label: string) {
  return z.boolean(typeErrors(label, 'true or false'));
}

export function optionalBoolean(label: string, fallback: boolean) {
  return z.boolean({ invalid_type_error: `${label} must be true or false` }).default(fallback);
}

/** An id of another row, given in the body. */
export function requiredId(label: string) {
  return z
    .number(typeErrors(label, 'an id'))
    .int(`${label} must be an id`)
    .positive(`${label} must be an id`)
    .max(2_147_483_647, `${label} must be an id`);
}

export function optionalId(label: string) {
  return z
    .number({ invalid_type_error: `${label} must be an id` })
    .int(`${label} must be an id`)
    .positive(`${label} must be an id`)
    .max(2_147_483_647, `${label} must be an id`)
    .nullish()
    .transform((v) => v ?? null);
}

/** Time of day, HH:mm. */
export function requiredTime(label: string) {
  return z.preprocess(
    blankAsMissing,
    z
      .string(typeErrors(label, 'a time HH:mm'))
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, `${label} must be a time of day HH:mm`),
  );
}

export function requiredDecimal(label: string, min: number, max: number) {
  return z
    .number(typeErrors(label, 'a number'))
    .min(min, `${label} must be between ${min} and ${max}`)
    .max(max, `${label} must be between ${min} and ${max}`);
}

/** Optional number in [min, max] with at most `decimals` decimals (lengths in metres, coordinates). */
export function optionalDecimal(label: string, min: number, max: number, decimals = 2) {
  return z
    .number({ invalid_type_error: `${label} must be a number` })
    .min(min, `${label} must be between ${min} and ${max}`)
    .max(max, `${label} must be between ${min} and ${max}`)
    .refine((v) => Math.abs(v * 10 ** decimals - Math.round(v * 10 ** decimals)) < 1e-6, {
      message: `${label} may have at most ${decimals} decimals`,
    })
    .nullish()
    .transform((v) => v ?? null);
}

export function optionalEnum<T extends string>(label: string, values: readonly [T, ...T[]]) {
  return z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    z
      .enum(values as [T, ...T[]], {
        errorMap: () => ({ message: `${label} must be one of ${values.join(', ')}` }),
      })
      .nullish()
      .transform((v) => v ?? null),
  );
}

/** Time of day HH:mm where the end of the day may be written 24:00 (period ends). */
export function requiredEndTime(label: string) {
  return z.preprocess(
    blankAsMissing,
    z
      .string(typeErrors(label, 'a time HH:mm'))
      .regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, `${label} must be a time of day HH:mm`),
  );
}

/** ISO-8601 date-time or null. */
export function optionalDateTime(label: string) {
  return z
    .string({ invalid_type_error: `${label} must be a date-time` })
    .datetime({ offset: true, message: `${label} must be an ISO-8601 date-time` })
    .nullish()
    .transform((v) => v ?? null);
}

/** YYYY-MM-DD or null. */
export function optionalDate(label: string) {
  return z
    .string({ invalid_type_error: `${label} must be a date` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date YYYY-MM-DD`)
    .nullish()
    .transform((v) => v ?? null);
}

/** `/page/{page}/size/{size}` path parameters. */
export const pageParamsSchema = z.object(
  pageParams(500, { page: 'page starts at 1', size: 'size must be at most 500' }),
);
export type PageParams = z.infer<typeof pageParamsSchema>;

export const idParamsSchema = z.object({
  id: intParam(1, INT32_MAX),
});
export type IdParams = z.infer<typeof idParamsSchema>;
