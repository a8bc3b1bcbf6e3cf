import type { DataSource, EntityManager } from 'typeorm';
import type { AbnormalReasonCode, OrderVersionKind, ReviewDecision } from '@voltdepot/shared-contracts';
import type { OrderFigures } from '@voltdepot/shared-events';
import type { BilledAmounts, OrderTariff } from '../pricing/order-amounts';
import type { StageType } from '../pricing/price-plan';
import type { SessionSample } from '../pricing/session-readings';
import { inScope, type BillingDataScope } from '../shared/data-scope';
import { BAND_COLUMNS } from '../shared/sql-rows';

/** What a version of an order says: its stop, what it bills and why it is held or flagged. */
export type OrderState = {
  meterStopWh: number;
  /** ISO instant. */
  stoppedAt: string;
  endReason: string;
  stopKind: 'normal' | 'abnormal';
  energyWh: number;
  startSoc: number | null;
  endSoc: number | null;
  payStatus: 0 | 1 | 3;
  abnormalReasons: AbnormalReasonCode[];
  pricePlanId: number | null;
  amounts: BilledAmounts;
};

/** An order locked for a change, in its current version. */
export type VersionedOrder = {
  id: number;
  orderNo: string;
  chargePointId: string;
  connectorId: number;
  transactionId: number;
  version: number;
  meterStartWh: number | null;
  abandonRule: string | null;
  /** The card (or VIN) of the order's session, when it had one. */
  idTag?: string | null;
  review?: { decision: ReviewDecision; reviewer: string; at: Date };
  state: OrderState;
};

/** Who made a version and why; `requestKey` makes a retried request find the version it made. */
export type VersionMeta = {
  kind: OrderVersionKind;
  reason: string;
  actorId: number | null;
  actorName: string;
  requestKey: string;
};

/** A stored version (2 and later: version 1 is the order as settled, its figures the `before` of 2). */
export type StoredVersion = VersionMeta & {
  version: number;
  before: OrderState;
  after: OrderState;
  at: Date;
};

/** A second StopTransaction recorded for the order's transaction. */
export type RepeatStop = {
  stoppedAt: Date;
  meterStopWh: number;
  reason: string;
  disagrees: boolean;
  receivedAt: Date;
};

/** What billing an order's session again needs: its start, its register samples, its tariff. */
export type OrderPricingInputs = {
  session?: { idTag: string; meterStartWh: number; startedAt: Date };
  readings: SessionSample[];
  tariff?: OrderTariff;
};

/** The figures of a state, as `order.amended` carries them. */
export function figuresOf(state: OrderState): OrderFigures {
  return {
    meterStopWh: state.meterStopWh,
    energyWh: state.energyWh,
    electricityFen: state.amounts.electricityFen,
    serviceFen: state.amounts.serviceFen,
    totalFen: state.amounts.totalFen,
    payStatus: state.payStatus,
  };
}

/** The organisation of an order's pile: its station's, else its own. */
const PILE_ORGANIZATION = 'COALESCE(s.organization_id, p.organization_id)';

const ORDER_COLUMNS = `o.id, o.order_no, o.id_tag, o.charge_point_id, o.connector_id, o.transaction_id, o.version, o.meter_start_wh,
  o.abandon_rule, o.meter_stop_wh, o.stopped_at, o.end_reason, o.stop_kind, o.energy_wh, o.start_soc, o.end_soc,
  o.pay_status, o.abnormal_reasons, o.price_plan_id, o.discount_plan_id, o.electricity_fen, o.service_fen,
  o.total_fen, o.electricity_discount_fen, o.service_discount_fen,
  ${Object.values(BAND_COLUMNS)
    .map((c) => `o.${c}_energy_wh, o.${c}_electricity_fen, o.${c}_service_fen`)
    .join(', ')}`;

/**
 * The versions of orders and their reviews: locking an order for a change, writing its next version,
 * recording a review decision, reading its history.
 */
export class OrderVersionRepository {
  constructor(private readonly dataSource?: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db().transaction(work);
  }

  /**
   * The order locked for a change (FOR UPDATE: one change at a time, each on the version before it), by id
   * within the caller's data scope, or by its session's key; undefined when there is none (or out of scope).
   */
  async lock(
    m: EntityManager,
    ref: { id: number; scope: BillingDataScope } | { chargePointId: string; transactionId: number },
  ): Promise<VersionedOrder | undefined> {
    const [row] =
      'id' in ref
        ? await m.query(
            `SELECT ${ORDER_COLUMNS} FROM charging_order o
               LEFT JOIN assets_pile_v p ON p.charge_point_id = o.charge_point_id
               LEFT JOIN assets_station_v s ON s.id = p.station_id
              WHERE o.id = $2 AND ${inScope(PILE_ORGANIZATION, 1)} FOR UPDATE OF o`,
            [ref.scope.pathPatterns, ref.id],
          )
        : await m.query(
            `SELECT ${ORDER_COLUMNS} FROM charging_order o
              WHERE o.charge_point_id = $1 AND o.transaction_id = $2 FOR UPDATE`,
            [ref.chargePointId, ref.transactionId],
          );
    if (!row) return undefined;
    // Read after the lock, in a statement of its own: under READ COMMITTED it sees a review that a
    // concurrent reviewer committed while this one waited for the lock.
    const [review] = await m.query(
      'SELECT decision, reviewer_name, reviewed_at FROM charging_order_review WHERE order_id = $1',
      [row.id],
    );
    return {
      id: Number(row.id),
      orderNo: String(row.order_no),
      chargePointId: String(row.charge_point_id),
      connectorId: Number(row.connector_id),
      transactionId: Number(row.transaction_id),
      version: Number(row.version),
      meterStartWh: row.meter_start_wh === null ? null : Number(row.meter_start_wh),
      abandonRule: row.abandon_rule ?? null,
      idTag: row.id_tag ?? null,
      review: review
        ? {
            decision: review.decision,
            reviewer: String(review.reviewer_name),
            at: new Date(review.reviewed_at),
          }
        : undefined,
      state: stateOf(row),
    };
  }

  /** The version a request key made for this order, if any. */
  async versionByRequest(
    m: EntityManager,
    orderId: number,
    requestKey: string,
  ): Promise<StoredVersion | undefined> {
    const rows = await m.query(`${VERSION_SELECT} WHERE order_id = $1 AND request_key = $2`, [
      orderId,
      requestKey,
    ]);
    return rows.length ? toVersion(rows[0]) : undefined;
  }

  /**
   * Store `next` as version `order.version + 1` with the difference from the current state; false when
   * the request key (or, for a completion, the order) already has its version: nothing is changed then.
   * The version row goes first: its unique keys decide, the order row follows.
   */
  async saveVersion(
    m: EntityManager,
    order: VersionedOrder,
    next: OrderState,
    meta: VersionMeta,
    difference: Omit<OrderFigures, 'payStatus'>,
  ): Promise<boolean> {
    const version = order.version + 1;
    const inserted = await m.query(
      `INSERT INTO charging_order_version (order_id, version, kind, reason, actor_id, actor_name, request_key,
                                           before, after, energy_delta_wh, electricity_delta_fen,
                                           service_delta_fen, total_delta_fen)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT DO NOTHING RETURNING version`,
      [
        order.id,
        version,
        meta.kind,
        meta.reason,
        meta.actorId,
        meta.actorName,
        meta.requestKey,
        JSON.stringify(order.state),
        JSON.stringify(next),
        difference.energyWh,
        difference.electricityFen,
        difference.serviceFen,
        difference.totalFen,
      ],
    );
    if (!inserted.length) return false;
    const values: unknown[] = [order.id, order.version];
    const sets: string[] = [];
    const set = (column: string, value: unknown) => {
      values.push(value);
      sets.push(`${column} = $${values.length}`);
    };
    set('version', version);
    set('meter_stop_wh', next.meterStopWh);
    set('stopped_at', next.stoppedAt);
    set('end_reason', next.endReason);
    set('stop_kind', next.stopKind);
    set('energy_wh', next.energyWh);
    set('start_soc', next.startSoc);
    set('end_soc', next.endSoc);
    set('pay_status', next.payStatus);
    set('abnormal_reasons', next.abnormalReasons);
    set('price_plan_id', next.pricePlanId);
    set('discount_plan_id', next.amounts.discountPlanId);
    set('electricity_fen', next.amounts.electricityFen);
    set('service_fen', next.amounts.serviceFen);
    set('total_fen', next.amounts.totalFen);
    set('electricity_discount_fen', next.amounts.electricityDiscountFen);
    set('service_discount_fen', next.amounts.serviceDiscountFen);
    for (const [type, column] of Object.entries(BAND_COLUMNS) as [StageType, string][]) {
      set(`${column}_energy_wh`, next.amounts.bands[type].energyWh);
      set(`${column}_electricity_fen`, next.amounts.bands[type].electricityFen);
      set(`${column}_service_fen`, next.amounts.bands[type].serviceFen);
    }
    const [, updated] = await m.query(
      `UPDATE charging_order SET ${sets.join(', ')} WHERE id = $1 AND version = $2`,
      values,
    );
    // The order was locked in this version: anything else is a caller that did not lock it.
    if (updated !== 1) throw new Error(`charging order ${order.id} is no longer at version ${order.version}`);
    return true;
  }

  /** Records a review decision; false when the order already has one (the caller answers 409). */
  async recordReview(
    m: EntityManager,
    review: {
      orderId: number;
      decision: ReviewDecision;
      reason: string;
      reviewerId: number;
      reviewer: string;
    },
  ): Promise<boolean> {
    const rows = await m.query(
      `INSERT INTO charging_order_review (order_id, decision, reason, reviewer_id, reviewer_name)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (order_id) DO NOTHING RETURNING order_id`,
      [review.orderId, review.decision, review.reason, review.reviewerId, review.reviewer],
    );
    return rows.length > 0;
  }

  /** Every later version of an order, oldest first. */
  async versionsOf(orderId: number, m?: EntityManager): Promise<StoredVersion[]> {
    const rows = await (m ?? this.db()).query(`${VERSION_SELECT} WHERE order_id = $1 ORDER BY version`, [
      orderId,
    ]);
    return rows.map(toVersion);
  }

  /** The second StopTransactions recorded for an order's transaction, oldest first. */
  async repeatStopsOf(key: { chargePointId: string; transactionId: number }): Promise<RepeatStop[]> {
    const rows = await this.db().query(
      `SELECT stopped_at, meter_stop_wh, reason, disagrees, received_at FROM billing_repeat_stop
        WHERE charge_point_id = $1 AND transaction_id = $2 ORDER BY received_at, stopped_at`,
      [key.chargePointId, key.transactionId],
    );
    return rows.map((r: Record<string, unknown>) => ({
      stoppedAt: new Date(r['stopped_at'] as string),
      meterStopWh: Number(r['meter_stop_wh']),
      reason: String(r['reason']),
      disagrees: r['disagrees'] === true,
      receivedAt: new Date(r['received_at'] as string),
    }));
  }

  /**
   * What billing the order's session needs: its start and energy register samples, and the tariff kept
   * on the order. Orders settled before tariffs were kept fall back to the plan recorded at settlement
   * (else the station's plan in force at the start, else the default plan) as it is now, and the
   * discount plan covering the card at the start.
   */
  async pricingInputs(
    m: EntityManager,
    order: Pick<VersionedOrder, 'id' | 'chargePointId' | 'transactionId'>,
  ): Promise<OrderPricingInputs> {
    const [row] = await m.query(
      `WITH s AS (SELECT id_tag, meter_start_wh, started_at FROM billing_session
                   WHERE charge_point_id = $1 AND transaction_id = $2),
            plan AS (
              SELECT COALESCE(
                (SELECT price_plan_id FROM charging_order WHERE id = $3),
                (SELECT spp.plan_id FROM station_price_plan spp JOIN assets_pile_v p ON p.station_id = spp.station_id
                  WHERE p.charge_point_id = $1 AND spp.effective_from <= (SELECT started_at FROM s)
                  ORDER BY spp.effective_from DESC LIMIT 1),
                (SELECT id FROM price_plan WHERE is_default)) AS id)
       SELECT (SELECT row_to_json(s) FROM s) AS session,
              (SELECT tariff FROM charging_order WHERE id = $3) AS tariff,
              (SELECT coalesce(json_agg(json_build_object('at', at, 'v', value, 'f', flag) ORDER BY at), '[]')
                 FROM billing_reading WHERE charge_point_id = $1 AND transaction_id = $2
                  AND measurand = 'Energy.Active.Import.Register') AS readings,
              (SELECT id FROM plan) AS plan_id,
              (SELECT coalesce(json_agg(json_build_object('t', stage_type, 's', start_minute, 'e', end_minute,
                                                          'p', electricity_price, 'f', service_fee) ORDER BY seq), '[]')
                 FROM price_plan_stage WHERE plan_id = (SELECT id FROM plan)) AS stages,
              (SELECT json_build_object('id', d.id, 'price', d.price_discount, 'service', d.service_fee_discount)
                 FROM discount_plan d JOIN discount_plan_card c ON c.plan_id = d.id
                WHERE c.id_tag = (SELECT id_tag FROM s) AND d.enabled
                  AND d.valid_from <= (SELECT started_at FROM s) AND (SELECT started_at FROM s) < d.valid_to
                ORDER BY d.valid_from DESC, d.id DESC LIMIT 1) AS discount`,
      [order.chargePointId, order.transactionId, order.id],
    );
    const s = row.session as Record<string, unknown> | null;
    const stages = row.stages as { t: StageType; s: number; e: number; p: number; f: number }[];
    const discount = row.discount as { id: unknown; price: unknown; service: unknown } | null;
    const tariff: OrderTariff | undefined =
      (row.tariff as OrderTariff | null) ??
      (row.plan_id !== null && stages.length
        ? {
            planId: Number(row.plan_id),
            stages: stages.map((x) => ({
              stageType: x.t,
              startMinute: Number(x.s),
              endMinute: Number(x.e),
              electricityPrice: Number(x.p),
              serviceFee: Number(x.f),
            })),
            discount: discount
              ? {
                  planId: Number(discount.id),
                  pricePercent: Number(discount.price),
                  servicePercent: Number(discount.service),
                }
              : null,
          }
        : undefined);
    return {
      session: s
        ? {
            idTag: String(s['id_tag']),
            meterStartWh: Number(s['meter_start_wh']),
            startedAt: new Date(String(s['started_at'])),
          }
        : undefined,
      readings: (row.readings as { at: string; v: number | string; f: string | null }[]).map((r) => ({
        measurand: 'Energy.Active.Import.Register',
        at: new Date(r.at),
        value: Number(r.v),
        flag: r.f,
      })),
      tariff,
    };
  }

  private db(): DataSource {
    if (!this.dataSource) throw new Error('OrderVersionRepository has no DataSource: pass a manager');
    return this.dataSource;
  }
}

const VERSION_SELECT = `SELECT version, kind, reason, actor_id, actor_name, request_key, before, after, created_at
  FROM charging_order_version`;

function toVersion(r: Record<string, unknown>): StoredVersion {
  return {
    version: Number(r['version']),
    kind: r['kind'] as OrderVersionKind,
    reason: String(r['reason']),
    actorId: r['actor_id'] === null ? null : Number(r['actor_id']),
    actorName: String(r['actor_name']),
    requestKey: String(r['request_key']),
    before: r['before'] as OrderState,
    after: r['after'] as OrderState,
    at: new Date(r['created_at'] as string),
  };
}

function stateOf(row: Record<string, unknown>): OrderState {
  const n = (column: string) => Number(row[column]);
  const bands = Object.fromEntries(
    (Object.entries(BAND_COLUMNS) as [StageType, string][]).map(([type, c]) => [
      type,
      {
        energyWh: n(`${c}_energy_wh`),
        electricityFen: n(`${c}_electricity_fen`),
        serviceFen: n(`${c}_service_fen`),
      },
    ]),
  ) as BilledAmounts['bands'];
  return {
    meterStopWh: n('meter_stop_wh'),
    stoppedAt: new Date(row['stopped_at'] as string).toISOString(),
    endReason: String(row['end_reason']),
    stopKind: row['stop_kind'] === 'abnormal' ? 'abnormal' : 'normal',
    energyWh: n('energy_wh'),
    startSoc: row['start_soc'] === null ? null : n('start_soc'),
    endSoc: row['end_soc'] === null ? null : n('end_soc'),
    payStatus: n('pay_status') as 0 | 1 | 3,
    abnormalReasons: (row['abnormal_reasons'] as AbnormalReasonCode[] | null) ?? [],
    pricePlanId: row['price_plan_id'] === null ? null : n('price_plan_id'),
    amounts: {
      discountPlanId: row['discount_plan_id'] === null ? null : n('discount_plan_id'),
      bands,
      electricityFen: n('electricity_fen'),
      serviceFen: n('service_fen'),
      totalFen: n('total_fen'),
      electricityDiscountFen: n('electricity_discount_fen'),
      serviceDiscountFen: n('service_discount_fen'),
    },
  };
}
