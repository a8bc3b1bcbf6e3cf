import type { DataSource } from 'typeorm';
import { keysetRows } from '../shared/keyset';
import type { BillingDataScope } from '../shared/data-scope';
import { containing } from '../shared/query-params';
import { isoOrNull, numOrNull, scopedWhere, textOrNull } from '../shared/sql-rows';
import type { ReservationQuery, ReservationStatus, ReservationView } from './dto/reservation.dto';

/**
 * Reservations as the gateway journals them: a ReserveNow the pile answered Accepted. It is completed
 * when a session started on that pile with its reservation id (the settlement's record of starts)
 * between the reservation and its expiry, cancelled when a CancelReservation for it was accepted, timed
 * out once the expiry passed, and successful (waiting) until then.
 */
const RESERVATIONS = `
  WITH r AS (
    SELECT c.id, c.charge_point_id, c.params->>'reservationId' AS reservation_id,
           (c.params->>'connectorId')::int AS connector_id, c.params->>'idTag' AS id_tag,
           (c.params->>'expiryDate')::timestamptz AS expiry_date, c.requested_at AS reserved_at,
           p.id AS pile_id, p.name AS pile_name, s.id AS station_id, s.name AS station_name,
           g.id AS gun_id, g.name AS gun_name, card.cardholder,
           COALESCE(s.organization_id, p.organization_id) AS organization_id,
           used.transaction_id, used.started_at, o.order_no AS charging_order_no, cancel.cancelled_at
      FROM gateway_pile_command_v c
      JOIN assets_pile_v p ON p.charge_point_id = c.charge_point_id
      LEFT JOIN assets_station_v s ON s.id = p.station_id
      LEFT JOIN assets_gun_v g ON g.pile_id = p.id AND g.channel_number = (c.params->>'connectorId')::int
      LEFT JOIN assets_card_v card ON card.physical_number = c.params->>'idTag'
      LEFT JOIN LATERAL (
        SELECT b.transaction_id, b.started_at FROM billing_session b
         WHERE b.charge_point_id = c.charge_point_id AND b.reservation_id::text = c.params->>'reservationId'
           AND b.started_at >= c.requested_at - interval '10 minutes'
           AND b.started_at <= (c.params->>'expiryDate')::timestamptz + interval '10 minutes'
         ORDER BY b.started_at LIMIT 1) used ON true
      LEFT JOIN charging_order o
        ON o.charge_point_id = c.charge_point_id AND o.transaction_id = used.transaction_id
      LEFT JOIN LATERAL (
        SELECT x.completed_at AS cancelled_at FROM gateway_pile_command_v x
         WHERE x.action = 'CancelReservation' AND x.charge_point_id = c.charge_point_id
           AND x.params->>'reservationId' = c.params->>'reservationId' AND x.requested_at >= c.requested_at
           AND x.status = 'completed' AND x.response->>'status' = 'Accepted'
         ORDER BY x.requested_at LIMIT 1) cancel ON true
     WHERE c.action = 'ReserveNow' AND c.status = 'completed' AND c.response->>'status' = 'Accepted'),
  v AS (
    SELECT r.*, CASE WHEN r.transaction_id IS NOT NULL THEN 'completed'
                     WHEN r.cancelled_at IS NOT NULL THEN 'cancelled'
                     WHEN r.expiry_date <= now() THEN 'timedOut'
                     ELSE 'successful' END AS status
      FROM r)`;

function toView(r: Record<string, unknown>): ReservationView {
  const status = r['status'] as ReservationStatus;
  return {
    id: String(r['id']),
    reservationId: Number(r['reservation_id']),
    chargePointId: String(r['charge_point_id']),
    connectorId: Number(r['connector_id']),
    stationId: numOrNull(r['station_id']),
    stationName: textOrNull(r['station_name']),
    pileId: Number(r['pile_id']),
    pileName: String(r['pile_name']),
    gunId: numOrNull(r['gun_id']),
    gunName: textOrNull(r['gun_name']),
    idTag: String(r['id_tag']),
    cardholder: textOrNull(r['cardholder']),
    reservedAt: new Date(r['reserved_at'] as Date).toISOString(),
    expiryDate: new Date(r['expiry_date'] as Date).toISOString(),
    status,
    endedAt:
      status === 'completed'
        ? isoOrNull(r['started_at'])
        : status === 'cancelled'
          ? isoOrNull(r['cancelled_at'])
          : null,
    transactionId: numOrNull(r['transaction_id']),
    chargingOrderNo: textOrNull(r['charging_order_no']),
  };
}

/** Reads of reservations, always within the caller's data scope (the pile's station's organisation). */
export class ReservationRepository {
  constructor(private readonly dataSource: DataSource) {}

  async page(
    q: ReservationQuery,
    scope: BillingDataScope,
    page: number,
    size: number,
  ): Promise<{ list: ReservationView[]; total: number }> {
    const { filter, params } = this.where(q, scope);
    const [list, [count]] = await Promise.all([
      this.list(q, scope, page, size),
      this.dataSource.query(
        `${RESERVATIONS} SELECT count(*)::int AS total FROM v ${filter}`,
        params,
      ) as Promise<{ total: number }[]>,
    ]);
    return { list, total: count.total };
  }

  /** One page of the list without its count (exports read page after page). */
  async list(
    q: ReservationQuery,
    scope: BillingDataScope,
    page: number,
    size: number,
  ): Promise<ReservationView[]> {
    const { filter, params } = this.where(q, scope);
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `${RESERVATIONS} SELECT * FROM v ${filter} ORDER BY v.reserved_at DESC, v.id DESC
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, size, (page - 1) * size],
    );
    return rows.map(toView);
  }

  /** Every row of the filtered list, newest first, in batches by keyset (exports). */
  batches(
    q: ReservationQuery,
    scope: BillingDataScope,
    batchSize: number,
    limit: number,
  ): AsyncGenerator<ReservationView[]> {
    const { filter, params } = this.where(q, scope);
    return keysetRows(
      this.dataSource,
      {
        select: `${RESERVATIONS} SELECT v.*`,
        from: 'FROM v',
        where: { sql: filter, params },
        at: 'v.reserved_at',
        id: 'v.id',
        idType: 'uuid',
      },
      toView,
      batchSize,
      limit,
    );
  }

  private where(q: ReservationQuery, scope: BillingDataScope): { filter: string; params: unknown[] } {
    const where = scopedWhere('v.organization_id', scope);
    const add = where.add;
    if (q.start) add((p) => `v.reserved_at >= ${p}`, q.start);
    if (q.end) add((p) => `v.reserved_at <= ${p}`, q.end);
    if (q.stationId) add((p) => `v.station_id = ${p}`, q.stationId);
    if (q.pileId) add((p) => `v.pile_id = ${p}`, q.pileId);
    if (q.gunId) add((p) => `v.gun_id = ${p}`, q.gunId);
    if (q.idTag) add((p) => `v.id_tag ILIKE ${p}`, containing(q.idTag));
    if (q.status) add((p) => `v.status = ${p}`, q.status);
    return { filter: where.sql, params: where.params };
  }
}
