import type { GridConfig } from '../components/AssetGridPage';
import type { AssetField } from '../components/fieldModel';
import { BASIC_MENUS } from '../permissions';
import { PATTERNS } from '../rules/formRules';
import { nameField, numberField, phoneField, remarkField, stationField } from './commonFields';

/** Box transformers: §5 name and station required; the capacity is what the hosts it feeds may draw. */
export const transformerGrid: GridConfig = {
  kind: 'transformer',
  menu: BASIC_MENUS.transformer,
  title: 'transformer',
  importable: true,
  fields: [
    nameField(),
    stationField(),
    { name: 'capacityKva', label: 'capacityKva', kind: 'int', min: 1, max: 1_000_000 },
    { name: 'ip', label: 'ip', kind: 'text', text: { max: 45 } },
    { name: 'type', label: 'transformerType', kind: 'text', text: { max: 32 } },
    { name: 'connectedPowerW', label: 'connectedPowerW', kind: 'int', form: false },
    { name: 'hostCount', label: 'hostCount', kind: 'int', form: false },
  ],
};

/** Parking spaces: number, length, type, transverse and vertical distance (business-areas §3). */
export const parkingSpaceGrid: GridConfig = {
  kind: 'parkingSpace',
  menu: BASIC_MENUS.parkingSpace,
  title: 'parkingSpace',
  importable: true,
  fields: [
    stationField(),
    numberField(),
    {
      name: 'type',
      label: 'parkingSpaceType',
      kind: 'dict',
      dict: 'parking_space_type',
      required: true,
      search: true,
    },
    { name: 'lengthM', label: 'lengthM', kind: 'decimal', min: 0.01, max: 100 },
    { name: 'transverseDistanceM', label: 'transverseDistanceM', kind: 'decimal', min: 0, max: 1000 },
    { name: 'verticalDistanceM', label: 'verticalDistanceM', kind: 'decimal', min: 0, max: 1000 },
    {
      name: 'gunId',
      label: 'gun',
      kind: 'ref',
      view: 'gunName',
      ref: {
        kind: 'gun',
        dependsOn: ['stationId'],
        params: (v) => (v['stationId'] ? { stationId: v['stationId'] as number } : null),
        labelOf: (row) => `${String(row['pileName'])} / ${String(row['name'])}`,
      },
    },
  ],
};

/** Cameras: id, name, external address (business-areas §3), at a station. */
export const cameraGrid: GridConfig = {
  kind: 'camera',
  menu: BASIC_MENUS.camera,
  title: 'camera',
  importable: true,
  fields: [
    stationField(),
    {
      name: 'code',
      label: 'cameraCode',
      kind: 'text',
      required: true,
      text: { max: 64, pattern: PATTERNS.code },
      search: true,
    },
    nameField(),
    {
      name: 'externalAddress',
      label: 'externalAddress',
      kind: 'text',
      required: true,
      text: { max: 255, pattern: PATTERNS.externalAddress },
      wide: true,
    },
    { name: 'isShow', label: 'isShow', kind: 'bool', initial: true },
  ],
};

/** Maintenance personnel, by organisation and usual station. */
export const maintenancePersonnelGrid: GridConfig = {
  kind: 'maintenancePersonnel',
  menu: BASIC_MENUS.maintenancePersonnel,
  title: 'maintenancePersonnel',
  importable: true,
  fields: [
    numberField(),
    nameField({ text: { max: 30 } }),
    phoneField('phone', 'phone', true),
    stationField({ required: false }),
    { name: 'organizationName', label: 'organization', kind: 'text', form: false },
    { name: 'enabled', label: 'enabled', kind: 'bool', initial: true },
    remarkField(),
  ],
};

/** Peak charging time: periods of the day by type, for a station or every station (no station). */
export const peakTimeGrid: GridConfig = {
  kind: 'peakTime',
  menu: BASIC_MENUS.peakTime,
  title: 'peakTime',
  importable: true,
  fields: [
    stationField({ required: false }),
    {
      name: 'periodType',
      label: 'periodType',
      kind: 'dict',
      dict: 'charging_period_type',
      required: true,
      search: true,
    },
    {
      name: 'startTime',
      label: 'startTime',
      kind: 'endTime',
      required: true,
      text: { max: 5, min: 5, pattern: PATTERNS.time },
    },
    { name: 'endTime', label: 'endTime', kind: 'endTime', required: true },
    remarkField(),
  ],
};

/** The fee settings of a station (shared by the station form and the station fee screen). */
export const feeFields: AssetField[] = [
  {
    name: 'feeScope',
    label: 'feeScope',
    kind: 'choice',
    required: true,
    initial: 'internal',
    choices: [
      { value: 'internal', label: 'common.internal' },
      { value: 'external', label: 'common.external' },
    ],
    search: true,
    section: 'fees',
  },
  {
    name: 'freeParkingMinutes',
    label: 'freeParkingMinutes',
    kind: 'int',
    required: true,
    min: 0,
    max: 1440,
    initial: 0,
    section: 'fees',
  },
  {
    name: 'occupationIntervalMinutes',
    label: 'occupationIntervalMinutes',
    kind: 'int',
    required: true,
    min: 1,
    max: 1440,
    initial: 15,
    section: 'fees',
  },
  { name: 'occupationFeeEnabled', label: 'occupationFeeEnabled', kind: 'bool', section: 'fees' },
  {
    name: 'occupationUnitPriceFen',
    label: 'occupationUnitPrice',
    kind: 'money',
    required: true,
    min: 0,
    max: 10_000,
    initial: 0,
    section: 'fees',
  },
  {
    name: 'cappedAmountFen',
    label: 'cappedAmount',
    kind: 'money',
    required: true,
    min: 0,
    max: 1_000_000,
    initial: 0,
    section: 'fees',
  },
  { name: 'serviceFeeFree', label: 'serviceFeeFree', kind: 'bool', section: 'fees' },
  { name: 'serviceFeeFen', label: 'serviceFee', kind: 'money', min: 0, max: 10_000, section: 'fees' },
  {
    name: 'serviceFeeDescription',
    label: 'serviceFeeDescription',
    kind: 'textarea',
    text: { max: 255 },
    grid: false,
    section: 'fees',
  },
];

/** The station fee and occupation rules screen: the stations' fee settings, edited on their own. */
export const stationFeeGrid: GridConfig = {
  kind: 'stationFee',
  menu: BASIC_MENUS.stationFee,
  title: 'stationFee',
  canAdd: false,
  canDelete: false,
  // The import changes the fee settings of existing stations, found by station number.
  importable: true,
  fields: [
    { name: 'number', label: 'number', kind: 'text', form: false, search: true },
    { name: 'name', label: 'stationName', kind: 'text', form: false, search: true },
    ...feeFields,
  ],
};
