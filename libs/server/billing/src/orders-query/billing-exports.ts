import type { ChargingOrderRow } from './dto/order-query.dto';
import type { DiscountPlanView } from '../discount-plans/dto/discount-plan.dto';
import type { PricePlanView } from '../price-plans/dto/price-plan.dto';
import {
  ABNORMAL_REASON_LABELS,
  BOOLEAN_CODES,
  codeEntries,
  CUSTOMER_TYPE_LABELS,
  CUSTOMER_TYPES,
  FEE_SCOPE_LABELS,
  FEE_SCOPES,
  ORDER_STATUS_CODES,
  ORDER_STATUS_LABELS,
  PAY_STATUS_LABELS,
  PAY_STATUSES,
  RESERVATION_STATUS_LABELS,
  RESERVATION_STATUSES,
  REVIEW_STATUS_LABELS,
  REVIEW_STATUSES,
  STAGE_TYPE_CODES,
  STAGE_TYPE_LABELS,
  YES_NO_LABELS,
} from '@voltdepot/shared-contracts';
import { type Localized, sheetDateTime, type SpreadsheetColumn } from '@voltdepot/server-spreadsheet';
import type { OccupationOrderView } from '../occupation/dto/occupation-order.dto';
import type { ReservationView } from '../reservations/dto/reservation.dto';

/** Fen as yuan (exact: two decimals). */
export const yuan = (fen: number): number => Math.round(fen) / 100;
/** Wh as kWh (exact: three decimals). */
export const kwh = (wh: number): number => Math.round(wh) / 1000;

const h = (zh: string, en: string): Localized => ({ 'zh-CN': zh, 'en-US': en });
// The code labels the console shows too (libs/shared/contracts).
const STAGE_TYPES = codeEntries(STAGE_TYPE_CODES, STAGE_TYPE_LABELS);
const PAY_STATUS = codeEntries(PAY_STATUSES, PAY_STATUS_LABELS);
const ORDER_STATUS = codeEntries(ORDER_STATUS_CODES, ORDER_STATUS_LABELS);
const REVIEW_STATUS = codeEntries(REVIEW_STATUSES, REVIEW_STATUS_LABELS);
const CUSTOMER_TYPE = codeEntries(CUSTOMER_TYPES, CUSTOMER_TYPE_LABELS);
const YES_NO = codeEntries(BOOLEAN_CODES, YES_NO_LABELS);
const FEE_SCOPE = codeEntries(FEE_SCOPES, FEE_SCOPE_LABELS);
const RESERVATION_STATUS = codeEntries(RESERVATION_STATUSES, RESERVATION_STATUS_LABELS);

const MONEY = '0.00';
const ENERGY = '0.000';
const PRICE = '0.0000';

export const ORDER_COLUMNS: SpreadsheetColumn<ChargingOrderRow>[] = [
  { key: 'orderNo', header: h('订单号', 'Order number'), width: 28 },
  { key: 'stationName', header: h('充电站', 'Station') },
  { key: 'pileName', header: h('充电桩', 'Charger'), value: (r) => r.pileName ?? r.chargePointId },
  { key: 'gunName', header: h('充电枪', 'Gun'), value: (r) => r.gunName ?? String(r.connectorId) },
  { key: 'idTag', header: h('卡号', 'Card number') },
  { key: 'vehiclePlate', header: h('车牌号', 'Plate number'), width: 14 },
  { key: 'startedAt', header: h('开始时间', 'Start time'), value: (r) => sheetDateTime(r.startedAt) },
  { key: 'stoppedAt', header: h('结束时间', 'End time'), value: (r) => sheetDateTime(r.stoppedAt) },
  {
    key: 'duration',
    header: h('充电时长(分钟)', 'Duration (min)'),
    value: (r) => (r.durationSeconds === null ? null : Math.round(r.durationSeconds / 60)),
    width: 14,
  },
  { key: 'startSoc', header: h('开始SOC(%)', 'Start SOC (%)'), width: 12 },
  { key: 'endSoc', header: h('结束SOC(%)', 'End SOC (%)'), width: 12 },
  { key: 'energy', header: h('电量(kW·h)', 'Energy (kW·h)'), value: (r) => kwh(r.energyWh), numFmt: ENERGY },
  {
    key: 'electricity',
    header: h('电费(元)', 'Electricity fee (yuan)'),
    value: (r) => yuan(r.electricityFen),
    numFmt: MONEY,
  },
  {
    key: 'service',
    header: h('服务费(元)', 'Service fee (yuan)'),
    value: (r) => yuan(r.serviceFen),
    numFmt: MONEY,
  },
  {
    key: 'discount',
    header: h('优惠(元)', 'Discount (yuan)'),
    value: (r) => yuan(r.discountFen),
    numFmt: MONEY,
  },
  {
    key: 'total',
    header: h('总费用(元)', 'Total cost (yuan)'),
    value: (r) => yuan(r.totalFen),
    numFmt: MONEY,
  },
  { key: 'payStatus', header: h('支付状态', 'Pay status'), dictionary: PAY_STATUS, width: 12 },
  { key: 'orderStatus', header: h('订单状态', 'Order status'), dictionary: ORDER_STATUS, width: 12 },
  {
    key: 'reviewStatus',
    header: h('审核状态', 'Review status'),
    dictionary: REVIEW_STATUS,
    width: 12,
  },
  {
    key: 'abnormalReasons',
    header: h('异常原因', 'Abnormal reasons'),
    value: (r, language) =>
      r.abnormalReasons.length
        ? r.abnormalReasons.map((code) => ABNORMAL_REASON_LABELS[code][language]).join('; ')
        : null,
    width: 40,
  },
  { key: 'endReason', header: h('结束原因', 'End reason'), width: 16 },
];

type StageRow = { plan: PricePlanView; stage: PricePlanView['stages'][number] };

/** One row per stage: the plan's name repeated, so the sheet filters and sorts by plan. */
export const PRICE_PLAN_COLUMNS: SpreadsheetColumn<StageRow>[] = [
  { key: 'name', header: h('方案名称', 'Plan name'), value: (r) => r.plan.name, width: 24 },
  {
    key: 'isDefault',
    header: h('默认方案', 'Default plan'),
    value: (r) => String(r.plan.isDefault),
    dictionary: YES_NO,
    width: 10,
  },
  {
    key: 'stageType',
    header: h('时段类型', 'Stage type'),
    value: (r) => r.stage.stageType,
    dictionary: STAGE_TYPES,
    width: 10,
  },
  { key: 'startTime', header: h('开始时间', 'Start time'), value: (r) => r.stage.startTime, width: 10 },
  { key: 'endTime', header: h('结束时间', 'End time'), value: (r) => r.stage.endTime, width: 10 },
  {
    key: 'electricityPrice',
    header: h('电价(元/kW·h)', 'Electricity price (yuan/kW·h)'),
    value: (r) => Number(r.stage.electricityPrice),
    numFmt: PRICE,
  },
  {
    key: 'serviceFee',
    header: h('服务费(元/kW·h)', 'Service fee (yuan/kW·h)'),
    value: (r) => Number(r.stage.serviceFee),
    numFmt: PRICE,
  },
  {
    key: 'updatedAt',
    header: h('更新时间', 'Updated at'),
    value: (r) => sheetDateTime(r.plan.updatedAt),
  },
];

export function stageRows(plans: PricePlanView[]): StageRow[] {
  return plans.flatMap((plan) => plan.stages.map((stage) => ({ plan, stage })));
}

export const DISCOUNT_PLAN_COLUMNS: SpreadsheetColumn<DiscountPlanView>[] = [
  { key: 'name', header: h('方案名称', 'Plan name'), width: 24 },
  {
    key: 'customerType',
    header: h('客户类型', 'Customer type'),
    value: (r) => String(r.customerType),
    dictionary: CUSTOMER_TYPE,
  },
  { key: 'priceDiscount', header: h('电价折扣(%)', 'Price discount (%)'), width: 14 },
  { key: 'serviceFeeDiscount', header: h('服务费折扣(%)', 'Service fee discount (%)'), width: 14 },
  { key: 'validFrom', header: h('生效时间', 'Valid from'), value: (r) => sheetDateTime(r.validFrom) },
  { key: 'validTo', header: h('失效时间', 'Valid to'), value: (r) => sheetDateTime(r.validTo) },
  {
    key: 'enabled',
    header: h('启用', 'Enabled'),
    value: (r) => String(r.enabled),
    dictionary: YES_NO,
    width: 8,
  },
  {
    key: 'details',
    header: h('卡号明细', 'Cards'),
    value: (r) => r.details.map((d) => d.idTag).join(', '),
    width: 40,
  },
  { key: 'updatedAt', header: h('更新时间', 'Updated at'), value: (r) => sheetDateTime(r.updatedAt) },
];

export const OCCUPATION_ORDER_COLUMNS: SpreadsheetColumn<OccupationOrderView>[] = [
  { key: 'orderNo', header: h('占位订单号', 'Occupation order number'), width: 28 },
  { key: 'chargingOrderNo', header: h('充电订单号', 'Charging order number'), width: 28 },
  { key: 'stationName', header: h('充电站', 'Station') },
  { key: 'pileName', header: h('充电桩', 'Charger'), value: (r) => r.pileName ?? r.chargePointId },
  { key: 'gunName', header: h('充电枪', 'Gun'), value: (r) => r.gunName ?? String(r.connectorId) },
  { key: 'idTag', header: h('卡号', 'Card number') },
  { key: 'feeScope', header: h('收费范围', 'Fee scope'), dictionary: FEE_SCOPE, width: 10 },
  {
    key: 'occupiedFrom',
    header: h('占位开始', 'Occupied from'),
    value: (r) => sheetDateTime(r.occupiedFrom),
  },
  { key: 'occupiedTo', header: h('占位结束', 'Occupied to'), value: (r) => sheetDateTime(r.occupiedTo) },
  {
    key: 'occupiedMinutes',
    header: h('占位时长(分钟)', 'Occupied (min)'),
    value: (r) => Math.floor(r.occupiedSeconds / 60),
    width: 14,
  },
  { key: 'freeMinutes', header: h('免费时长(分钟)', 'Free minutes'), width: 14 },
  { key: 'intervalMinutes', header: h('计费间隔(分钟)', 'Interval (min)'), width: 14 },
  {
    key: 'unitPrice',
    header: h('单价(元/间隔)', 'Unit price (yuan/interval)'),
    value: (r) => yuan(r.unitPriceFen),
    numFmt: MONEY,
  },
  {
    key: 'cap',
    header: h('封顶金额(元)', 'Cap (yuan)'),
    value: (r) => (r.cappedAmountFen ? yuan(r.cappedAmountFen) : null),
    numFmt: MONEY,
  },
  { key: 'billableIntervals', header: h('计费间隔数', 'Billable intervals'), width: 12 },
  {
    key: 'amount',
    header: h('占位费(元)', 'Occupation fee (yuan)'),
    value: (r) => yuan(r.amountFen),
    numFmt: MONEY,
  },
  {
    key: 'payStatus',
    header: h('支付状态', 'Pay status'),
    value: (r) => String(r.payStatus),
    dictionary: PAY_STATUS,
    width: 12,
  },
];

export const RESERVATION_COLUMNS: SpreadsheetColumn<ReservationView>[] = [
  { key: 'reservationId', header: h('预约号', 'Reservation id'), width: 12 },
  { key: 'stationName', header: h('充电站', 'Station') },
  { key: 'pileName', header: h('充电桩', 'Charger') },
  { key: 'gunName', header: h('充电枪', 'Gun'), value: (r) => r.gunName ?? String(r.connectorId) },
  { key: 'idTag', header: h('卡号', 'Card number') },
  { key: 'cardholder', header: h('持卡人', 'Cardholder') },
  { key: 'reservedAt', header: h('预约时间', 'Reserved at'), value: (r) => sheetDateTime(r.reservedAt) },
  { key: 'expiryDate', header: h('失效时间', 'Expires at'), value: (r) => sheetDateTime(r.expiryDate) },
  { key: 'status', header: h('状态', 'Status'), dictionary: RESERVATION_STATUS, width: 12 },
  { key: 'endedAt', header: h('结束时间', 'Ended at'), value: (r) => sheetDateTime(r.endedAt) },
  { key: 'chargingOrderNo', header: h('充电订单号', 'Charging order number'), width: 28 },
];
