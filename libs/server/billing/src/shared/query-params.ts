import { INT32_MAX, intParam } from '@voltdepot/server-core';
import { z } from 'zod';
import { instantOf } from '../pricing/business-time';

/**
 * The request parameters every billing grid shares (page and size, ids, filters given as query text),
 * with one set of messages.
 */

/** The business time zone: a date-time given without an offset is wall-clock time there. */
export const BUSINESS_TIME_ZONE = 'Asia/Shanghai';

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** `2026-11-21 00:00:00` (business time zone) or an ISO-8601 instant with an offset. */
export function parseQueryInstant(text: string, timeZone = BUSINESS_TIME_ZONE): Date | undefined {
  const wall = WALL_CLOCK.exec(text);
  if (wall) {
    const [, y, mo, d, h, mi, s] = wall.map(Number);
    // Not Date.UTC, which reads years 0-99 as 1900-1999. It rolls 2026-02-30 over into March: a day
    // that does not exist is refused.
    const utc = new Date(0);
    utc.setUTCFullYear(y, mo - 1, d);
    if (utc.getUTCMonth() !== mo - 1 || utc.getUTCDate() !== d || h > 23 || mi > 59 || (s || 0) > 59)
      return undefined;
    const day = Math.floor(utc.getTime() / 86_400_000);
    return new Date(instantOf(day, h * 60 + mi, timeZone) + (s || 0) * 1000);
  }
  if (!/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/.test(text)) return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Query text that is empty or only blanks counts as absent. */
export const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** An optional date-time filter, parsed by `parseQueryInstant`. */
export const queryInstant = z.preprocess(
  blankToUndefined,
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const date = parseQueryInstant(value.trim());
      if (!date) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: 'must be a date-time YYYY-MM-DD HH:mm:ss or an ISO-8601 instant with an offset',
        });
        return z.NEVER;
      }
      return date;
    }),
);

/** An optional id filter (the ids of stations, piles and guns are PostgreSQL `integer`s). */
export const queryId = z.preprocess(
  blankToUndefined,
  z
    .string()
    .trim()
    .regex(/^\d{1,10}$/, 'must be a positive whole number')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 2_147_483_647, 'must be a positive whole number')
    .optional(),
);

/** Optional free text (matched as a part), at most `max` characters, without NUL (PostgreSQL refuses it). */
export const queryText = (max: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .max(max, `must be at most ${max} characters`)
      .refine((v) => !v.includes('\u0000'), 'must not contain a NUL character')
      .optional(),
  );

export const payStatusFilter = z.preprocess(
  blankToUndefined,
  z
    .enum(['0', '1', '3'], { errorMap: () => ({ message: 'must be 0 (unpaid), 1 (paid) or 3 (abnormal)' }) })
    .transform(Number)
    .optional(),
);

/** A filter with a `start`/`end` period: the end may not come before the start. */
export function withPeriod<T extends z.ZodRawShape>(shape: T) {
  return z.object({ start: queryInstant, end: queryInstant, ...shape }).superRefine((q, ctx) => {
    const { start, end } = q as { start?: Date; end?: Date };
    if (start && end && end < start)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['end'], message: 'must not be before start' });
  });
}

/** `page/{page}/size/{size}` of a grid: the platform's one schema (server-core). */
export { gridPageParamsSchema, type GridPageParams } from '@voltdepot/server-core';

/** `/:id` of a row; `max` is the largest id the table's key type holds. */
function idParams(max: number) {
  const message = 'id must be a positive whole number';
  return z.object({ id: intParam(1, max, { type: message, min: message, max: message }) });
}
/** The id of a row keyed by `bigserial` (orders). */
export const idParamsSchema = idParams(Number.MAX_SAFE_INTEGER);
/** The id of a row keyed by `serial` (price and discount plans). */
export const serialIdParamsSchema = idParams(INT32_MAX);
export type IdParams = z.output<typeof idParamsSchema>;

/** `lang` of an export: the language of its headers and labels. */
export const exportLanguageSchema = z.object({
  lang: z.preprocess(
    blankToUndefined,
    z.enum(['zh-CN', 'en-US'], { errorMap: () => ({ message: 'must be zh-CN or en-US' }) }).default('zh-CN'),
  ),
});
export type ExportLanguage = z.output<typeof exportLanguageSchema>['lang'];

/** LIKE pattern matching `text` anywhere, with LIKE's own wildcards taken literally. */
export function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
