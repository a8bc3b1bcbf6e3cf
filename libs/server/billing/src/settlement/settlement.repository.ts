import type { EntityManager } from 'typeorm';
import type { AbnormalReasonCode } from '@voltdepot/shared-contracts';
import type { AbandonRule, TransactionStopRepeatedV1, TransactionStoppedV1 } from '@voltdepot/shared-events';
import { returnedRows } from '@voltdepot/server-database';
import type { PricePlan, StageType } from '../pricing/price-plan';
import { planVersionAtSql, planVersionStages } from '../price-plans/price-plan.repository';
import type { Discount } from '../pricing/discount';
import type { BilledAmounts, OrderTariff } from '../pricing/order-amounts';
import { BAND_COLUMNS } from '../shared/sql-rows';

export type { OrderTariff } from '../pricing/order-amounts';

export type BillingSessionRow = {
  chargePointId: string;
  transactionId: number;
  connectorId: number;
  idTag: string;
  meterStartWh: number;
  startedAt: Date;
  /** The reservation the session consumed (StartTransaction.reservationId), if any. */
  reservationId?: number;
};

export type Reading = { measurand: string; at: Date; value: number; flag: string | null };

/** A reading of one transaction, as recorded from MeterValues. */
export type TransactionReading = Reading & { chargePointId: string; transactionId: number };

/** (charge point, transaction): the business key of a session and of its order. */
export type SessionKey = { chargePointId: string; transactionId: number };

export function sessionKey(k: SessionKey): string {
  return `${k.chargePointId}\u0000${k.transactionId}`;
}

/** The bus a session charged, as matched at settlement (card binding, else VIN, else plate). */
export type MatchedVehicle = { id: number; plate: string; vin: string; batteryCapacityWh: number | null };

/** The charging card (by physical number = idTag) of a session, if the idTag is one. */
export type SessionCard = { type: number; vehicleId: number | null };

export type OrderRecord = {
  orderNo: string;
  stop: TransactionStoppedV1;
  session?: BillingSessionRow;
  vehicle?: MatchedVehicle;
  /** Start type code of the pile at settlement (dictionary `start_type`, 0 until full). */
  startMode: number;
  startSoc?: number;
  endSoc?: number;
  pricePlanId?: number;
  /** Set when the order is billed (pay status 0): the payable amounts, after the card's discount. */
  amounts?: BilledAmounts;
  payStatus: 0 | 1 | 3;
  /** Why it is held (pay status 3) or flagged for review (`repeatedStop` alone holds nothing). */
  abnormalReasons: AbnormalReasonCode[];
  energyWh: number;
  /** The plan stages and discount at the start: what the order is billed with, now and if amended. */
  tariff?: OrderTariff;
  /** Set for a session the gateway closed by rule (its pile never stopped it): the rule. */
  abandonRule?: AbandonRule;
};

/** An order already settled for a session, as settlement needs to know it. */
export type SettledOrderRef = {
  id: number;
  /** Made from a session the gateway abandoned (a lost stop)... */
  abandoned: boolean;
  /** ...and completed by its real StopTransaction since. */
  completed: boolean;
};

export type SettlementInputs = {
  session?: BillingSessionRow;
  /** The session's order, once settled. */
  order?: SettledOrderRef;
  readings: Reading[];
  plan?: { id: number; version: string };
  /** The enabled discount plan covering the session's card at its start, if any. */
  discount?: Discount;
  /** The card the idTag (the session's, else the stop's) names, if any. */
  card?: SessionCard;
  /** The bus of the session: its card's, else the one whose VIN, else plate, is the idTag. */
  vehicle?: MatchedVehicle;
  /** The pile's configured start mode (`charging_pile.start_mode`), null when not set or unknown pile. */
  pileStartMode: number | null;
  /** A second StopTransaction that disagrees with the first was recorded for the session. */
  repeated: boolean;
};

/** The only place the billing area touches the database. Every write is idempotent by business key. */
export class SettlementRepository {
  private readonly planCache = new Map<string, PricePlan>();

  /**
   * Record starts and take the stops that overtook them, in one statement (one round trip however many
   * starts a batch holds). Starts already recorded are left as they are.
   */
  async recordStarts(m: EntityManager, starts: BillingSessionRow[]): Promise<TransactionStoppedV1[]> {
    if (!starts.length) return [];
    const result = await m.query(
      `WITH input AS (
         SELECT * FROM unnest($1::varchar[], $2::int[], $3::int[], $4::varchar[], $5::bigint[], $6::timestamptz[],
                              $7::int[])
           AS t(charge_point_id, transaction_id, connector_id, id_tag, meter_start_wh, started_at, reservation_id)),
       started AS (
         INSERT INTO billing_session (charge_point_id, transaction_id, connector_id, id_tag, meter_start_wh, started_at,
                                      reservation_id)
         SELECT * FROM input ON CONFLICT DO NOTHING)
       DELETE FROM billing_pending_stop p USING input i
        WHERE p.charge_point_id = i.charge_point_id AND p.transaction_id = i.transaction_id
       RETURNING p.payload`,
      [
        starts.map((s) => s.chargePointId),
        starts.map((s) => s.transactionId),
        starts.map((s) => s.connectorId),
        starts.map((s) => s.idTag),
        starts.map((s) => s.meterStartWh),
        starts.map((s) => s.startedAt.toISOString()),
        starts.map((s) => s.reservationId ?? null),
      ],
    );
    return returnedRows<{ payload: TransactionStoppedV1 }>(result).map((r) => r.payload);
  }

  /**
   * Everything settling stops needs, for many sessions in one round trip: per key the session, whether
   * it is already settled, its readings in time order, the price plan (id and version) in force at its
   * start at its pile's station (else the default plan), the discount plan covering its card, the card,
   * the bus (the card's, else the one whose VIN, else plate, is the idTag; the stop's idTag when the start
   * is missing) and the pile's start mode.
   */
  async settlementInputsOf(
    m: EntityManager,
    keys: (SessionKey & { idTag?: string })[],
  ): Promise<Map<string, SettlementInputs>> {
    const inputs = new Map<string, SettlementInputs>();
    if (!keys.length) return inputs;
    const rows: Record<string, unknown>[] = await m.query(
      `WITH k AS (SELECT * FROM unnest($1::varchar[], $2::int[], $3::varchar[]) AS k(cp, tx, stop_tag)),
       ks AS (
         SELECT k.cp, k.tx, s.connector_id, s.id_tag, s.meter_start_wh, s.started_at,
                s.charge_point_id IS NOT NULL AS known, COALESCE(s.id_tag, k.stop_tag) AS tag,
                p.station_id, p.start_mode
           FROM k LEFT JOIN billing_session s ON s.charge_point_id = k.cp AND s.transaction_id = k.tx
           LEFT JOIN assets_pile_v p ON p.charge_point_id = k.cp),
       kc AS (
         SELECT ks.*, c.type AS card_type, c.vehicle_id AS card_vehicle_id, c.id IS NOT NULL AS has_card
           FROM ks LEFT JOIN assets_card_v c ON c.physical_number = ks.tag)
       SELECT ks.cp, ks.tx, ks.start_mode,
         CASE WHEN ks.has_card THEN json_build_object('type', ks.card_type, 'vehicle_id', ks.card_vehicle_id) END AS card,
         (SELECT json_build_object('id', v.id, 'plate', v.plate, 'vin', v.vin, 'capacity', v.battery_capacity_wh)
            FROM assets_vehicle_v v
           WHERE v.id = ks.card_vehicle_id OR v.vin = ks.tag OR v.plate = ks.tag
           ORDER BY CASE WHEN v.id = ks.card_vehicle_id THEN 0 WHEN v.vin = ks.tag THEN 1 ELSE 2 END, v.id
           LIMIT 1) AS vehicle,
         CASE WHEN ks.known THEN json_build_object('connector_id', ks.connector_id, 'id_tag', ks.id_tag,
           'meter_start_wh', ks.meter_start_wh, 'started_at', ks.started_at) END AS session,
         (SELECT json_build_object('id', o.id, 'abandoned', o.abandon_rule IS NOT NULL,
                 'completed', o.abandon_rule IS NOT NULL AND EXISTS (
                   SELECT 1 FROM charging_order_version v WHERE v.order_id = o.id AND v.kind = 'completed'))
            FROM charging_order o WHERE o.charge_point_id = ks.cp AND o.transaction_id = ks.tx) AS settled,
         EXISTS (SELECT 1 FROM billing_repeat_stop r
                  WHERE r.charge_point_id = ks.cp AND r.transaction_id = ks.tx AND r.disagrees) AS repeated,
         (SELECT coalesce(json_agg(json_build_object('m', measurand, 'at', at, 'v', value, 'f', flag) ORDER BY at), '[]')
            FROM billing_reading r WHERE r.charge_point_id = ks.cp AND r.transaction_id = ks.tx) AS readings,
         (SELECT json_build_object('id', p.id, 'version', ${planVersionAtSql('p', 'ks.started_at')}) FROM price_plan p
           WHERE p.id = COALESCE(
             (SELECT plan_id FROM station_price_plan
               WHERE station_id = ks.station_id AND effective_from <= ks.started_at
               ORDER BY effective_from DESC LIMIT 1),
             (SELECT id FROM price_plan WHERE is_default))) AS plan,
         (SELECT json_build_object('id', d.id, 'price', d.price_discount, 'service', d.service_fee_discount)
            FROM discount_plan d JOIN discount_plan_card c ON c.plan_id = d.id
           WHERE c.id_tag = ks.id_tag AND d.enabled AND d.valid_from <= ks.started_at AND ks.started_at < d.valid_to
           ORDER BY d.valid_from DESC, d.id DESC LIMIT 1) AS discount
       FROM kc ks`,
      [keys.map((k) => k.chargePointId), keys.map((k) => k.transactionId), keys.map((k) => k.idTag ?? null)],
    );
    for (const row of rows) {
      const key = { chargePointId: String(row['cp']), transactionId: Number(row['tx']) };
      inputs.set(sessionKey(key), toInputs(key, row));
    }
    return inputs;
  }

  /**
   * A plan's stages in the version `settlementInputsOf` found in force at the session's start (price
   * plans' `planVersionStages`), cached by (id, version): versions never change, and a plan without
   * versions is keyed by its `updated_at`, which saving a plan bumps with its stages.
   */
  async planStages(m: EntityManager, ref: { id: number; version: string }): Promise<PricePlan | undefined> {
    const key = `${ref.id}@${ref.version}`;
    const cached = this.planCache.get(key);
    if (cached) return cached;
    const found = await planVersionStages(m, ref);
    if (!found) return undefined;
    if (found.cacheable) {
      if (this.planCache.size > 256) this.planCache.clear();
      this.planCache.set(key, found.plan);
    }
    return found.plan;
  }

  /** Record readings of any number of transactions in one statement; a reading seen before is kept. */
  async recordReadings(m: EntityManager, readings: TransactionReading[]): Promise<void> {
    if (!readings.length) return;
    await m.query(
      `INSERT INTO billing_reading (charge_point_id, transaction_id, measurand, at, value, flag)
       SELECT * FROM unnest($1::varchar[], $2::int[], $3::varchar[], $4::timestamptz[], $5::numeric[], $6::varchar[])
       ON CONFLICT DO NOTHING`,
      [
        readings.map((r) => r.chargePointId),
        readings.map((r) => r.transactionId),
        readings.map((r) => r.measurand),
        readings.map((r) => r.at.toISOString()),
        readings.map((r) => r.value),
        readings.map((r) => r.flag),
      ],
    );
  }

  /** Keep stops whose start has not arrived yet, until it does. */
  async parkStops(m: EntityManager, stops: TransactionStoppedV1[]): Promise<void> {
    if (!stops.length) return;
    await m.query(
      `INSERT INTO billing_pending_stop (charge_point_id, transaction_id, payload)
       SELECT * FROM unnest($1::varchar[], $2::int[], $3::jsonb[]) ON CONFLICT DO NOTHING`,
      [
        stops.map((s) => s.chargePointId),
        stops.map((s) => s.transactionId),
        stops.map((s) => JSON.stringify(s)),
      ],
    );
  }

  /**
   * Take the parked stops that have waited at least `minutes` for their start, oldest first, at most
   * `limit`: deleted in this transaction and returned. Rows another transaction holds (a sweep on another
   * replica, or a start being recorded right now) are skipped, not waited for; a start that comes after
   * the commit finds no parked stop, so the stop is settled exactly once either way.
   */
  async takeLostStops(m: EntityManager, minutes: number, limit: number): Promise<TransactionStoppedV1[]> {
    const result = await m.query(
      `WITH due AS (
         SELECT charge_point_id, transaction_id FROM billing_pending_stop
          WHERE received_at <= now() - make_interval(mins => $1)
          ORDER BY received_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       DELETE FROM billing_pending_stop p USING due
        WHERE p.charge_point_id = due.charge_point_id AND p.transaction_id = due.transaction_id
       RETURNING p.payload`,
      [minutes, limit],
    );
    return returnedRows<{ payload: TransactionStoppedV1 }>(result).map((r) => r.payload);
  }

  /**
   * Record second StopTransactions (each once: a copy finds its row) and flag the settled orders of those
   * that disagree with the first stop for review (`repeatedStop`), in one statement. An order settled
   * later finds the recorded repeat (`SettlementInputs.repeated`), so the arrival order does not matter.
   */
  async recordRepeatStops(m: EntityManager, repeats: TransactionStopRepeatedV1[]): Promise<void> {
    if (!repeats.length) return;
    await m.query(
      `WITH input AS (
         SELECT * FROM unnest($1::varchar[], $2::int[], $3::timestamptz[], $4::bigint[], $5::varchar[],
                              $6::timestamptz[], $7::bigint[], $8::varchar[], $9::boolean[])
           AS t(charge_point_id, transaction_id, stopped_at, meter_stop_wh, reason, first_stopped_at,
                first_meter_stop_wh, first_reason, disagrees)),
       recorded AS (
         INSERT INTO billing_repeat_stop (charge_point_id, transaction_id, stopped_at, meter_stop_wh, reason,
                                          first_stopped_at, first_meter_stop_wh, first_reason, disagrees)
         SELECT * FROM input ON CONFLICT DO NOTHING
         RETURNING charge_point_id, transaction_id, disagrees)
       UPDATE charging_order o SET abnormal_reasons = o.abnormal_reasons || '{repeatedStop}'::text[]
         FROM (SELECT DISTINCT charge_point_id, transaction_id FROM recorded WHERE disagrees) r
        WHERE o.charge_point_id = r.charge_point_id AND o.transaction_id = r.transaction_id
          AND NOT ('repeatedStop' = ANY (o.abnormal_reasons))`,
      [
        repeats.map((r) => r.chargePointId),
        repeats.map((r) => r.transactionId),
        repeats.map((r) => new Date(r.timestamp).toISOString()),
        repeats.map((r) => r.meterStopWh),
        repeats.map((r) => r.reason),
        repeats.map((r) => new Date(r.firstTimestamp).toISOString()),
        repeats.map((r) => r.firstMeterStopWh),
        repeats.map((r) => r.firstReason),
        repeats.map((r) => r.disagrees),
      ],
    );
  }

  /**
   * Insert orders once, many in one statement; a replayed settlement finds the existing row and changes
   * nothing. Returns the keys of the orders this call inserted.
   */
  async insertOrders(m: EntityManager, orders: OrderRecord[]): Promise<Set<string>> {
    if (!orders.length) return new Set();
    // One typed array per column (unnest) rather than a VALUES list: a batch of orders is one short
    // statement with a few dozen parameters, cheap to parse and plan whatever the batch size.
    const rows = orders.map(orderValues);
    const columns = ORDER_COLUMNS.map(([name]) => name);
    const select = ORDER_COLUMNS.map(([name, type]) =>
      type === 'text-array' ? `ARRAY(SELECT jsonb_array_elements_text(t.${name}))` : `t.${name}`,
    );
    const inserted: { charge_point_id: string; transaction_id: number }[] = await m.query(
      `INSERT INTO charging_order (${columns.join(', ')})
       SELECT ${select.join(', ')}
         FROM unnest(${ORDER_COLUMNS.map(([, type], i) => `$${i + 1}::${type === 'text-array' ? 'jsonb' : type}[]`).join(', ')}) AS t(${columns.join(', ')})
       ON CONFLICT (charge_point_id, transaction_id) DO NOTHING RETURNING charge_point_id, transaction_id`,
      ORDER_COLUMNS.map(([, type], i) =>
        rows.map((row) =>
          (type === 'text-array' || type === 'jsonb') && row[i] !== null ? JSON.stringify(row[i]) : row[i],
        ),
      ),
    );
    return new Set(
      inserted.map((r) =>
        sessionKey({ chargePointId: r.charge_point_id, transactionId: Number(r.transaction_id) }),
      ),
    );
  }
}

/** Columns of an order row and their types, in the order of `orderValues` (a text[] travels as jsonb). */
const ORDER_COLUMNS: [name: string, type: string][] = [
  ['order_no', 'varchar'],
  ['charge_point_id', 'varchar'],
  ['connector_id', 'int'],
  ['transaction_id', 'int'],
  ['id_tag', 'varchar'],
  ['started_at', 'timestamptz'],
  ['stopped_at', 'timestamptz'],
  ['meter_start_wh', 'bigint'],
  ['meter_stop_wh', 'bigint'],
  ['energy_wh', 'bigint'],
  ['start_soc', 'smallint'],
  ['end_soc', 'smallint'],
  ['electricity_fen', 'bigint'],
  ['service_fen', 'bigint'],
  ['total_fen', 'bigint'],
  ['price_plan_id', 'int'],
  ['discount_plan_id', 'int'],
  ['electricity_discount_fen', 'bigint'],
  ['service_discount_fen', 'bigint'],
  ['end_reason', 'varchar'],
  ['stop_kind', 'varchar'],
  ['pay_status', 'smallint'],
  ['abnormal_reasons', 'text-array'],
  ['tariff', 'jsonb'],
  ['vehicle_id', 'int'],
  ['vehicle_plate', 'varchar'],
  ['vehicle_vin', 'varchar'],
  ['start_mode', 'smallint'],
  ['abandon_rule', 'varchar'],
  ...Object.values(BAND_COLUMNS).flatMap((c): [string, string][] => [
    [`${c}_energy_wh`, 'bigint'],
    [`${c}_electricity_fen`, 'bigint'],
    [`${c}_service_fen`, 'bigint'],
  ]),
];

function orderValues(o: OrderRecord): unknown[] {
  const payable = o.amounts;
  const bands = (Object.keys(BAND_COLUMNS) as StageType[]).flatMap((type) => {
    const band = payable?.bands[type] ?? { energyWh: 0, electricityFen: 0, serviceFen: 0 };
    return [band.energyWh, band.electricityFen, band.serviceFen];
  });
  return [
    o.orderNo,
    o.stop.chargePointId,
    o.stop.connectorId,
    o.stop.transactionId,
    o.session?.idTag ?? o.stop.idTag ?? null,
    o.session?.startedAt ?? null,
    new Date(o.stop.timestamp),
    o.session?.meterStartWh ?? o.stop.meterStartWh ?? null,
    o.stop.meterStopWh,
    o.energyWh,
    o.startSoc ?? null,
    o.endSoc ?? null,
    payable?.electricityFen ?? 0,
    payable?.serviceFen ?? 0,
    payable?.totalFen ?? 0,
    o.pricePlanId ?? null,
    payable?.discountPlanId ?? null,
    payable?.electricityDiscountFen ?? 0,
    payable?.serviceDiscountFen ?? 0,
    o.stop.reason,
    o.stop.stopKind,
    o.payStatus,
    o.abnormalReasons,
    o.tariff ?? null,
    o.vehicle?.id ?? null,
    o.vehicle?.plate ?? null,
    o.vehicle?.vin ?? null,
    o.startMode,
    o.abandonRule ?? null,
    ...bands,
  ];
}

function toInputs(key: SessionKey, row: Record<string, unknown>): SettlementInputs {
  const s = row['session'] as Record<string, unknown> | null;
  const settled = row['settled'] as { id: number; abandoned: boolean; completed: boolean } | null;
  const plan = row['plan'] as { id: number; version: string } | null;
  const discount = row['discount'] as { id: number; price: number; service: number } | null;
  const card = row['card'] as { type: number; vehicle_id: number | null } | null;
  const vehicle = row['vehicle'] as {
    id: number;
    plate: string;
    vin: string;
    capacity: number | null;
  } | null;
  return {
    card: card
      ? { type: Number(card.type), vehicleId: card.vehicle_id === null ? null : Number(card.vehicle_id) }
      : undefined,
    vehicle: vehicle
      ? {
          id: Number(vehicle.id),
          plate: String(vehicle.plate),
          vin: String(vehicle.vin),
          batteryCapacityWh: vehicle.capacity === null ? null : Number(vehicle.capacity),
        }
      : undefined,
    pileStartMode:
      row['start_mode'] === null || row['start_mode'] === undefined ? null : Number(row['start_mode']),
    repeated: row['repeated'] === true,
    session: s
      ? {
          ...key,
          connectorId: Number(s['connector_id']),
          idTag: String(s['id_tag']),
          meterStartWh: Number(s['meter_start_wh']),
          startedAt: new Date(String(s['started_at'])),
        }
      : undefined,
    order: settled
      ? { id: Number(settled.id), abandoned: settled.abandoned, completed: settled.completed }
      : undefined,
    readings: (row['readings'] as { m: string; at: string; v: number | string; f: string | null }[]).map(
      (r) => ({ measurand: r.m, at: new Date(r.at), value: Number(r.v), flag: r.f }),
    ),
    plan: plan ? { id: Number(plan.id), version: String(plan.version) } : undefined,
    discount: discount
      ? {
          planId: Number(discount.id),
          pricePercent: Number(discount.price),
          servicePercent: Number(discount.service),
        }
      : undefined,
  };
}
