/**
 * Shapes of the billing screens' API (price plans, discount plans, charging orders). Money is integer
 * fen and energy integer Wh in every answer; prices per kWh are decimal yuan strings with 4 decimals.
 */
import type { GridPage } from './grid';

/** Spec §9 charging period types, in the order the console lists them. */
export const STAGE_TYPE_CODES = ['sharp', 'peak', 'normal', 'valley', 'deepValley'] as const;
export type StageTypeCode = (typeof STAGE_TYPE_CODES)[number];

export type PricePlanStageView = {
  stageType: StageTypeCode;
  /** HH:mm */
  startTime: string;
  /** HH:mm, or 24:00; a stage ending at or before its start runs over midnight. */
  endTime: string;
  /** Yuan per kWh, 4 decimals ("0.8523"). */
  electricityPrice: string;
  serviceFee: string;
};

export type PricePlanView = {
  id: number;
  name: string;
  isDefault: boolean;
  updatedAt: string;
  /** From when the current stages apply (null: since always); later than now: a scheduled change. */
  effectiveFrom?: string | null;
  stages: PricePlanStageView[];
};

export type SavePricePlanBody = {
  name: string;
  isDefault: boolean;
  stages: PricePlanStageView[];
  /** From when edited stages apply (ISO-8601 with offset, not in the past); absent: now. */
  effectiveFrom?: string;
};

/** One entry of a station's price plan history (GET /api/pricePlan/station/{stationId}), newest first. */
export type StationPricePlanView = {
  planId: number;
  planName: string;
  from: string;
  /** null: in force from `from` on (the latest assignment). */
  until: string | null;
  assignedAt: string;
  assignedBy: string | null;
};

/** Operator actions on orders listed by the order operation log (the review of held orders). */
export const ORDER_OPERATION_ACTIONS = ['approved', 'rejected'] as const;
export type OrderOperationAction = (typeof ORDER_OPERATION_ACTIONS)[number];

/** One operator action on an order (GET /api/orderOperation/page/{page}/size/{size}). */
export type OrderOperationRow = {
  /** Unique per action: `<kind>:<source id>`. */
  id: string;
  at: string;
  action: OrderOperationAction;
  operator: string;
  orderId: number;
  orderNo: string;
  stationName: string | null;
  /** The reason the operator gave. */
  detail: string | null;
  /** Amount billed by the action (approval), fen. */
  amountFen: number | null;
};

/** Spec §9 client types: 1 personal, 2 group, 3 group external card. */
export type CustomerTypeCode = 1 | 2 | 3;

export type DiscountPlanView = {
  id: number;
  name: string;
  customerType: CustomerTypeCode;
  /** Whole percentage of the electricity fee to pay (95 = 5 % off). */
  priceDiscount: number;
  serviceFeeDiscount: number;
  validFrom: string;
  validTo: string;
  enabled: boolean;
  updatedAt: string;
  details: { idTag: string }[];
};

export type SaveDiscountPlanBody = Omit<DiscountPlanView, 'id' | 'updatedAt'>;

/** Spec §4 pay status codes: 0 unpaid, 1 paid, 3 abnormal. */
export type PayStatusCode = 0 | 1 | 3;
/** Spec §4 order status. */
export const ORDER_STATUS_CODES = ['unpaid', 'paid', 'refund', 'abnormal', 'unsettled'] as const;
export type OrderStatusCode = (typeof ORDER_STATUS_CODES)[number];
/** The approval status of a held (abnormal) order (dictionary approval_status). */
export type ReviewStatusCode = 'pending' | 'audited' | 'rejected';
export type ReviewDecision = 'approve' | 'reject';
/** Spec §9 start types (dictionary start_type): 0 until full, 1 by time, 2 by percent, 3 by amount, 4 by energy. */
export type StartTypeCode = 0 | 1 | 2 | 3 | 4;

export type ChargingOrderRow = {
  id: number;
  orderNo: string;
  chargePointId: string;
  connectorId: number;
  transactionId: number;
  stationId: number | null;
  stationName: string | null;
  pileId: number | null;
  pileName: string | null;
  gunId: number | null;
  gunName: string | null;
  idTag: string | null;
  cardSelfNumber: string | null;
  /** The bus matched when the order was settled (kept on the order; re-binding a card changes nothing). */
  vehicleId: number | null;
  vehiclePlate: string | null;
  vehicleVin: string | null;
  startedAt: string | null;
  stoppedAt: string;
  durationSeconds: number | null;
  energyWh: number;
  startSoc: number | null;
  endSoc: number | null;
  electricityFen: number;
  serviceFen: number;
  totalFen: number;
  discountFen: number;
  payStatus: PayStatusCode;
  orderStatus: OrderStatusCode;
  /** Set for orders held for review at settlement. */
  reviewStatus: ReviewStatusCode | null;
  abnormalReasons: string[];
  endReason: string;
  stopKind: 'normal' | 'abnormal';
  /** The pile's start mode when the order was settled. */
  startMode: StartTypeCode;
  settledAt: string;
  /** The occupation fee order of the same session, if the gun stayed occupied at a cost. */
  occupationOrderId: number | null;
  occupationOrderNo: string | null;
  occupationFeeFen: number | null;
};

export type ChargingOrderTotals = {
  count: number;
  energyWh: number;
  electricityFen: number;
  serviceFen: number;
  totalFen: number;
  discountFen: number;
};

export type ChargingOrderPage = GridPage<ChargingOrderRow> & { totals: ChargingOrderTotals };

export type OrderBandRow = {
  stageType: StageTypeCode;
  energyWh: number;
  electricityFen: number;
  serviceFen: number;
  totalFen: number;
};

export type OrderLogEntry = {
  at: string;
  action: 'started' | 'stopped' | 'settled' | 'held' | 'approved' | 'rejected';
  /** Who acted (reviews); null for the pile and the settlement. */
  by: string | null;
  /** Card (started), end reason (stopped) or review reason. */
  detail: string | null;
  /** Amount billed (settled, approved). */
  amountFen: number | null;
  /** Why the order was held (held). */
  reasons: string[];
};

export type ChargingOrderDetail = ChargingOrderRow & {
  meterStartWh: number | null;
  meterStopWh: number;
  pricePlanId: number | null;
  pricePlanName: string | null;
  discountPlanId: number | null;
  discountPlanName: string | null;
  electricityDiscountFen: number;
  serviceDiscountFen: number;
  /** The order's total plus its occupation fee (if any). */
  totalWithOccupationFen: number;
  bands: OrderBandRow[];
  /** Energy of the session so far (Wh from the start reading) at the start, each sample and the stop. */
  energySeries: { at: string; energyWh: number }[];
  /** Average power over each interval between two energy readings (W), at the interval's end. */
  powerSeries: { at: string; powerW: number }[];
  socSeries: { at: string; soc: number }[];
  review: { decision: ReviewDecision; reason: string; reviewer: string; at: string } | null;
  log: OrderLogEntry[];
};

/** Options of the order filters: stations, their piles and the piles' guns. */
export type OrderFilterOptions = {
  stations: { id: number; name: string }[];
  piles: { id: number; name: string; stationId: number | null; chargePointId: string }[];
  guns: { id: number; name: string; pileId: number; channel: number }[];
};

/** An occupation fee order: the gun stayed occupied after the session (money in fen). */
export type OccupationOrderRow = {
  id: number;
  orderNo: string;
  chargingOrderNo: string;
  /** Null until the charging order is settled. */
  chargingOrderId: number | null;
  chargePointId: string;
  connectorId: number;
  transactionId: number;
  stationId: number | null;
  stationName: string | null;
  pileId: number | null;
  pileName: string | null;
  gunId: number | null;
  gunName: string | null;
  idTag: string | null;
  feeScope: 'internal' | 'external';
  occupiedFrom: string;
  occupiedTo: string;
  occupiedSeconds: number;
  freeMinutes: number;
  intervalMinutes: number;
  unitPriceFen: number;
  /** 0: no cap. */
  cappedAmountFen: number;
  billableIntervals: number;
  amountFen: number;
  payStatus: number;
  createdAt: string;
};

export type OccupationOrderPage = GridPage<OccupationOrderRow> & { totalAmountFen: number };

/** Spec §4 reservation status. */
export type ReservationStatusCode = 'successful' | 'completed' | 'timedOut' | 'cancelled';

/** A reservation a pile accepted (ReserveNow), with what became of it. */
export type ReservationRow = {
  id: string;
  reservationId: number;
  chargePointId: string;
  connectorId: number;
  stationId: number | null;
  stationName: string | null;
  pileId: number;
  pileName: string;
  gunId: number | null;
  gunName: string | null;
  idTag: string;
  cardholder: string | null;
  reservedAt: string;
  expiryDate: string;
  status: ReservationStatusCode;
  endedAt: string | null;
  transactionId: number | null;
  chargingOrderNo: string | null;
};
