import {
  ALARM_CATEGORIES,
  ALARM_CATEGORY_LABELS,
  ALARM_LEVEL_LABELS,
  ALARM_LEVELS,
  BMS_POWER_LABELS,
  BMS_POWERS,
  CARD_STATUS_LABELS,
  CARD_STATUSES,
  CARD_TYPE_LABELS,
  CARD_TYPES,
  CHARGER_TYPE_LABELS,
  CHARGER_TYPES,
  codeEntries,
  CONNECTOR_TYPE_LABELS,
  CONNECTOR_TYPES,
  DEVICE_STATUS_LABELS,
  DEVICE_STATUSES,
  FEE_SCOPE_LABELS,
  FEE_SCOPES,
  GROUND_LOCK_STATUS_LABELS,
  GROUND_LOCK_STATUSES,
  LABEL_TYPE_LABELS,
  LABEL_TYPES,
  MANUFACTURER_TYPE_LABELS,
  MANUFACTURER_TYPES,
  NATIONAL_STANDARD_LABELS,
  NATIONAL_STANDARDS,
  PARKING_SPACE_TYPE_LABELS,
  PARKING_SPACE_TYPES,
  PAYMENT_MODE_LABELS,
  PAYMENT_MODES,
  STAGE_TYPE_LABELS,
  START_TYPE_LABELS,
  START_TYPES,
  STATION_STATUS_LABELS,
  STATION_STATUSES,
  STATION_TYPE_LABELS,
  STATION_TYPES,
  STOP_KIND_LABELS,
  YES_NO_LABELS,
  BOOLEAN_CODES,
} from '@voltdepot/shared-contracts';
import type { DictionaryEntry, Localized } from '@voltdepot/server-spreadsheet';
import { PERIOD_TYPES } from '../stations/peak-times.definition';

/**
 * How a cell's text becomes a body value on import (export writes the row's value or its view).
 * `labels`: a station's label names in one cell, separated by "," or "、" (ids in the body).
 */
export type SheetCellKind =
  'text' | 'int' | 'decimal' | 'bool' | 'code' | 'enum' | 'ref' | 'time' | 'date' | 'datetime' | 'labels';

/** A reference written by its number or name; `parent` narrows the lookup (a branch of the row's company). */
export type SheetRef = {
  table: string;
  noun: string;
  /** Columns that identify a row, tried in order (e.g. number, then name); see REF_COLUMN_WORDS. */
  by: string[];
  scoped: boolean;
  parent?: { field: string; column: string };
  /** Extra condition (alias t), e.g. only car manufacturers. */
  where?: string;
};

export type SheetColumnSpec = {
  /** Body field (import) and row field (export). */
  key: string;
  header: Localized;
  kind: SheetCellKind;
  required?: boolean;
  /** Export: the row field written instead of the value (stationName for stationId). */
  view?: string;
  dictionary?: readonly DictionaryEntry[];
  ref?: SheetRef;
  /** Only exported (computed values such as a transformer's load). */
  exportOnly?: boolean;
  /** Only imported (a host's OCPP password, which is never read back). */
  importOnly?: boolean;
  /** Template hint on the header, besides the generated ones (references, dates, dictionaries). */
  note?: Localized;
  width?: number;
};

export type SheetSpec = {
  sheet: string;
  fileName: Localized;
  columns: SheetColumnSpec[];
  /** The grid also imports (xlsx or xls) with its import button. */
  importable: boolean;
  /**
   * The import changes existing rows instead of adding them: this column (a `ref` to the grid's own
   * table) names the row, and the other columns are its new values (the grid's update schema).
   */
  updatesBy?: string;
};

const h = (zh: string, en: string): Localized => ({ 'zh-CN': zh, 'en-US': en });

/** How a template names the columns a reference is looked up by. */
export const REF_COLUMN_WORDS: Record<string, Localized> = {
  number: h('编号', 'number'),
  name: h('名称', 'name'),
  area_code: h('区域代码', 'area code'),
  charge_point_id: h('充电桩标识', 'charge point id'),
  plate: h('车牌号', 'plate'),
};

// The sheets' dictionaries: the code lists and labels the console shows too (libs/shared/contracts).
export const YES_NO = codeEntries(BOOLEAN_CODES, YES_NO_LABELS);
const STATION_TYPE_ENTRIES = codeEntries(STATION_TYPES, STATION_TYPE_LABELS);
const STATION_STATUS_ENTRIES = codeEntries(STATION_STATUSES, STATION_STATUS_LABELS);
const DEVICE_STATUS_ENTRIES = codeEntries(DEVICE_STATUSES, DEVICE_STATUS_LABELS);
const CHARGER_TYPE_ENTRIES = codeEntries(CHARGER_TYPES, CHARGER_TYPE_LABELS);
const NATIONAL_STANDARD_ENTRIES = codeEntries(NATIONAL_STANDARDS, NATIONAL_STANDARD_LABELS);
const PAYMENT_MODE_ENTRIES = codeEntries(PAYMENT_MODES, PAYMENT_MODE_LABELS);
const START_TYPE_ENTRIES = codeEntries(START_TYPES, START_TYPE_LABELS);
const BMS_POWER_ENTRIES = codeEntries(BMS_POWERS, BMS_POWER_LABELS);
const CONNECTOR_TYPE_ENTRIES = codeEntries(CONNECTOR_TYPES, CONNECTOR_TYPE_LABELS);
const GROUND_LOCK_ENTRIES = codeEntries(GROUND_LOCK_STATUSES, GROUND_LOCK_STATUS_LABELS);
const PARKING_SPACE_TYPE_ENTRIES = codeEntries(PARKING_SPACE_TYPES, PARKING_SPACE_TYPE_LABELS);
const MANUFACTURER_TYPE_ENTRIES = codeEntries(MANUFACTURER_TYPES, MANUFACTURER_TYPE_LABELS);
export const LABEL_TYPE_ENTRIES = codeEntries(LABEL_TYPES, LABEL_TYPE_LABELS);
const CARD_TYPE_ENTRIES = codeEntries(CARD_TYPES, CARD_TYPE_LABELS);
const CARD_STATUS_ENTRIES = codeEntries(CARD_STATUSES, CARD_STATUS_LABELS);
const ALARM_LEVEL_ENTRIES = codeEntries(ALARM_LEVELS, ALARM_LEVEL_LABELS);
const ALARM_CATEGORY_ENTRIES = codeEntries(ALARM_CATEGORIES, ALARM_CATEGORY_LABELS);
const PERIOD_TYPE_ENTRIES = codeEntries(PERIOD_TYPES, STAGE_TYPE_LABELS);
const STOP_KIND_ENTRIES = codeEntries(BOOLEAN_CODES, STOP_KIND_LABELS);
const FEE_SCOPE_ENTRIES = codeEntries(FEE_SCOPES, FEE_SCOPE_LABELS);

const NUMBER: SheetColumnSpec = { key: 'number', header: h('编号', 'Number'), kind: 'text', required: true };
const NAME: SheetColumnSpec = {
  key: 'name',
  header: h('名称', 'Name'),
  kind: 'text',
  required: true,
  width: 24,
};

const stationRef = (required: boolean): SheetColumnSpec => ({
  key: 'stationId',
  header: h('充电站', 'Station'),
  kind: 'ref',
  required,
  view: 'stationName',
  ref: { table: 'station', noun: 'station', by: ['number', 'name'], scoped: true },
  width: 24,
});
const companyRef = (required: boolean): SheetColumnSpec => ({
  key: 'companyId',
  header: h('公司', 'Company'),
  kind: 'ref',
  required,
  view: 'companyName',
  ref: { table: 'bus_company', noun: 'company', by: ['number', 'name'], scoped: true },
});
const protocolType: SheetColumnSpec = {
  key: 'protocolType',
  header: h('协议类型', 'Protocol type'),
  kind: 'text',
  required: true,
};
const code: SheetColumnSpec = { key: 'code', header: h('代码', 'Code'), kind: 'text', required: true };
const text = (key: string, zh: string, en: string, required = false): SheetColumnSpec => ({
  key,
  header: h(zh, en),
  kind: 'text',
  required,
});
const int = (key: string, zh: string, en: string, required = false): SheetColumnSpec => ({
  key,
  header: h(zh, en),
  kind: 'int',
  required,
});
const decimal = (key: string, zh: string, en: string, required = false): SheetColumnSpec => ({
  key,
  header: h(zh, en),
  kind: 'decimal',
  required,
});
/** A numeric code written by its label. */
const coded = (
  key: string,
  zh: string,
  en: string,
  dictionary: readonly DictionaryEntry[],
  required = false,
): SheetColumnSpec => ({ key, header: h(zh, en), kind: 'code', required, dictionary });
const yesNo = (key: string, zh: string, en: string, required = false): SheetColumnSpec => ({
  key,
  header: h(zh, en),
  kind: 'bool',
  required,
  dictionary: YES_NO,
});
/** The fee columns a station shares with its fee settings (the station grid and the station fee sheet). */
const FEE = {
  feeScope: {
    key: 'feeScope',
    header: h('收费范围', 'Fee scope'),
    kind: 'enum',
    required: true,
    dictionary: FEE_SCOPE_ENTRIES,
  },
  freeParkingMinutes: int('freeParkingMinutes', '免费停车(分钟)', 'Free parking (minutes)', true),
  occupationIntervalMinutes: int(
    'occupationIntervalMinutes',
    '占位计费间隔(分钟)',
    'Occupation interval (minutes)',
    true,
  ),
  occupationFeeEnabled: yesNo('occupationFeeEnabled', '收取占位费', 'Occupation fee'),
  occupationUnitPriceFen: int('occupationUnitPriceFen', '占位单价(分)', 'Occupation unit price (fen)', true),
  cappedAmountFen: int('cappedAmountFen', '封顶金额(分)', 'Capped amount (fen)', true),
} satisfies Record<string, SheetColumnSpec>;
const exportOnly = (
  key: string,
  zh: string,
  en: string,
  dictionary?: readonly DictionaryEntry[],
): SheetColumnSpec => ({
  key,
  header: h(zh, en),
  kind: 'text',
  exportOnly: true,
  dictionary,
});

/**
 * The xlsx export and import of the basic-data grids: columns in both languages, coded values by their
 * labels, references by number or name. An import creates each row through the grid's service (its
 * schema, references in the caller's data scope and hooks: a station's labels, a host's password hash
 * and gateway registry row), exactly as the grid's POST does.
 */
export const ASSET_SHEETS: Record<string, SheetSpec> = {
  company: {
    sheet: 'companies',
    fileName: h('公司', 'companies'),
    importable: true,
    columns: [NUMBER, NAME],
  },
  branch: {
    sheet: 'branches',
    fileName: h('分公司', 'branches'),
    importable: true,
    columns: [companyRef(true), NUMBER, NAME],
  },
  fleet: {
    sheet: 'fleets',
    fileName: h('车队', 'fleets'),
    importable: true,
    columns: [
      companyRef(true),
      {
        key: 'branchId',
        header: h('分公司', 'Branch'),
        kind: 'ref',
        view: 'branchName',
        ref: {
          table: 'bus_branch',
          noun: 'branch',
          by: ['number', 'name'],
          scoped: true,
          parent: { field: 'companyId', column: 'company_id' },
        },
      },
      NUMBER,
      NAME,
    ],
  },
  line: {
    sheet: 'lines',
    fileName: h('线路', 'lines'),
    importable: true,
    columns: [
      {
        key: 'fleetId',
        header: h('车队', 'Fleet'),
        kind: 'ref',
        required: true,
        view: 'fleetName',
        ref: { table: 'bus_fleet', noun: 'fleet', by: ['number', 'name'], scoped: true },
      },
      NUMBER,
      NAME,
    ],
  },
  station: {
    sheet: 'stations',
    fileName: h('充电站', 'stations'),
    importable: true,
    // The export's first columns come first; pictures and the price plan are set on the station itself.
    columns: [
      NUMBER,
      NAME,
      {
        key: 'regionId',
        header: h('区域', 'Region'),
        kind: 'ref',
        required: true,
        view: 'regionName',
        ref: { table: 'region', noun: 'region', by: ['area_code', 'name'], scoped: false },
      },
      companyRef(false),
      {
        key: 'operatorId',
        header: h('运营商', 'Operator'),
        kind: 'ref',
        view: 'operatorName',
        ref: { table: 'charging_operator', noun: 'operator', by: ['number', 'name'], scoped: false },
      },
      coded('type', '站点类型', 'Station type', STATION_TYPE_ENTRIES, true),
      coded('status', '站点状态', 'Station status', STATION_STATUS_ENTRIES, true),
      { ...text('address', '地址', 'Address', true), width: 32 },
      decimal('longitude', '经度', 'Longitude', true),
      decimal('latitude', '纬度', 'Latitude', true),
      { key: 'openingTime', header: h('开放时间', 'Opening time'), kind: 'time', required: true },
      { key: 'closingTime', header: h('关闭时间', 'Closing time'), kind: 'time', required: true },
      yesNo('isOpen', '是否开放', 'Open', true),
      int('parkingSpaces', '车位数', 'Number of parking spaces'),
      FEE.feeScope,
      FEE.freeParkingMinutes,
      FEE.occupationUnitPriceFen,
      FEE.cappedAmountFen,
      text('servicePhone', '平台服务电话', 'Platform service phone'),
      {
        key: 'labelIds',
        header: h('标签', 'Labels'),
        kind: 'labels',
        required: true,
        width: 32,
        note: h(
          '标签名称，多个用“,”或“、”分隔；支付方式、国标、充电类型每类至少一个；两个类别都有的名称写成“类别:名称”',
          "Label names separated by ',' or '、', at least one each of payment, national standard and charging type; a name found in two categories as 'Category:Name'",
        ),
      },
      yesNo('supportsReservation', '支持预约', 'Reservation support', true),
      FEE.occupationIntervalMinutes,
      FEE.occupationFeeEnabled,
      { ...text('description', '描述', 'Description'), width: 32 },
      text('responsiblePhone', '负责人电话', 'Responsible person phone'),
      text('constructionSite', '建设场地', 'Construction site'),
      int('areaSqm', '面积(平方米)', 'Area (m²)'),
      text('parkingOwner', '停车场产权方', 'Parking lot owner'),
      text('parkingManager', '停车场管理方', 'Parking lot manager'),
      text('parkingFloor', '停车楼层', 'Parking floor'),
      yesNo('serviceFeeFree', '免服务费', 'Service fee free'),
      int('serviceFeeFen', '服务费(分/kWh)', 'Service fee (fen/kWh)'),
      text('serviceFeeDescription', '服务费说明', 'Service fee description'),
      yesNo('operatedExternally', '对外运营', 'Operated externally'),
      yesNo('shownOnMobile', '手机端显示', 'Shown on mobile'),
    ],
  },
  pile: {
    sheet: 'hosts',
    fileName: h('充电主机', 'charging-hosts'),
    importable: true,
    columns: [
      NUMBER,
      NAME,
      {
        ...text('chargePointId', 'OCPP 标识', 'Charge point id', true),
        width: 24,
        note: h(
          '以字母或数字开头，只含字母、数字和 . _ : -',
          'A letter or digit first, then letters, digits and . _ : -',
        ),
      },
      stationRef(true),
      { ...coded('type', '类型', 'Type', CHARGER_TYPE_ENTRIES, true), width: 8 },
      int('maxPowerW', '最大功率(W)', 'Maximum power (W)', true),
      int('ratedPowerW', '额定功率(W)', 'Rated power (W)', true),
      coded('deviceStatus', '设备状态', 'Device status', DEVICE_STATUS_ENTRIES, true),
      {
        key: 'manufacturerId',
        header: h('厂家', 'Manufacturer'),
        kind: 'ref',
        view: 'manufacturerName',
        ref: {
          table: 'manufacturer',
          noun: 'charging pile manufacturer',
          by: ['name'],
          scoped: false,
          where: "t.type = 'pile'",
        },
      },
      { ...int('gunCount', '接口数', 'Guns', true), width: 8 },
      text('protocolVersion', '协议版本', 'Protocol version', true),
      {
        ...text('ocppPassword', 'OCPP 密码', 'OCPP password', true),
        importOnly: true,
        note: h(
          '16 到 40 个不含空格的可打印 ASCII 字符；只保存其哈希，导出时不写出',
          '16 to 40 printable ASCII characters without spaces; only its hash is kept, never exported',
        ),
      },
      int('voltageV', '电压(V)', 'Voltage (V)'),
      int('currentA', '电流(A)', 'Current (A)'),
      coded('chargingType', '充电类型', 'Charging type', CHARGER_TYPE_ENTRIES),
      coded('startMode', '启动方式', 'Start mode', START_TYPE_ENTRIES),
      coded('nationalStandard', '国标', 'National standard', NATIONAL_STANDARD_ENTRIES),
      coded('paymentMode', '付费方式', 'Payment method', PAYMENT_MODE_ENTRIES),
      yesNo('supportsReservation', '支持预约', 'Reservation support'),
      text('model', '型号', 'Model'),
      text('hostIp', '主机 IP', 'Host IP'),
      text('simNumber', 'SIM 卡号', 'SIM number'),
      { key: 'productionDate', header: h('生产日期', 'Production date'), kind: 'date' },
      text('externalId', '外部映射 ID', 'External mapping ID'),
      decimal('coordinateX', '坐标 X', 'Coordinate X'),
      decimal('coordinateY', '坐标 Y', 'Coordinate Y'),
      {
        key: 'transformerId',
        header: h('箱变', 'Box transformer'),
        kind: 'ref',
        view: 'transformerName',
        ref: {
          table: 'box_transformer',
          noun: 'box transformer',
          by: ['name'],
          scoped: true,
          parent: { field: 'stationId', column: 'station_id' },
        },
      },
      exportOnly('gatewayState', '网关状态', 'Gateway state'),
    ],
  },
  gun: {
    sheet: 'guns',
    fileName: h('充电枪', 'guns'),
    importable: true,
    columns: [
      {
        key: 'pileId',
        header: h('充电主机', 'Charging host'),
        kind: 'ref',
        required: true,
        view: 'pileName',
        ref: {
          table: 'charging_pile',
          noun: 'charging host',
          by: ['number', 'charge_point_id', 'name'],
          scoped: true,
        },
        width: 24,
      },
      exportOnly('chargePointId', '充电桩标识', 'Charge point id'),
      text('name', '枪名称', 'Gun name', true),
      int('channelNumber', '通道号', 'Channel number', true),
      { ...text('qrCode', '二维码', 'QR code', true), width: 32 },
      coded('connectorType', '接口类型', 'Connector type', CONNECTOR_TYPE_ENTRIES, true),
      text('terminalName', '终端名称', 'Terminal name'),
      int('ratedVoltageV', '额定电压(V)', 'Rated voltage (V)'),
      int('ratedCurrentA', '额定电流(A)', 'Rated current (A)'),
      int('ratedPowerW', '额定功率(W)', 'Rated power (W)'),
      coded('groundLockStatus', '地锁状态', 'Ground lock status', GROUND_LOCK_ENTRIES),
      {
        key: 'parkingPlaceType',
        header: h('车位类型', 'Parking place type'),
        kind: 'enum',
        dictionary: PARKING_SPACE_TYPE_ENTRIES,
      },
      int('maxVoltageV', '最高电压(V)', 'Maximum voltage (V)'),
      int('minVoltageV', '最低电压(V)', 'Minimum voltage (V)'),
      coded('bmsPower', '辅助电源(BMS)电压', 'Auxiliary supply (BMS) voltage', BMS_POWER_ENTRIES),
    ],
  },
  transformer: {
    sheet: 'box transformers',
    fileName: h('箱变', 'box-transformers'),
    importable: true,
    columns: [
      NAME,
      stationRef(true),
      int('capacityKva', '容量(kVA)', 'Capacity (kVA)'),
      exportOnly('connectedPowerW', '接入功率(W)', 'Connected power (W)'),
      exportOnly('hostCount', '接入主机数', 'Hosts fed'),
      text('ip', 'IP', 'IP'),
      text('type', '型号类型', 'Type'),
    ],
  },
  vehicle: {
    sheet: 'vehicles',
    fileName: h('车辆', 'vehicles'),
    importable: true,
    columns: [
      { ...text('vin', '车架号', 'VIN', true), width: 22 },
      text('plate', '车牌号', 'License plate', true),
      {
        key: 'manufacturerId',
        header: h('厂家', 'Manufacturer'),
        kind: 'ref',
        required: true,
        view: 'manufacturerName',
        ref: {
          table: 'manufacturer',
          noun: 'car manufacturer',
          by: ['name'],
          scoped: false,
          where: "t.type = 'car'",
        },
      },
      text('selfNumber', '自编号', 'Self number'),
      companyRef(false),
      {
        key: 'fleetId',
        header: h('车队', 'Fleet'),
        kind: 'ref',
        view: 'fleetName',
        ref: {
          table: 'bus_fleet',
          noun: 'fleet',
          by: ['number', 'name'],
          scoped: true,
          parent: { field: 'companyId', column: 'company_id' },
        },
      },
      {
        key: 'lineId',
        header: h('线路', 'Line'),
        kind: 'ref',
        view: 'lineName',
        ref: {
          table: 'bus_line',
          noun: 'line',
          by: ['number', 'name'],
          scoped: true,
          parent: { field: 'fleetId', column: 'fleet_id' },
        },
      },
      { key: 'batteryCapacityWh', header: h('电池容量(Wh)', 'Battery capacity (Wh)'), kind: 'int' },
      text('vehicleModel', '车型', 'Vehicle model'),
      yesNo('operational', '运营状态', 'Operational status'),
    ],
  },
  card: {
    sheet: 'charging cards',
    fileName: h('充电卡', 'charging-cards'),
    importable: true,
    columns: [
      text('physicalNumber', '物理卡号', 'Physical number', true),
      {
        key: 'type',
        header: h('卡类型', 'Card type'),
        kind: 'code',
        required: true,
        dictionary: CARD_TYPE_ENTRIES,
      },
      text('selfNumber', '自编号', 'Self number', true),
      text('cardholder', '持卡人', 'Cardholder', true),
      { key: 'status', header: h('卡状态', 'Card status'), kind: 'enum', dictionary: CARD_STATUS_ENTRIES },
      { key: 'expiryDate', header: h('有效期至', 'Expiry date'), kind: 'datetime', width: 22 },
      text('description', '描述', 'Description'),
      {
        key: 'vehicleId',
        header: h('车辆', 'Vehicle'),
        kind: 'ref',
        view: 'vehiclePlate',
        ref: { table: 'vehicle', noun: 'vehicle', by: ['plate'], scoped: true },
        width: 16,
      },
    ],
  },
  manufacturer: {
    sheet: 'manufacturers',
    fileName: h('厂家', 'manufacturers'),
    importable: true,
    columns: [
      NAME,
      {
        key: 'type',
        header: h('厂家类型', 'Type'),
        kind: 'enum',
        required: true,
        dictionary: MANUFACTURER_TYPE_ENTRIES,
      },
      text('contactName', '联系人', 'Contact name', true),
      text('contactNumber', '联系电话', 'Contact number', true),
    ],
  },
  operator: {
    sheet: 'operators',
    fileName: h('运营商', 'operators'),
    importable: true,
    columns: [
      NUMBER,
      NAME,
      text('contactName', '联系人', 'Contact name', true),
      text('mobilePhone', '手机', 'Mobile phone'),
      text('fixedPhone', '固定电话', 'Fixed phone', true),
      text('registeredAddress', '注册地址', 'Registered address', true),
      text('creditCode', '统一社会信用代码', 'Credit code', true),
      text('remark', '备注', 'Remark'),
    ],
  },
  region: {
    sheet: 'regions',
    fileName: h('区域', 'regions'),
    importable: true,
    columns: [
      NAME,
      text('areaCode', '区域代码', 'Area code', true),
      text('province', '省', 'Province'),
      text('city', '市', 'City'),
      text('district', '区县', 'District'),
    ],
  },
  label: {
    sheet: 'labels',
    fileName: h('标签', 'labels'),
    importable: true,
    columns: [
      {
        key: 'type',
        header: h('标签类型', 'Label type'),
        kind: 'enum',
        required: true,
        dictionary: LABEL_TYPE_ENTRIES,
      },
      { ...NAME, header: h('标签名称', 'Label name') },
    ],
  },
  parkingSpace: {
    sheet: 'parking spaces',
    fileName: h('车位', 'parking-spaces'),
    importable: true,
    columns: [
      stationRef(true),
      NUMBER,
      {
        key: 'type',
        header: h('车位类型', 'Parking space type'),
        kind: 'enum',
        required: true,
        dictionary: PARKING_SPACE_TYPE_ENTRIES,
      },
      { key: 'lengthM', header: h('长度(米)', 'Length (m)'), kind: 'decimal' },
      { key: 'transverseDistanceM', header: h('横向间距(米)', 'Transverse distance (m)'), kind: 'decimal' },
      { key: 'verticalDistanceM', header: h('纵向间距(米)', 'Vertical distance (m)'), kind: 'decimal' },
    ],
  },
  camera: {
    sheet: 'cameras',
    fileName: h('摄像头', 'cameras'),
    importable: true,
    columns: [
      stationRef(true),
      text('code', '摄像头 ID', 'Camera id', true),
      NAME,
      { ...text('externalAddress', '外部地址', 'External address', true), width: 36 },
      {
        key: 'isShow',
        header: h('在摄像头树中显示', 'Shown in the camera tree'),
        kind: 'bool',
        dictionary: YES_NO,
      },
    ],
  },
  alarmCode: {
    sheet: 'alarm codes',
    fileName: h('告警代码', 'alarm-codes'),
    importable: true,
    columns: [
      protocolType,
      code,
      NAME,
      {
        key: 'level',
        header: h('告警等级', 'Alarm level'),
        kind: 'code',
        required: true,
        dictionary: ALARM_LEVEL_ENTRIES,
      },
      {
        key: 'category',
        header: h('告警类别', 'Alarm category'),
        kind: 'enum',
        required: true,
        dictionary: ALARM_CATEGORY_ENTRIES,
      },
      text('description', '描述', 'Description'),
    ],
  },
  stopCode: {
    sheet: 'stop codes',
    fileName: h('停止充电代码', 'stop-charging-codes'),
    importable: true,
    columns: [
      protocolType,
      code,
      NAME,
      {
        key: 'normal',
        header: h('停止类型', 'Stop type'),
        kind: 'bool',
        required: true,
        dictionary: STOP_KIND_ENTRIES,
      },
      text('description', '描述', 'Description'),
    ],
  },
  maintenancePersonnel: {
    sheet: 'maintenance personnel',
    fileName: h('运维人员', 'maintenance-personnel'),
    importable: true,
    columns: [
      NUMBER,
      NAME,
      text('phone', '电话', 'Phone', true),
      stationRef(false),
      { key: 'enabled', header: h('启用', 'Enabled'), kind: 'bool', dictionary: YES_NO },
      text('remark', '备注', 'Remark'),
    ],
  },
  stationFee: {
    sheet: 'station fees',
    fileName: h('充电站收费设置', 'station-fee-settings'),
    importable: true,
    // The import sets the fee settings of existing stations, found by number in the caller's data scope.
    updatesBy: 'id',
    columns: [
      {
        key: 'id',
        header: h('充电站编号', 'Station number'),
        kind: 'ref',
        required: true,
        view: 'number',
        ref: { table: 'station', noun: 'station', by: ['number'], scoped: true },
      },
      { ...exportOnly('name', '充电站名称', 'Station name'), width: 24 },
      FEE.feeScope,
      FEE.freeParkingMinutes,
      FEE.occupationIntervalMinutes,
      FEE.occupationFeeEnabled,
      FEE.occupationUnitPriceFen,
      FEE.cappedAmountFen,
      yesNo('serviceFeeFree', '免服务费', 'Service fee free'),
      int('serviceFeeFen', '服务费(分/kWh)', 'Service fee (fen/kWh)'),
      { ...text('serviceFeeDescription', '服务费说明', 'Service fee description'), width: 32 },
    ],
  },
  peakTime: {
    sheet: 'peak charging time',
    fileName: h('高峰充电时段', 'peak-charging-time'),
    importable: true,
    columns: [
      stationRef(false),
      {
        key: 'periodType',
        header: h('时段类型', 'Period type'),
        kind: 'enum',
        required: true,
        dictionary: PERIOD_TYPE_ENTRIES,
      },
      { key: 'startTime', header: h('开始时间', 'Start time'), kind: 'time', required: true },
      { key: 'endTime', header: h('结束时间', 'End time'), kind: 'time', required: true },
      text('remark', '备注', 'Remark'),
    ],
  },
};
