import { z } from 'zod';
import { ORDER_STATUS_CODES } from '@voltdepot/shared-contracts';
import {
  blankToUndefined,
  exportLanguageSchema,
  payStatusFilter,
  queryId,
  queryText,
  withPeriod,
} from '../../shared/query-params';

/** Filters of the order query; `start`/`end` bound the stop time (both inclusive). */
export const orderQuerySchema = withPeriod({
  stationId: queryId,
  pileId: queryId,
  gunId: queryId,
  /** Plate or VIN, or part of it. */
  vehicle: queryText(32),
  /** Card physical number (the OCPP idTag) or self number, or part of it. */
  card: queryText(32),
  orderNo: queryText(40),
  payStatus: payStatusFilter,
  orderStatus: z.preprocess(
    blankToUndefined,
    z
      .enum(ORDER_STATUS_CODES, {
        errorMap: () => ({ message: `must be one of ${ORDER_STATUS_CODES.join(', ')}` }),
      })
      .optional(),
  ),
  /** Only orders held for review at settlement (the abnormal-order screen). */
  held: z.preprocess(
    blankToUndefined,
    z
      .enum(['true', 'false'], { errorMap: () => ({ message: 'must be true or false' }) })
      .transform((v) => v === 'true')
      .optional(),
  ),
  reviewStatus: z.preprocess(
    blankToUndefined,
    z
      .enum(['pending', 'audited', 'rejected'], {
        errorMap: () => ({ message: 'must be pending, audited or rejected' }),
      })
      .optional(),
  ),
});
export type OrderQuery = z.output<typeof orderQuerySchema>;

export const orderExportSchema = orderQuerySchema.and(exportLanguageSchema);

export const reviewOrderSchema = z.object({
  decision: z.enum(['approve', 'reject'], {
    errorMap: () => ({ message: 'must be approve or reject' }),
  }),
  reason: z
    .string({ required_error: 'Please enter the reason', invalid_type_error: 'Please enter the reason' })
    .trim()
    .min(1, 'Please enter the reason')
    .max(200, 'must be at most 200 characters'),
});
export type ReviewOrderDto = z.output<typeof reviewOrderSchema>;
