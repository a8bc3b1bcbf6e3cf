import { z } from 'zod';
import { apiSchemas, view } from '@voltdepot/server-core';
import {
  ABANDON_RULES,
  ABNORMAL_REASON_CODES,
  ORDER_VERSION_KINDS,
  ORDER_STATUS_CODES,
  STAGE_TYPE_CODES,
} from '@voltdepot/shared-contracts';
import {
  blankToUndefined,
  exportLanguageSchema,
  payStatusFilter,
  queryId,
  queryText,
  withPeriod,
} from '../../shared/query-params';

/** Filters of the order query; `start`/`end` bound the stop time (both inclusive). */
export const orderQuerySchema = withPeriod({
  stationId: queryId,
  pileId: queryId,
  gunId: queryId,
  /** Plate or VIN, or part of it. */
  vehicle: queryText(32),
  /** Card physical number (the OCPP idTag) or self number, or part of it. */
  card: queryText(32),
  orderNo: queryText(40),
  payStatus: payStatusFilter,
  orderStatus: z.preprocess(
    blankToUndefined,
    z
      .enum(ORDER_STATUS_CODES, {
        errorMap: () => ({ message: `must be one of ${ORDER_STATUS_CODES.join(', ')}` }),
      })
      .optional(),
  ),
  /** Only orders held for review at settlement (the abnormal-order screen). */
  held: z.preprocess(
    blankToUndefined,
    z
      .enum(['true', 'false'], { errorMap: () => ({ message: 'must be true or false' }) })
      .transform((v) => v === 'true')
      .optional(),
  ),
  reviewStatus: z.preprocess(
    blankToUndefined,
    z
      .enum(['pending', 'audited', 'rejected'], {
        errorMap: () => ({ message: 'must be pending, audited or rejected' }),
      })
      .optional(),
  ),
  /** Orders held or flagged for this reason (`repeatedStop`: the repeated records). */
  abnormalReason: z.preprocess(
    blankToUndefined,
    z
      .enum(ABNORMAL_REASON_CODES, {
        errorMap: () => ({ message: `must be one of ${ABNORMAL_REASON_CODES.join(', ')}` }),
      })
      .optional(),
  ),
});
export type OrderQuery = z.output<typeof orderQuerySchema>;

export const orderExportSchema = orderQuerySchema.and(exportLanguageSchema);

// Answers: money in integer fen, energy in integer Wh, instants ISO 8601.

const id = z.number().int();
const fen = z.number().int();
const wh = z.number().int();
/** An order's pay status (dictionary `pay_status`). */
export const payStatusSchema = z
  .union([z.literal(0), z.literal(1), z.literal(3)])
  .describe('0 unpaid, 1 paid, 3 abnormal');

export const chargingOrderRowSchema = apiSchemas.named(
  'ChargingOrderRow',
  view({
    id,
    orderNo: z.string(),
    chargePointId: z.string(),
    connectorId: z.number().int(),
    transactionId: z.number().int(),
    stationId: id.nullable(),
    stationName: z.string().nullable(),
    pileId: id.nullable(),
    pileName: z.string().nullable(),
    gunId: id.nullable(),
    gunName: z.string().nullable(),
    idTag: z.string().nullable(),
    cardSelfNumber: z.string().nullable(),
    vehicleId: id.nullable().describe('The bus matched when the order was settled'),
    vehiclePlate: z.string().nullable(),
    vehicleVin: z.string().nullable(),
    startedAt: z.string().nullable(),
    stoppedAt: z.string(),
    durationSeconds: z.number().int().nullable(),
    energyWh: wh,
    startSoc: z.number().nullable(),
    endSoc: z.number().nullable(),
    electricityFen: fen,
    serviceFen: fen,
    totalFen: fen,
    discountFen: fen,
    payStatus: payStatusSchema,
    orderStatus: z.enum(ORDER_STATUS_CODES),
    reviewStatus: z
      .enum(['pending', 'audited', 'rejected'])
      .nullable()
      .describe('Set for orders held for review at settlement'),
    abnormalReasons: z
      .array(z.enum(ABNORMAL_REASON_CODES))
      .describe(
        'Why the order is held (pay status 3) or flagged for review; each code has an exception type (ABNORMAL_REASON_TYPES) and labels',
      ),
    endReason: z.string(),
    stopKind: z.enum(['normal', 'abnormal']),
    startMode: z
      .union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)])
      .describe("The pile's start mode when the order was settled"),
    settledAt: z.string(),
    version: z.number().int().describe('1 as settled, one more for each amendment'),
    occupationOrderId: id.nullable(),
    occupationOrderNo: z.string().nullable(),
    occupationFeeFen: fen.nullable(),
  }),
);
export type ChargingOrderRow = z.infer<typeof chargingOrderRowSchema>;

export const chargingOrderTotalsSchema = apiSchemas.named(
  'ChargingOrderTotals',
  view({
    count: z.number().int(),
    energyWh: wh,
    electricityFen: fen,
    serviceFen: fen,
    totalFen: fen,
    discountFen: fen,
  }).describe('Sums of every matching order, not only the page'),
);
export type ChargingOrderTotals = z.infer<typeof chargingOrderTotalsSchema>;

export const chargingOrderPageSchema = apiSchemas.named(
  'ChargingOrderPage',
  view({
    list: z.array(chargingOrderRowSchema),
    total: z.number().int(),
    totals: chargingOrderTotalsSchema,
  }),
);
export type ChargingOrderPage = z.infer<typeof chargingOrderPageSchema>;

const orderLogEntrySchema = apiSchemas.named(
  'OrderLogEntry',
  view({
    at: z.string(),
    action: z.enum(['started', 'stopped', 'settled', 'held', 'approved', 'rejected', 'amended', 'completed']),
    by: z.string().nullable(),
    detail: z.string().nullable(),
    amountFen: fen.nullable(),
    reasons: z.array(z.enum(ABNORMAL_REASON_CODES)),
  }),
);
export type OrderLogEntry = z.infer<typeof orderLogEntrySchema>;

/** The energy and money of one tariff band of an order. */
const orderBandRowSchema = apiSchemas.named(
  'OrderBandRow',
  view({
    stageType: z.enum(STAGE_TYPE_CODES),
    energyWh: wh,
    electricityFen: fen,
    serviceFen: fen,
    totalFen: fen,
  }),
);
export type OrderBandRow = z.infer<typeof orderBandRowSchema>;

/** One version of an order: 1 as settled, then each change (who, why, the figures, the difference). */
const orderVersionRowSchema = apiSchemas.named(
  'OrderVersionRow',
  view({
    version: z.number().int(),
    kind: z.enum(['settled', ...ORDER_VERSION_KINDS]),
    at: z.string(),
    by: z.string().nullable().describe('Null for the settlement; `system` for a completion by the pile'),
    reason: z.string().nullable(),
    meterStopWh: wh,
    energyWh: wh,
    totalFen: fen,
    payStatus: payStatusSchema,
    energyDeltaWh: wh.describe('This version minus the one before (0 for version 1)'),
    totalDeltaFen: fen,
  }),
);
export type OrderVersionRow = z.infer<typeof orderVersionRowSchema>;

/** A second StopTransaction of the order's transaction (the first one is billed). */
const repeatStopRowSchema = apiSchemas.named(
  'RepeatStopRow',
  view({
    stoppedAt: z.string(),
    meterStopWh: wh,
    reason: z.string(),
    disagrees: z.boolean().describe('Another meter stop or reason than the billed stop: flags the order'),
    receivedAt: z.string(),
  }),
);

export const chargingOrderDetailSchema = apiSchemas.named(
  'ChargingOrderDetail',
  chargingOrderRowSchema.extend({
    meterStartWh: wh.nullable(),
    meterStopWh: wh,
    pricePlanId: id.nullable(),
    pricePlanName: z.string().nullable(),
    discountPlanId: id.nullable(),
    discountPlanName: z.string().nullable(),
    electricityDiscountFen: fen,
    serviceDiscountFen: fen,
    totalWithOccupationFen: fen.describe("The order's total plus its occupation fee (if any)"),
    bands: z.array(orderBandRowSchema),
    energySeries: z.array(view({ at: z.string(), energyWh: wh })),
    powerSeries: z.array(view({ at: z.string(), powerW: z.number() })),
    socSeries: z.array(view({ at: z.string(), soc: z.number() })),
    review: view({
      decision: z.enum(['approve', 'reject']),
      reason: z.string(),
      reviewer: z.string(),
      at: z.string(),
    }).nullable(),
    log: z.array(orderLogEntrySchema),
    abandonRule: z
      .enum(ABANDON_RULES)
      .nullable()
      .describe('The gateway rule that closed a session its pile never stopped (a lost stop)'),
    versions: z.array(orderVersionRowSchema),
    repeatStops: z.array(repeatStopRowSchema),
  }),
);
export type ChargingOrderDetail = z.infer<typeof chargingOrderDetailSchema>;

export const orderFilterOptionsSchema = apiSchemas.named(
  'OrderFilterOptions',
  view({
    stations: z.array(view({ id, name: z.string() })),
    piles: z.array(view({ id, name: z.string(), stationId: id.nullable(), chargePointId: z.string() })),
    guns: z.array(view({ id, name: z.string(), pileId: id, channel: z.number().int() })),
  }),
);
export type OrderFilterOptions = z.infer<typeof orderFilterOptionsSchema>;
