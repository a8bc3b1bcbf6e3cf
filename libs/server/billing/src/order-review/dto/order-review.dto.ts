import { z } from 'zod';
import { apiSchemas, view } from '@voltdepot/server-core';
import { payStatusSchema } from '../../orders-query/dto/order-query.dto';
import { blankToUndefined } from '../../shared/query-params';

/** A reviewer's or an amending operator's reason (recorded with the decision or the version). */
const reason = z
  .string({ required_error: 'Please enter the reason', invalid_type_error: 'Please enter the reason' })
  .trim()
  .min(1, 'Please enter the reason')
  .max(200, 'must be at most 200 characters')
  .refine((v) => !v.includes('\u0000'), 'must not contain a NUL character');

export const reviewOrderSchema = z.object({
  decision: z.enum(['approve', 'reject'], {
    errorMap: () => ({ message: 'must be approve or reject' }),
  }),
  reason,
});
export type ReviewOrderDto = z.output<typeof reviewOrderSchema>;

/** Register readings are PostgreSQL `bigint`s; anything a meter can show fits far below this. */
const MAX_METER_WH = Number.MAX_SAFE_INTEGER;

const wattHours = (label: string) =>
  z
    .number({ invalid_type_error: `${label} must be a whole number of Wh` })
    .int(`${label} must be a whole number of Wh`)
    .min(0, 'must not be negative')
    .max(MAX_METER_WH, 'is too large');

/** The new meter stop, or the new energy (the meter stop is then the meter start plus it): exactly one. */
const correction = {
  meterStopWh: wattHours('meterStopWh').optional(),
  energyWh: wattHours('energyWh').optional(),
};

function exactlyOneCorrection(dto: { meterStopWh?: number; energyWh?: number }, ctx: z.RefinementCtx): void {
  if ((dto.meterStopWh === undefined) === (dto.energyWh === undefined))
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ['meterStopWh'],
      message: 'give either meterStopWh or energyWh',
    });
}

/**
 * Amend an order (a new version). `requestId` is the request's idempotency key, chosen by the client once
 * per intended change (the console: once per opened form): a retry with the same key answers the version
 * it made instead of making another.
 */
export const amendOrderSchema = z
  .object({
    ...correction,
    reason,
    requestId: z
      .string({ required_error: 'Please give the request id' })
      .trim()
      .regex(/^[A-Za-z0-9._:-]{8,100}$/, 'must be 8-100 letters, digits or . _ : -'),
  })
  .superRefine(exactlyOneCorrection);
export type AmendOrderDto = z.output<typeof amendOrderSchema>;

/** A whole number of Wh given as query text. */
const queryWattHours = z.preprocess(
  blankToUndefined,
  z
    .string()
    .trim()
    .regex(/^\d{1,15}$/, 'must be a whole number of Wh')
    .transform(Number)
    .optional(),
);

/** The correction to preview, as query parameters. */
export const amendPreviewQuerySchema = z
  .object({ meterStopWh: queryWattHours, energyWh: queryWattHours })
  .superRefine(exactlyOneCorrection);
export type AmendPreviewQuery = z.output<typeof amendPreviewQuerySchema>;

// Answers: money in integer fen, energy in integer Wh.

const fen = z.number().int();
const wh = z.number().int();

export const orderFiguresSchema = apiSchemas.named(
  'OrderFigures',
  view({
    meterStopWh: wh,
    energyWh: wh,
    electricityFen: fen,
    serviceFen: fen,
    totalFen: fen,
    payStatus: payStatusSchema,
  }),
);

export const amendmentPreviewSchema = apiSchemas.named(
  'OrderAmendmentPreview',
  view({
    version: z.number().int().describe('The version the amendment would make'),
    current: orderFiguresSchema,
    amended: orderFiguresSchema,
    difference: view({
      meterStopWh: wh,
      energyWh: wh,
      electricityFen: fen,
      serviceFen: fen,
      totalFen: fen,
    }).describe('amended minus current'),
  }),
);
export type AmendmentPreview = z.infer<typeof amendmentPreviewSchema>;
