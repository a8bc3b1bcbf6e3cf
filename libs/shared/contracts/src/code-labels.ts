/**
 * The coded values of business-areas §4 and §9 with their labels in both languages: the one source the
 * server's spreadsheets (export cells, import parsing, template hints) and the console's i18n resources
 * (columns, selects, tags) both read. A label record is typed by its code list, so a code added to a
 * list and not labelled in both languages fails the typecheck.
 *
 * Where the spec names a value (station types, start types...) the English label keeps its words; the
 * other names are ours (docs/assets.md). Dictionary type codes (`station_type`...) are those of the
 * dictionaries API, which the console translates by.
 */
import type { ChargePointErrorCode, StopReason } from '@voltdepot/shared-ocpp';

/** The languages of the console and of the spreadsheets. */
export const LABEL_LANGUAGES = ['zh-CN', 'en-US'] as const;
export type LabelLanguage = (typeof LABEL_LANGUAGES)[number];

/** A label in every language. */
export type CodeLabel = Readonly<Record<LabelLanguage, string>>;
/** The labels of a code list: exactly one per code. */
export type CodeLabels<C extends string | number> = Readonly<Record<C, CodeLabel>>;

const l = (zh: string, en: string): CodeLabel => ({ 'zh-CN': zh, 'en-US': en });

/** A code list with its labels, in the list's order (a select's options, a sheet's dictionary). */
export function codeEntries<C extends string | number>(
  codes: readonly C[],
  labels: CodeLabels<C>,
): { value: string; label: CodeLabel }[] {
  return codes.map((code) => ({ value: String(code), label: labels[code] }));
}

/** One language's labels of a list by code (`{ '0': '未支付', ... }`): a console i18n resource. */
export function labelsOf<L extends CodeLabels<string | number>>(
  language: LabelLanguage,
  labels: L,
): { [Code in keyof L & (string | number) as `${Code}`]: string } {
  return Object.fromEntries(Object.entries(labels).map(([code, label]) => [code, label[language]])) as never;
}

/** One language's labels of several lists, by list name then code. */
export function labelsIn<T extends Record<string, CodeLabels<string | number>>>(
  language: LabelLanguage,
  lists: T,
): { [List in keyof T]: ReturnType<typeof labelsOf<T[List]>> } {
  return Object.fromEntries(
    Object.entries(lists).map(([list, labels]) => [list, labelsOf(language, labels)]),
  ) as never;
}

// ---- Flags written as words

/** A yes/no flag (`true`/`false` as a sheet or a query writes it). */
export const BOOLEAN_CODES = ['true', 'false'] as const;
export type BooleanCode = (typeof BOOLEAN_CODES)[number];
export const YES_NO_LABELS: CodeLabels<BooleanCode> = { true: l('是', 'Yes'), false: l('否', 'No') };
/** A user's or a record's enabled flag. */
export const ENABLED_LABELS: CodeLabels<BooleanCode> = {
  true: l('启用', 'Enabled'),
  false: l('停用', 'Disabled'),
};
/** A stop-charging code's `normal` flag. */
export const STOP_KIND_LABELS: CodeLabels<BooleanCode> = {
  true: l('正常停止', 'Stopped normally'),
  false: l('异常停止', 'Stopped abnormally'),
};

// ---- Basic data (business-areas §4, §9)

/** Station types (§9), dictionary `station_type`. */
export const STATION_TYPES = [0, 1, 100, 101, 102, 103, 255] as const;
export type StationType = (typeof STATION_TYPES)[number];
export const STATION_TYPE_LABELS: CodeLabels<StationType> = {
  0: l('专用', 'Private'),
  1: l('公共', 'Public'),
  100: l('公交', 'Bus'),
  101: l('环卫', 'Sanitation'),
  102: l('物流', 'Logistics'),
  103: l('出租车', 'Taxi'),
  255: l('其他', 'Other'),
};

/** Station status (§4), dictionary `station_status`. */
export const STATION_STATUSES = [0, 1, 2, 3] as const;
export type StationStatus = (typeof STATION_STATUSES)[number];
export const STATION_STATUS_LABELS: CodeLabels<StationStatus> = {
  0: l('使用中', 'In use'),
  1: l('建设中', 'Under construction'),
  2: l('维护中', 'Maintenance'),
  3: l('停用', 'Disabled'),
};

/** A charging host's device status (§4), dictionary `device_status`. */
export const DEVICE_STATUSES = [1, 5, 6, 50] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];
export const DEVICE_STATUS_LABELS: CodeLabels<DeviceStatus> = {
  1: l('建设中', 'Under construction'),
  5: l('离线停用', 'Offline and disabled'),
  6: l('长期维护', 'Long-term maintenance'),
  50: l('验收后正常', 'Normal after acceptance'),
};

/**
 * Charger (host) and charging types, dictionary `charger_type`. §9 gives the codes 0 to 8 and 255 and
 * names four kinds ("direct, communication (交流, AC), wireless, charge-and-discharge").
 */
export const CHARGER_TYPES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 255] as const;
export type ChargerType = (typeof CHARGER_TYPES)[number];
export const CHARGER_TYPE_LABELS: CodeLabels<ChargerType> = {
  0: l('直流', 'Direct current (DC)'),
  1: l('交流', 'Alternating current (AC)'),
  2: l('交直流一体', 'AC/DC combined'),
  3: l('无线', 'Wireless'),
  4: l('充放电', 'Charge-and-discharge (V2G)'),
  5: l('换电', 'Battery swap'),
  6: l('群充', 'Charging stack (shared power)'),
  7: l('移动充电', 'Mobile charging'),
  8: l('光储充', 'PV, storage and charging'),
  255: l('其他', 'Other'),
};

/** Start types (§9), dictionary `start_type`: a host's start mode and an order's. */
export const START_TYPES = [0, 1, 2, 3, 4] as const;
export type StartTypeCode = (typeof START_TYPES)[number];
export const START_TYPE_LABELS: CodeLabels<StartTypeCode> = {
  0: l('充满为止', 'Until full'),
  1: l('按时间', 'By time'),
  2: l('按百分比', 'By percent'),
  3: l('按金额', 'By amount'),
  4: l('按电量', 'By energy'),
};

/** National standard (§9), dictionary `national_standard`. */
export const NATIONAL_STANDARDS = [1, 2, 3, 255] as const;
export type NationalStandard = (typeof NATIONAL_STANDARDS)[number];
export const NATIONAL_STANDARD_LABELS: CodeLabels<NationalStandard> = {
  1: l('2011 版', '2011 edition'),
  2: l('2015 版', '2015 edition'),
  3: l('2011 或 2015 版', '2011 or 2015'),
  255: l('其他', 'Other'),
};

/** Payment (§9), dictionary `payment_mode`. */
export const PAYMENT_MODES = [0, 1] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];
export const PAYMENT_MODE_LABELS: CodeLabels<PaymentMode> = {
  0: l('后付费', 'Postpaid'),
  1: l('预付费', 'Prepaid'),
};

/** Connector types (§9), dictionary `connector_type`. */
export const CONNECTOR_TYPES = [1, 2, 3, 4, 5, 255] as const;
export type ConnectorType = (typeof CONNECTOR_TYPES)[number];
export const CONNECTOR_TYPE_LABELS: CodeLabels<ConnectorType> = {
  1: l('家用插座', 'Household socket'),
  2: l('交流接口插座', 'AC socket'),
  3: l('交流接口插头', 'AC plug'),
  4: l('直流接口枪头', 'DC gun'),
  5: l('无线充电座', 'Wireless pad'),
  255: l('其他', 'Other'),
};

/** BMS (auxiliary supply) power (§9), dictionary `bms_power`. */
export const BMS_POWERS = [1, 2, 3, 255] as const;
export type BmsPower = (typeof BMS_POWERS)[number];
export const BMS_POWER_LABELS: CodeLabels<BmsPower> = {
  1: l('12V', '12V'),
  2: l('24V', '24V'),
  3: l('自适应', 'Adaptive'),
  255: l('其他', 'Other'),
};

/** Ground lock (§4), dictionary `ground_lock_status`. */
export const GROUND_LOCK_STATUSES = [0, 10, 50] as const;
export type GroundLockStatus = (typeof GROUND_LOCK_STATUSES)[number];
export const GROUND_LOCK_STATUS_LABELS: CodeLabels<GroundLockStatus> = {
  0: l('未知', 'Unknown'),
  10: l('未上锁', 'Unlocked'),
  50: l('已上锁', 'Locked'),
};

/** Parking space types (§9), dictionary `parking_space_type`: a parking space's and a gun's place. */
export const PARKING_SPACE_TYPES = ['bus', 'social'] as const;
export type ParkingSpaceType = (typeof PARKING_SPACE_TYPES)[number];
export const PARKING_SPACE_TYPE_LABELS: CodeLabels<ParkingSpaceType> = {
  bus: l('公交车位', 'Bus'),
  social: l('社会车位', 'Social vehicle'),
};

/** Production plant types (§9), dictionary `manufacturer_type`. */
export const MANUFACTURER_TYPES = ['pile', 'car'] as const;
export type ManufacturerType = (typeof MANUFACTURER_TYPES)[number];
export const MANUFACTURER_TYPE_LABELS: CodeLabels<ManufacturerType> = {
  pile: l('充电桩厂家', 'Charging pile'),
  car: l('汽车厂家', 'Car manufacturer'),
};

/** Station label categories (§3), dictionary `label_type`. */
export const LABEL_TYPES = ['payment', 'nationalStandard', 'chargingType', 'stationType'] as const;
export type LabelType = (typeof LABEL_TYPES)[number];
export const LABEL_TYPE_LABELS: CodeLabels<LabelType> = {
  payment: l('支付方式', 'Payment'),
  nationalStandard: l('国标', 'National standard'),
  chargingType: l('充电类型', 'Charging type'),
  stationType: l('站点类型', 'Station type'),
};

/** Card types (§6, §9 codes 0 to 3), dictionary `card_type`. */
export const CARD_TYPES = [0, 1, 2, 3] as const;
export type CardType = (typeof CARD_TYPES)[number];
export const CARD_TYPE_LABELS: CodeLabels<CardType> = {
  0: l('司机卡', 'Driver'),
  1: l('消费卡', 'Consumer'),
  2: l('管理卡', 'Management'),
  3: l('充电卡', 'Charging'),
};

/** Card status (§4), dictionary `card_status`. */
export const CARD_STATUSES = ['notMade', 'normal', 'occupied', 'lost', 'cancelled', 'invalid'] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];
export const CARD_STATUS_LABELS: CodeLabels<CardStatus> = {
  notMade: l('未制卡', 'Not made'),
  normal: l('正常', 'Normal'),
  occupied: l('占用', 'Occupied'),
  lost: l('已挂失', 'Reported lost'),
  cancelled: l('已注销', 'Cancelled'),
  invalid: l('失效', 'Invalid'),
};

/** Alarm level (§9), dictionary `alarm_level`. */
export const ALARM_LEVELS = [0, 1, 2, 3] as const;
export type AlarmLevel = (typeof ALARM_LEVELS)[number];
export const ALARM_LEVEL_LABELS: CodeLabels<AlarmLevel> = {
  0: l('无', 'None'),
  1: l('一级', 'Level 1'),
  2: l('二级', 'Level 2'),
  3: l('三级', 'Level 3'),
};

/** Alarm category (§9), dictionary `alarm_category`. */
export const ALARM_CATEGORIES = ['general', 'energyStorage', 'driveMotor', 'engine', 'other'] as const;
export type AlarmCategory = (typeof ALARM_CATEGORIES)[number];
export const ALARM_CATEGORY_LABELS: CodeLabels<AlarmCategory> = {
  general: l('通用', 'General'),
  energyStorage: l('储能', 'Energy storage'),
  driveMotor: l('驱动电机', 'Drive motor'),
  engine: l('发动机', 'Engine'),
  other: l('其他', 'Other'),
};

/** A station's fee scope (§3 station fee settings: internal or external). */
export const FEE_SCOPES = ['internal', 'external'] as const;
export type FeeScope = (typeof FEE_SCOPES)[number];
export const FEE_SCOPE_LABELS: CodeLabels<FeeScope> = {
  internal: l('内部', 'Internal'),
  external: l('外部', 'External'),
};

// ---- Prices and orders

/**
 * Charging period types (§9), dictionary `charging_period_type`: a price plan's stages and the peak
 * charging times. This is the price plans' order; the peak-time grid lists them from valley up.
 */
export const STAGE_TYPE_CODES = ['sharp', 'peak', 'normal', 'valley', 'deepValley'] as const;
export type StageTypeCode = (typeof STAGE_TYPE_CODES)[number];
export const STAGE_TYPE_LABELS: CodeLabels<StageTypeCode> = {
  sharp: l('尖', 'Sharp'),
  peak: l('峰', 'Peak'),
  normal: l('平', 'Normal'),
  valley: l('谷', 'Valley'),
  deepValley: l('深谷', 'Deep valley'),
};

/** Client types (§6, §9), dictionary `client_type`: a discount plan's customer type. */
export const CUSTOMER_TYPES = [1, 2, 3] as const;
export type CustomerTypeCode = (typeof CUSTOMER_TYPES)[number];
export const CUSTOMER_TYPE_LABELS: CodeLabels<CustomerTypeCode> = {
  1: l('个人', 'Personal'),
  2: l('集团', 'Group'),
  3: l('集团外部卡', 'Group external card'),
};

/** Pay status (§4), dictionary `pay_status`. */
export const PAY_STATUSES = [0, 1, 3] as const;
export type PayStatusCode = (typeof PAY_STATUSES)[number];
export const PAY_STATUS_LABELS: CodeLabels<PayStatusCode> = {
  0: l('未支付', 'Unpaid'),
  1: l('已支付', 'Paid'),
  3: l('异常', 'Abnormal'),
};

/** Order status (§4), dictionary `order_status`. */
export const ORDER_STATUS_CODES = ['unpaid', 'paid', 'refund', 'abnormal', 'unsettled'] as const;
export type OrderStatusCode = (typeof ORDER_STATUS_CODES)[number];
export const ORDER_STATUS_LABELS: CodeLabels<OrderStatusCode> = {
  unpaid: l('未支付', 'Unpaid'),
  paid: l('已支付', 'Paid'),
  refund: l('已退款', 'Refund'),
  abnormal: l('异常', 'Abnormal'),
  unsettled: l('未结算', 'Unsettled'),
};

/** The approval status of a held (abnormal) order (§4 approval), dictionary `approval_status`. */
export const REVIEW_STATUSES = ['pending', 'audited', 'rejected'] as const;
export type ReviewStatusCode = (typeof REVIEW_STATUSES)[number];
export const REVIEW_STATUS_LABELS: CodeLabels<ReviewStatusCode> = {
  pending: l('待审核', 'Pending'),
  audited: l('已审核', 'Audited'),
  rejected: l('已驳回', 'Rejected'),
};

/** Operator actions on orders listed by the order operation log (reviews of held orders, amendments). */
export const ORDER_OPERATION_ACTIONS = ['approved', 'rejected', 'amended'] as const;
export type OrderOperationAction = (typeof ORDER_OPERATION_ACTIONS)[number];
export const ORDER_OPERATION_ACTION_LABELS: CodeLabels<OrderOperationAction> = {
  approved: l('审核通过', 'Approved'),
  rejected: l('审核驳回', 'Rejected'),
  amended: l('修正订单', 'Amended'),
};

/** Spec §8 charging-record exception types: the kind of record a held or flagged order is. */
export const ABNORMAL_TYPES = [
  'lostRecord',
  'repeatedRecord',
  'electricityMismatch',
  'meterDataError',
  'socOrderError',
  'vehicleMatchFailure',
  'socAbnormal',
] as const;
export type AbnormalType = (typeof ABNORMAL_TYPES)[number];
export const ABNORMAL_TYPE_LABELS: CodeLabels<AbnormalType> = {
  lostRecord: l('丢失记录', 'Lost record'),
  repeatedRecord: l('重复记录', 'Repeated record'),
  electricityMismatch: l('电量与电表不符', 'Electricity not matching meter'),
  meterDataError: l('电表数据错误', 'Meter data error'),
  socOrderError: l('起止SOC错误', 'Start and end SOC error'),
  vehicleMatchFailure: l('车辆匹配失败', 'Vehicle match failure'),
  socAbnormal: l('SOC异常', 'SOC abnormal'),
};

/**
 * Why settlement held an order for review, or flagged a billed one (an order's `abnormalReasons`; the
 * rules and thresholds are in docs/billing.md). `meterFractional` is only found on orders held before
 * decimal registers were accepted (migration 1764130000000).
 */
export const ABNORMAL_REASON_CODES = [
  'unknownTransaction',
  'startMissing',
  'stopMissing',
  'repeatedStop',
  'stopBeforeStart',
  'meterFlagged',
  'meterNegative',
  'meterFractional',
  'meterDecreased',
  'meterJump',
  'beyondCapacity',
  'socFalling',
  'noVehicle',
  'socOutOfRange',
  'noPricePlan',
] as const;
export type AbnormalReasonCode = (typeof ABNORMAL_REASON_CODES)[number];
export const ABNORMAL_REASON_LABELS: CodeLabels<AbnormalReasonCode> = {
  unknownTransaction: l('未知交易：有结束无开始', 'Unknown transaction: a stop without a start'),
  startMissing: l('等待超时仍未收到开始记录', 'The start never arrived'),
  stopMissing: l(
    '充电桩未上报结束记录，会话已按规则关闭',
    'The pile never stopped the session: closed by rule',
  ),
  repeatedStop: l('同一交易收到两条不一致的结束记录', 'A second, different stop for the same transaction'),
  stopBeforeStart: l('结束时间早于开始时间', 'The stop time is before the start time'),
  meterFlagged: l('充电桩上报的电表值不可信', 'The pile reported implausible meter values'),
  meterNegative: l('电表值为负数', 'A meter value is negative'),
  meterFractional: l(
    '电表值含小数（旧规则挂起，可审核通过）',
    'Decimal meter value (held by an earlier rule)',
  ),
  meterDecreased: l('电表读数倒退', 'The meter register decreased'),
  meterJump: l('电量增长超出充电桩功率', "Energy rising faster than the pile's power"),
  beyondCapacity: l('电量超出电池容量', 'Energy beyond battery capacity'),
  socFalling: l('开始 SOC 高于结束 SOC', 'The start SOC is above the end SOC'),
  noVehicle: l('未匹配到车辆', 'No vehicle matched'),
  socOutOfRange: l('SOC 超出 0-100', 'SOC outside 0-100'),
  noPricePlan: l('无生效的电价方案', 'No price plan in force'),
};
/** The exception type of each reason; null for a reason that is no data exception. */
export const ABNORMAL_REASON_TYPES: Readonly<Record<AbnormalReasonCode, AbnormalType | null>> = {
  unknownTransaction: 'lostRecord',
  startMissing: 'lostRecord',
  stopMissing: 'lostRecord',
  repeatedStop: 'repeatedRecord',
  stopBeforeStart: 'meterDataError',
  meterFlagged: 'meterDataError',
  meterNegative: 'meterDataError',
  meterFractional: 'meterDataError',
  meterDecreased: 'meterDataError',
  meterJump: 'meterDataError',
  beyondCapacity: 'electricityMismatch',
  socFalling: 'socOrderError',
  noVehicle: 'vehicleMatchFailure',
  socOutOfRange: 'socAbnormal',
  noPricePlan: null,
};

/**
 * The gateway rules that close a session its pile never stopped (the events' `AbandonRule`): a lost-stop
 * order says which one closed it.
 */
export const ABANDON_RULES = ['rebooted', 'newStart', 'connectorIdle', 'maxAge'] as const;
export type AbandonRuleCode = (typeof ABANDON_RULES)[number];
export const ABANDON_RULE_LABELS: CodeLabels<AbandonRuleCode> = {
  rebooted: l('充电桩重启', 'the pile rebooted'),
  newStart: l('同枪新的开始记录', 'a new start on the connector'),
  connectorIdle: l('充电枪空闲超时', 'the connector idle too long'),
  maxAge: l('会话超过最长时长', 'the session too old'),
};

/** What made a new version of an order (docs/billing.md "Amending an order"). */
export const ORDER_VERSION_KINDS = ['approved', 'amended', 'completed'] as const;
export type OrderVersionKind = (typeof ORDER_VERSION_KINDS)[number];
export const ORDER_VERSION_KIND_LABELS: CodeLabels<OrderVersionKind> = {
  approved: l('审核通过并计费', 'Approved and billed'),
  amended: l('人工修正', 'Amended'),
  completed: l('收到真实结束记录后补全', 'Completed by its real stop'),
};

/** Reservation status (§4), dictionary `reservation_status`. */
export const RESERVATION_STATUSES = ['successful', 'completed', 'timedOut', 'cancelled'] as const;
export type ReservationStatusCode = (typeof RESERVATION_STATUSES)[number];
export const RESERVATION_STATUS_LABELS: CodeLabels<ReservationStatusCode> = {
  successful: l('预约成功', 'Successful'),
  completed: l('已完成', 'Completed'),
  timedOut: l('已超时', 'Timed out'),
  cancelled: l('已取消', 'Cancelled'),
};

// ---- OCPP 1.6 codes the console shows (an order's end reason, a connector's fault, a pile's answer)

/** Why a transaction stopped (StopTransaction.reason): an order's end reason. */
export const STOP_REASON_LABELS: CodeLabels<StopReason> = {
  EmergencyStop: l('紧急停止', 'Emergency stop'),
  EVDisconnected: l('车辆断开连接', 'Vehicle disconnected'),
  HardReset: l('充电桩硬复位', 'Pile hard reset'),
  Local: l('充电桩本地停止', 'Local stop at the pile'),
  Other: l('其他原因', 'Other reason'),
  PowerLoss: l('充电桩断电', 'Power loss'),
  Reboot: l('充电桩重启', 'Pile rebooted'),
  Remote: l('远程停止', 'Remote stop'),
  SoftReset: l('充电桩软复位', 'Pile soft reset'),
  UnlockCommand: l('远程解锁充电枪', 'Connector unlocked remotely'),
  DeAuthorized: l('卡授权已失效', 'Authorization withdrawn'),
};

/** A connector's fault (StatusNotification.errorCode). */
export const CHARGE_POINT_ERROR_LABELS: CodeLabels<ChargePointErrorCode> = {
  ConnectorLockFailure: l('充电枪锁故障', 'Connector lock failure'),
  EVCommunicationError: l('与车辆通信故障', 'Vehicle communication error'),
  GroundFailure: l('接地故障', 'Ground failure'),
  HighTemperature: l('温度过高', 'High temperature'),
  InternalError: l('内部故障', 'Internal error'),
  LocalListConflict: l('本地授权列表冲突', 'Local list conflict'),
  NoError: l('无故障', 'No error'),
  OtherError: l('其他故障', 'Other error'),
  OverCurrentFailure: l('过流', 'Overcurrent'),
  PowerMeterFailure: l('电表故障', 'Power meter failure'),
  PowerSwitchFailure: l('电源开关故障', 'Power switch failure'),
  ReaderFailure: l('读卡器故障', 'Card reader failure'),
  ResetFailure: l('复位失败', 'Reset failure'),
  UnderVoltage: l('欠压', 'Undervoltage'),
  OverVoltage: l('过压', 'Overvoltage'),
  WeakSignal: l('信号弱', 'Weak signal'),
};

/** The statuses a pile answers the central system's commands with (the confirmations' `status`). */
export const COMMAND_ANSWER_STATUSES = [
  'Accepted',
  'Rejected',
  'Scheduled',
  'RebootRequired',
  'NotSupported',
  'NotImplemented',
  'Unknown',
  'Unlocked',
  'UnlockFailed',
  'Failed',
  'VersionMismatch',
  'Faulted',
  'Occupied',
  'Unavailable',
  'UnknownMessageId',
  'UnknownVendorId',
] as const;
export type CommandAnswerStatus = (typeof COMMAND_ANSWER_STATUSES)[number];
export const COMMAND_ANSWER_STATUS_LABELS: CodeLabels<CommandAnswerStatus> = {
  Accepted: l('已接受', 'Accepted'),
  Rejected: l('已拒绝', 'Rejected'),
  Scheduled: l('已排期', 'Scheduled'),
  RebootRequired: l('需重启后生效', 'Takes effect after a reboot'),
  NotSupported: l('不支持', 'Not supported'),
  NotImplemented: l('未实现', 'Not implemented'),
  Unknown: l('未知', 'Unknown'),
  Unlocked: l('已解锁', 'Unlocked'),
  UnlockFailed: l('解锁失败', 'Unlock failed'),
  Failed: l('失败', 'Failed'),
  VersionMismatch: l('版本不匹配', 'Version mismatch'),
  Faulted: l('故障', 'Faulted'),
  Occupied: l('占用中', 'Occupied'),
  Unavailable: l('不可用', 'Unavailable'),
  UnknownMessageId: l('未知消息 ID', 'Unknown message ID'),
  UnknownVendorId: l('未知厂商 ID', 'Unknown vendor ID'),
};

/**
 * The labelled lists by dictionary type code: the console translates a dictionary item by
 * `<dictionary>.<value>` from these.
 */
export const DICTIONARY_LABELS = {
  station_type: STATION_TYPE_LABELS,
  station_status: STATION_STATUS_LABELS,
  device_status: DEVICE_STATUS_LABELS,
  charger_type: CHARGER_TYPE_LABELS,
  start_type: START_TYPE_LABELS,
  national_standard: NATIONAL_STANDARD_LABELS,
  payment_mode: PAYMENT_MODE_LABELS,
  connector_type: CONNECTOR_TYPE_LABELS,
  bms_power: BMS_POWER_LABELS,
  ground_lock_status: GROUND_LOCK_STATUS_LABELS,
  parking_space_type: PARKING_SPACE_TYPE_LABELS,
  manufacturer_type: MANUFACTURER_TYPE_LABELS,
  label_type: LABEL_TYPE_LABELS,
  card_type: CARD_TYPE_LABELS,
  card_status: CARD_STATUS_LABELS,
  alarm_level: ALARM_LEVEL_LABELS,
  alarm_category: ALARM_CATEGORY_LABELS,
  charging_period_type: STAGE_TYPE_LABELS,
  client_type: CUSTOMER_TYPE_LABELS,
  pay_status: PAY_STATUS_LABELS,
  order_status: ORDER_STATUS_LABELS,
  approval_status: REVIEW_STATUS_LABELS,
  reservation_status: RESERVATION_STATUS_LABELS,
} as const;
export type LabelledDictionary = keyof typeof DICTIONARY_LABELS;
