import { apiSchemas, view } from '@voltdepot/server-core';
import { z } from 'zod';
import { blankToUndefined, payStatusFilter, queryId, queryText, withPeriod } from '../../shared/query-params';

/** Filters of the occupation fee order list; `start`/`end` bound the start of the occupation (the stop). */
export const occupationOrderQuerySchema = withPeriod({
  stationId: queryId,
  pileId: queryId,
  gunId: queryId,
  /** The occupation order number or its charging order's number, or part of either. */
  orderNo: queryText(40),
  payStatus: payStatusFilter,
  feeScope: z.preprocess(
    blankToUndefined,
    z
      .enum(['internal', 'external'], { errorMap: () => ({ message: 'must be internal or external' }) })
      .optional(),
  ),
});
export type OccupationOrderQuery = z.output<typeof occupationOrderQuerySchema>;

/** One occupation fee order as the API returns it: money in fen, instants ISO-8601. */
export type OccupationOrderView = OccupationOrderRow;

export const occupationOrderViewSchema = apiSchemas.named(
  'OccupationOrderRow',
  view({
    id: z.number().int(),
    orderNo: z.string(),
    chargingOrderNo: z.string(),
    chargingOrderId: z.number().int().nullable().describe('Null until the charging order is settled'),
    chargePointId: z.string(),
    connectorId: z.number().int(),
    transactionId: z.number().int(),
    stationId: z.number().int().nullable(),
    stationName: z.string().nullable(),
    pileId: z.number().int().nullable(),
    pileName: z.string().nullable(),
    gunId: z.number().int().nullable(),
    gunName: z.string().nullable(),
    idTag: z.string().nullable(),
    feeScope: z.enum(['internal', 'external']),
    occupiedFrom: z.string(),
    occupiedTo: z.string(),
    occupiedSeconds: z.number().int(),
    freeMinutes: z.number().int(),
    intervalMinutes: z.number().int(),
    unitPriceFen: z.number().int(),
    cappedAmountFen: z.number().int().describe('0: no cap'),
    billableIntervals: z.number().int(),
    amountFen: z.number().int(),
    payStatus: z.number().int(),
    createdAt: z.string(),
  }),
);
export type OccupationOrderRow = z.infer<typeof occupationOrderViewSchema>;

export const occupationOrderPageSchema = apiSchemas.named(
  'OccupationOrderPage',
  view({
    list: z.array(occupationOrderViewSchema),
    total: z.number().int(),
    totalAmountFen: z.number().int().describe('Sums every matching order, not only the page'),
  }),
);
export type OccupationOrderPage = z.infer<typeof occupationOrderPageSchema>;
