import { z } from 'zod';
import { apiSchemas, gridPageOf, pageParams, view } from '@voltdepot/server-core';
import { pileParamsSchema } from '../../commands/dto/pile-command.dto';

/** The permission code (a button resource under "operation") that lets a user read a pile's OCPP frames. */
export const MESSAGE_LOG_QUERY_PERMISSION = 'ocpp:messageLog:query';

/** Longest time range one query may cover. */
export const MESSAGE_LOG_MAX_RANGE_MS = 7 * 24 * 3600_000;
/** The range when the query names neither end: the last hour. */
export const MESSAGE_LOG_DEFAULT_RANGE_MS = 3600_000;
/** Most frames in one page. */
export const MESSAGE_LOG_MAX_PAGE_SIZE = 500;

/** `{page}/size/{size}` of a pile's frames. */
export const messageLogPageParamsSchema = pileParamsSchema.extend({
  ...pageParams(MESSAGE_LOG_MAX_PAGE_SIZE, {
    size: `must be at most ${MESSAGE_LOG_MAX_PAGE_SIZE}`,
  }),
});
export type MessageLogPageParams = z.infer<typeof messageLogPageParamsSchema>;

const instant = z
  .string()
  .datetime({
    offset: true,
    message: 'must be an ISO 8601 date-time with a time zone, e.g. 2025-11-25T08:00:00Z',
  })
  .transform((value) => new Date(value));

/** The action names of OCPP 1.6 are letters only; anything else matches no frame. */
const ACTION_PATTERN = /^[A-Za-z]{1,64}$/;

/**
 * Filters of the message log query. `from`/`to` bound `logged_at` (from inclusive, to exclusive);
 * `to` defaults to now and `from` to one hour before `to` (or `to` to 7 days after `from` when only
 * `from` is given, capped at now). The range may not exceed 7 days.
 */
export const messageLogQuerySchema = z
  .object({
    from: instant.optional(),
    to: instant.optional(),
    direction: z.enum(['in', 'out'], { message: "must be 'in' or 'out'" }).optional(),
    action: z
      .string()
      .regex(ACTION_PATTERN, 'must be an OCPP action name (letters only, at most 64)')
      .optional(),
    messageId: z.string().min(1).max(100, 'must be at most 100 characters').optional(),
  })
  .strict()
  .transform((query, ctx) => {
    const now = Date.now();
    const to =
      query.to ??
      (query.from ? new Date(Math.min(now, query.from.getTime() + MESSAGE_LOG_MAX_RANGE_MS)) : new Date(now));
    const from = query.from ?? new Date(to.getTime() - MESSAGE_LOG_DEFAULT_RANGE_MS);
    if (from.getTime() >= to.getTime()) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['from'], message: 'must be before to' });
      return z.NEVER;
    }
    if (to.getTime() - from.getTime() > MESSAGE_LOG_MAX_RANGE_MS) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['from'],
        message: 'the range from..to may cover at most 7 days',
      });
      return z.NEVER;
    }
    return { ...query, from, to };
  });
export type MessageLogQuery = z.output<typeof messageLogQuerySchema>;

/** One frame as the pile sent it or the gateway answered, newest first in a page. */
export const messageLogFrameSchema = apiSchemas.named(
  'OcppFrame',
  view({
    id: z
      .string()
      .describe(
        'The row id (a bigint, as a string); with loggedAt it orders frames logged in the same instant',
      ),
    chargePointId: z.string(),
    direction: z.enum(['in', 'out']),
    messageType: z
      .number()
      .int()
      .nullable()
      .describe('2 CALL, 3 CALLRESULT, 4 CALLERROR; null for a frame that is not OCPP'),
    messageId: z.string().nullable(),
    action: z
      .string()
      .nullable()
      .describe("The CALL's action; an answer carries the action of the call it answers"),
    frame: z.string().describe('The frame exactly as it went over the wire'),
    loggedAt: z.string(),
  }),
);
export type MessageLogFrameDto = z.infer<typeof messageLogFrameSchema>;
export const messageLogPageSchema = gridPageOf('OcppFramePage', messageLogFrameSchema);
