import { intParam, pageParams } from '@voltdepot/server-core';
import { z } from 'zod';

/** `/page/{page}/size/{size}` path parameters. */
export const pageParamsSchema = z.object(pageParams(500));
export type PageParams = z.infer<typeof pageParamsSchema>;

export const idSchema = intParam(1, Number.MAX_SAFE_INTEGER);
export const idParamsSchema = z.object({ id: idSchema });
export type IdParams = z.infer<typeof idParamsSchema>;

/** An id inside a JSON body: a number, not a numeric string. */
export const bodyId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const codeSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_:.-]+$/, 'Only letters, digits and _ : . - are allowed');
export const nameSchema = z.string().trim().min(1).max(64);
export const passwordSchema = z.string().min(6, 'Password must have at least 6 characters').max(128);
export const usernameSchema = z
  .string()
  .trim()
  .min(3)
  .max(32)
  .regex(/^[A-Za-z0-9_.@-]+$/, 'Only letters, digits and _ . @ - are allowed');

/** Query strings: '' counts as absent. */
export const optionalQueryText = z
  .string()
  .max(64)
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
export const optionalQueryBoolean = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => (v === undefined || v === '' ? undefined : v === 'true' || v === '1'));
export const optionalQueryDate = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === '') return undefined;
    const date = new Date(v.includes('T') || !v.includes(' ') ? v : v.replace(' ', 'T'));
    if (Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'Expected a date-time (YYYY-MM-DD HH:mm:ss)' });
      return z.NEVER;
    }
    return date;
  });
