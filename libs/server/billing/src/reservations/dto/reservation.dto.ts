import { apiSchemas, gridPageOf, view } from '@voltdepot/server-core';
import { z } from 'zod';
import { type GridPage, RESERVATION_STATUSES, type ReservationStatusCode } from '@voltdepot/shared-contracts';
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

export const reservationViewSchema = apiSchemas.named(
  'ReservationRow',
  view({
    id: z.string(),
    reservationId: z.number().int(),
    chargePointId: z.string(),
    connectorId: z.number().int(),
    stationId: z.number().int().nullable(),
    stationName: z.string().nullable(),
    pileId: z.number().int(),
    pileName: z.string(),
    gunId: z.number().int().nullable(),
    gunName: z.string().nullable(),
    idTag: z.string(),
    cardholder: z.string().nullable(),
    reservedAt: z.string(),
    expiryDate: z.string(),
    status: z.enum(RESERVATION_STATUSES),
    endedAt: z.string().nullable(),
    transactionId: z.number().int().nullable(),
    chargingOrderNo: z.string().nullable(),
  }),
);
export type ReservationRow = z.infer<typeof reservationViewSchema>;
export const reservationPageSchema = gridPageOf('ReservationPage', reservationViewSchema);
