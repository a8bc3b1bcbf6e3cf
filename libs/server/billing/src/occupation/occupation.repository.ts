import type { EntityManager } from 'typeorm';
import type { OccupationFeeSettings } from './occupation-fee';

/** A stop as the occupation consumer records it. */
export type OccupationStop = {
  chargePointId: string;
  transactionId: number;
  connectorId: number;
  stoppedAt: Date;
  reason: string;
};

/** A connector status that ends an occupation, by the pile's timestamp. */
export type OccupationRelease = { chargePointId: string; connectorId: number; at: Date; status: string };

/**
 * An open stop of the given connectors, the first release at or after it, if one is known, and the last
 * release recorded before it (a gun may report Available a moment before its StopTransaction's stamp).
 */
export type ReleasedStop = OccupationStop & {
  releasedAt: Date | null;
  releasedBefore: { at: Date; status: string } | null;
};

/** Fee settings of the station a pile stands at, with the station and its organisation (data scope). */
export type PileFeeSettings = OccupationFeeSettings & { stationId: number; organizationId: number };

export type OccupationOrderRecord = {
  orderNo: string;
  chargingOrderNo: string;
  stop: OccupationStop;
  releasedAt: Date;
  settings: PileFeeSettings;
  billableIntervals: number;
  amountFen: number;
};

export type StopOutcome = 'charged' | 'free' | 'disabled' | 'noStation';

/** Advisory lock class of the occupation consumer (with a charge point hash as the second key). */
const OCCUPATION_LOCK = 7_301_003;

/** Every database statement of the occupation fee consumer; set-based, one round trip each. */
export class OccupationRepository {
  /**
   * Serialise the work on these charge points: a stop and the status that ends its occupation come on
   * different topics and may be handled at the same moment by two transactions; without the lock
   * neither would see the other's row. Locks are taken in a fixed order, so two batches cannot deadlock.
   */
  async lockChargePoints(m: EntityManager, chargePointIds: string[]): Promise<void> {
    if (!chargePointIds.length) return;
    await m.query(
      `SELECT pg_advisory_xact_lock($1, k) FROM (
         SELECT DISTINCT hashtext(cp) AS k FROM unnest($2::text[]) AS cp ORDER BY 1) keys`,
      [OCCUPATION_LOCK, chargePointIds],
    );
  }

  async recordStops(m: EntityManager, stops: OccupationStop[]): Promise<void> {
    if (!stops.length) return;
    await m.query(
      `INSERT INTO occupation_stop (charge_point_id, transaction_id, connector_id, stopped_at, stop_reason)
       SELECT * FROM unnest($1::varchar[], $2::int[], $3::int[], $4::timestamptz[], $5::varchar[])
       ON CONFLICT DO NOTHING`,
      [
        stops.map((s) => s.chargePointId),
        stops.map((s) => s.transactionId),
        stops.map((s) => s.connectorId),
        stops.map((s) => s.stoppedAt.toISOString()),
        stops.map((s) => s.reason),
      ],
    );
  }

  /** Record stops already closed (nothing to wait for); a stop recorded before keeps its state. */
  async recordClosedStops(
    m: EntityManager,
    closed: { stop: OccupationStop; releasedAt: Date | null; outcome: StopOutcome }[],
  ): Promise<void> {
    if (!closed.length) return;
    await m.query(
      `INSERT INTO occupation_stop (charge_point_id, transaction_id, connector_id, stopped_at, stop_reason,
                                    released_at, outcome)
       SELECT * FROM unnest($1::varchar[], $2::int[], $3::int[], $4::timestamptz[], $5::varchar[],
                            $6::timestamptz[], $7::varchar[])
       ON CONFLICT DO NOTHING`,
      [
        closed.map((c) => c.stop.chargePointId),
        closed.map((c) => c.stop.transactionId),
        closed.map((c) => c.stop.connectorId),
        closed.map((c) => c.stop.stoppedAt.toISOString()),
        closed.map((c) => c.stop.reason),
        closed.map((c) => c.releasedAt?.toISOString() ?? null),
        closed.map((c) => c.outcome),
      ],
    );
  }

  async recordReleases(m: EntityManager, releases: OccupationRelease[]): Promise<void> {
    if (!releases.length) return;
    await m.query(
      `INSERT INTO occupation_release (charge_point_id, connector_id, at, status)
       SELECT * FROM unnest($1::varchar[], $2::int[], $3::timestamptz[], $4::varchar[])
       ON CONFLICT DO NOTHING`,
      [
        releases.map((r) => r.chargePointId),
        releases.map((r) => r.connectorId),
        releases.map((r) => r.at.toISOString()),
        releases.map((r) => r.status),
      ],
    );
  }

  /**
   * The unresolved stops of these connectors, each with the first release at or after its stop and the
   * last one before it.
   */
  async openStops(
    m: EntityManager,
    connectors: { chargePointId: string; connectorId: number }[],
  ): Promise<ReleasedStop[]> {
    if (!connectors.length) return [];
    const rows: Record<string, unknown>[] = await m.query(
      `SELECT s.charge_point_id, s.transaction_id, s.connector_id, s.stopped_at, s.stop_reason,
              (SELECT min(r.at) FROM occupation_release r
                WHERE r.charge_point_id = s.charge_point_id AND r.connector_id = s.connector_id
                  AND r.at >= s.stopped_at) AS released_at,
              (SELECT json_build_object('at', r.at, 'status', r.status) FROM occupation_release r
                WHERE r.charge_point_id = s.charge_point_id AND r.connector_id = s.connector_id
                  AND r.at < s.stopped_at
                ORDER BY r.at DESC LIMIT 1) AS released_before
         FROM occupation_stop s
         JOIN (SELECT DISTINCT * FROM unnest($1::varchar[], $2::int[]) AS c(cp, connector)) c
           ON s.charge_point_id = c.cp AND s.connector_id = c.connector
        WHERE s.outcome IS NULL`,
      [connectors.map((c) => c.chargePointId), connectors.map((c) => c.connectorId)],
    );
    return rows.map((r) => ({
      chargePointId: String(r['charge_point_id']),
      transactionId: Number(r['transaction_id']),
      connectorId: Number(r['connector_id']),
      stoppedAt: new Date(r['stopped_at'] as Date),
      reason: String(r['stop_reason']),
      releasedAt: r['released_at'] ? new Date(r['released_at'] as Date) : null,
      releasedBefore: r['released_before']
        ? {
            at: new Date((r['released_before'] as { at: string }).at),
            status: String((r['released_before'] as { status: string }).status),
          }
        : null,
    }));
  }

  /**
   * The fee settings of the stations these piles stand at (piles without a station are absent), read
   * through the views the assets area publishes.
   */
  async feeSettingsOf(m: EntityManager, chargePointIds: string[]): Promise<Map<string, PileFeeSettings>> {
    const settings = new Map<string, PileFeeSettings>();
    if (!chargePointIds.length) return settings;
    const rows: Record<string, unknown>[] = await m.query(
      `SELECT p.charge_point_id, s.id AS station_id, s.organization_id, s.fee_scope, s.free_parking_minutes,
              s.occupation_interval_minutes, s.occupation_unit_price_fen, s.capped_amount_fen,
              s.occupation_fee_enabled
         FROM assets_pile_v p JOIN assets_station_v s ON s.id = p.station_id
        WHERE p.charge_point_id = ANY($1::varchar[])`,
      [[...new Set(chargePointIds)]],
    );
    for (const r of rows) {
      settings.set(String(r['charge_point_id']), {
        stationId: Number(r['station_id']),
        organizationId: Number(r['organization_id']),
        enabled: r['occupation_fee_enabled'] === true,
        feeScope: r['fee_scope'] === 'external' ? 'external' : 'internal',
        freeMinutes: Number(r['free_parking_minutes']),
        intervalMinutes: Number(r['occupation_interval_minutes']),
        unitPriceFen: Number(r['occupation_unit_price_fen']),
        cappedAmountFen: Number(r['capped_amount_fen']),
      });
    }
    return settings;
  }

  /** Insert occupation fee orders once (unique per pile transaction); a second insert changes nothing. */
  async insertOrders(m: EntityManager, orders: OccupationOrderRecord[]): Promise<void> {
    if (!orders.length) return;
    const columns: [string, string, (o: OccupationOrderRecord) => unknown][] = [
      ['order_no', 'varchar', (o) => o.orderNo],
      ['charge_point_id', 'varchar', (o) => o.stop.chargePointId],
      ['connector_id', 'int', (o) => o.stop.connectorId],
      ['transaction_id', 'int', (o) => o.stop.transactionId],
      ['charging_order_no', 'varchar', (o) => o.chargingOrderNo],
      ['station_id', 'int', (o) => o.settings.stationId],
      ['organization_id', 'bigint', (o) => o.settings.organizationId],
      ['fee_scope', 'varchar', (o) => o.settings.feeScope],
      ['occupied_from', 'timestamptz', (o) => o.stop.stoppedAt.toISOString()],
      ['occupied_to', 'timestamptz', (o) => o.releasedAt.toISOString()],
      ['free_minutes', 'int', (o) => o.settings.freeMinutes],
      ['interval_minutes', 'int', (o) => o.settings.intervalMinutes],
      ['unit_price_fen', 'int', (o) => o.settings.unitPriceFen],
      ['capped_amount_fen', 'int', (o) => o.settings.cappedAmountFen],
      ['billable_intervals', 'int', (o) => o.billableIntervals],
      ['amount_fen', 'bigint', (o) => o.amountFen],
    ];
    await m.query(
      `INSERT INTO occupation_order (${columns.map(([c]) => c).join(', ')})
       SELECT * FROM unnest(${columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})
       ON CONFLICT DO NOTHING`,
      columns.map(([, , value]) => orders.map(value)),
    );
  }

  /** Close stops: the occupation ended at `releasedAt` with this outcome; never reopened. */
  async resolveStops(
    m: EntityManager,
    resolved: { stop: OccupationStop; releasedAt: Date; outcome: StopOutcome }[],
  ): Promise<void> {
    if (!resolved.length) return;
    await m.query(
      `UPDATE occupation_stop s SET released_at = r.released_at, outcome = r.outcome
         FROM unnest($1::varchar[], $2::int[], $3::timestamptz[], $4::varchar[])
              AS r(charge_point_id, transaction_id, released_at, outcome)
        WHERE s.charge_point_id = r.charge_point_id AND s.transaction_id = r.transaction_id
          AND s.outcome IS NULL`,
      [
        resolved.map((r) => r.stop.chargePointId),
        resolved.map((r) => r.stop.transactionId),
        resolved.map((r) => r.releasedAt.toISOString()),
        resolved.map((r) => r.outcome),
      ],
    );
  }

  /** Forget releases older than `before`: a stop arriving that late finds none and waits for the next. */
  async pruneReleases(m: EntityManager, before: Date): Promise<void> {
    await m.query(`DELETE FROM occupation_release WHERE at < $1`, [before.toISOString()]);
  }
}
