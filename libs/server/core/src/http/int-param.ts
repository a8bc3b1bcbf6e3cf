import { z } from 'zod';

/** Decimal digits, optionally signed and padded: what a path or query integer may look like. */
const DECIMAL_INTEGER = /^\s*[+-]?\d+\s*$/;

/**
 * An integer from a path, a query string or a JSON body, within [min, max]. Unlike `z.coerce.number()`,
 * only decimal digits convert: `0x10`, `1e3`, `''` or `true` are refused rather than read as 16, 1000, 0
 * or 1, and the bounds keep the value inside what the database columns and OFFSET arithmetic can take.
 */
export function intParam(
  min: number,
  max: number,
  messages: { min?: string; max?: string; type?: string } = {},
) {
  const type = messages.type ?? 'must be a whole number written in decimal digits';
  return z.preprocess(
    (value) => (typeof value === 'string' && DECIMAL_INTEGER.test(value) ? Number(value) : value),
    z.number({ invalid_type_error: type }).int(type).min(min, messages.min).max(max, messages.max),
  );
}

/** Largest value of a PostgreSQL `integer` (serial ids of most tables). */
export const INT32_MAX = 2_147_483_647;

/** `{page}/size/{size}` of a grid: page 1..100,000, size 1..maxSize. */
export function pageParams(maxSize: number, messages: { page?: string; size?: string } = {}) {
  return {
    page: intParam(1, 100_000, { min: messages.page }),
    size: intParam(1, maxSize, { max: messages.size }),
  };
}

const ID_MESSAGE = 'id must be a positive whole number';

/**
 * `page/{page}/size/{size}` of a grid, with the messages every area answers: page 1..100,000, size 1..500.
 */
export const gridPageParamsSchema = z.object({
  page: intParam(1, 100_000, {
    type: 'page must be a whole number',
    min: 'page starts at 1',
    max: 'page must be at most 100000',
  }),
  size: intParam(1, 500, {
    type: 'size must be a whole number',
    min: 'size must be at least 1',
    max: 'size must be at most 500',
  }),
});
export type GridPageParams = z.output<typeof gridPageParamsSchema>;

/** `/:id` of a row of a table with a serial (PostgreSQL integer) key. */
export const serialIdParamsSchema = z.object({
  id: intParam(1, INT32_MAX, { type: ID_MESSAGE, min: ID_MESSAGE, max: ID_MESSAGE }),
});
export type SerialIdParams = z.output<typeof serialIdParamsSchema>;
