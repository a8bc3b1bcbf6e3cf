import { z } from 'zod';
import {
  type GridPage,
  RESERVATION_STATUSES,
  type ReservationRow,
  type ReservationStatusCode,
} from '@voltdepot/shared-contracts';
import { blankToUndefined, queryId, queryText, withPeriod } from '../../shared/query-params';

export type ReservationStatus = ReservationStatusCode;

/** Filters of the reservation list; `start`/`end` bound when the reservation was made. */
export const reservationQuerySchema = withPeriod({
  stationId: queryId,
  pileId: queryId,
  gunId: queryId,
  /** Card (OCPP idTag), or part of it. */
  idTag: queryText(20),
  status: z.preprocess(
    blankToUndefined,
    z
      .enum(RESERVATION_STATUSES, {
        errorMap: () => ({ message: `must be one of ${RESERVATION_STATUSES.join(', ')}` }),
      })
      .optional(),
  ),
});
export type ReservationQuery = z.output<typeof reservationQuerySchema>;

/** A reservation a pile accepted (ReserveNow answered Accepted), with what became of it. */
export type ReservationView = ReservationRow;

export type ReservationPage = GridPage<ReservationRow>;
