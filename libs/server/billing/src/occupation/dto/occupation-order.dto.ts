import { z } from 'zod';
import type {
  OccupationOrderPage as OccupationOrderPageContract,
  OccupationOrderRow,
} from '@voltdepot/shared-contracts';
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

/** A page of the list; `totalAmountFen` sums every matching order, not only the page. */
export type OccupationOrderPage = OccupationOrderPageContract;
