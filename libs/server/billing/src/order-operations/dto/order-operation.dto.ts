import { z } from 'zod';
import { ORDER_OPERATION_ACTIONS, type OrderOperationRow } from '@voltdepot/shared-contracts';
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
