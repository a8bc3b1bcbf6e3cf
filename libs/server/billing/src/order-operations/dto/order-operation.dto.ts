import { z } from 'zod';
import { apiSchemas, gridPageOf, view } from '@voltdepot/server-core';
import { ORDER_OPERATION_ACTIONS } from '@voltdepot/shared-contracts';
import { blankToUndefined, queryText, withPeriod } from '../../shared/query-params';

/** Filters of the order operation log; `start`/`end` bound when the operator acted. */
export const orderOperationQuerySchema = withPeriod({
  /** The order number, or part of it. */
  orderNo: queryText(40),
  /** The operator's user name, or part of it. */
  operator: queryText(64),
  action: z.preprocess(
    blankToUndefined,
    z
      .enum(ORDER_OPERATION_ACTIONS, {
        errorMap: () => ({ message: `must be one of ${ORDER_OPERATION_ACTIONS.join(', ')}` }),
      })
      .optional(),
  ),
});
export type OrderOperationQuery = z.output<typeof orderOperationQuerySchema>;

export type OrderOperationView = OrderOperationRow;

export const orderOperationViewSchema = apiSchemas.named(
  'OrderOperationRow',
  view({
    id: z.string().describe('Unique per action: <kind>:<source id>'),
    at: z.string(),
    action: z.enum(ORDER_OPERATION_ACTIONS),
    operator: z.string(),
    orderId: z.number().int(),
    orderNo: z.string(),
    stationName: z.string().nullable(),
    detail: z.string().nullable().describe('The reason the operator gave'),
    amountFen: z
      .number()
      .int()
      .nullable()
      .describe('The order total the action billed (approval) or left (amendment), fen'),
  }),
);
export type OrderOperationRow = z.infer<typeof orderOperationViewSchema>;
export const orderOperationPageSchema = gridPageOf('OrderOperationPage', orderOperationViewSchema);
