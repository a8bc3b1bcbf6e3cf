import type { GridConfig } from '../components/AssetGridPage';
import { BASIC_MENUS } from '../permissions';
import { PATTERNS } from '../rules/formRules';
import { nameField, numberField, phoneField, remarkField } from './commonFields';

/** Manufacturers: name, type (pile or car), contact name and number (§5: all required). */
export const manufacturerGrid: GridConfig = {
  kind: 'manufacturer',
  menu: BASIC_MENUS.manufacturer,
  title: 'manufacturer',
  importable: true,
  fields: [
    nameField(),
    {
      name: 'type',
      label: 'manufacturerType',
      kind: 'dict',
      dict: 'manufacturer_type',
      required: true,
      search: true,
    },
    { name: 'contactName', label: 'contactName', kind: 'text', required: true, text: { max: 30 } },
    phoneField('contactNumber', 'contactNumber', true),
  ],
};

/** Operators: §5 number, name, contact, fixed phone, address and credit code required. */
export const operatorGrid: GridConfig = {
  kind: 'operator',
  menu: BASIC_MENUS.operator,
  title: 'operator',
  importable: true,
  fields: [
    numberField(),
    nameField(),
    { name: 'contactName', label: 'contactName', kind: 'text', required: true, text: { max: 30 } },
    phoneField('mobilePhone', 'mobilePhone', false),
    phoneField('fixedPhone', 'fixedPhone', true),
    {
      name: 'registeredAddress',
      label: 'registeredAddress',
      kind: 'text',
      required: true,
      text: { max: 128 },
      wide: true,
    },
    {
      name: 'creditCode',
      label: 'creditCode',
      kind: 'text',
      required: true,
      text: { max: 18, min: 18, pattern: PATTERNS.creditCode },
    },
    remarkField(),
  ],
};

/** Regions: province, city, district, area code; §5 name and area code required. */
export const regionGrid: GridConfig = {
  kind: 'region',
  menu: BASIC_MENUS.region,
  title: 'region',
  importable: true,
  fields: [
    nameField(),
    {
      name: 'areaCode',
      label: 'areaCode',
      kind: 'text',
      required: true,
      text: { max: 12, pattern: PATTERNS.areaCode },
      search: true,
    },
    { name: 'province', label: 'province', kind: 'text', text: { max: 32 } },
    { name: 'city', label: 'city', kind: 'text', text: { max: 32 } },
    { name: 'district', label: 'district', kind: 'text', text: { max: 32 } },
  ],
};

/** Station labels: §5 label type and name required. */
export const labelGrid: GridConfig = {
  kind: 'label',
  menu: BASIC_MENUS.label,
  title: 'label',
  importable: true,
  fields: [
    { name: 'type', label: 'labelType', kind: 'dict', dict: 'label_type', required: true, search: true },
    nameField({ label: 'labelName' }),
  ],
};

const protocolField = {
  name: 'protocolType',
  label: 'protocolType',
  kind: 'dict',
  dict: 'protocol_type',
  required: true,
  search: true,
} as const;
const codeField = {
  name: 'code',
  label: 'code',
  kind: 'text',
  required: true,
  text: { max: 16, pattern: PATTERNS.code },
  search: true,
  identifier: true,
} as const;

export const alarmCodeGrid: GridConfig = {
  kind: 'alarmCode',
  menu: BASIC_MENUS.alarmCode,
  title: 'alarmCode',
  importable: true,
  fields: [
    protocolField,
    codeField,
    nameField(),
    {
      name: 'level',
      label: 'alarmLevel',
      kind: 'dict',
      dict: 'alarm_level',
      numeric: true,
      required: true,
      search: true,
    },
    {
      name: 'category',
      label: 'alarmCategory',
      kind: 'dict',
      dict: 'alarm_category',
      required: true,
      search: true,
    },
    remarkField('description', 'description'),
  ],
};

/** §5: "Stop-charging code: code, name, protocol type." */
export const stopCodeGrid: GridConfig = {
  kind: 'stopCode',
  menu: BASIC_MENUS.stopCode,
  title: 'stopCode',
  importable: true,
  fields: [
    protocolField,
    codeField,
    nameField(),
    {
      name: 'normal',
      label: 'stopNormal',
      kind: 'choice',
      required: true,
      initial: true,
      choices: [
        { value: true, label: 'common.stopNormal' },
        { value: false, label: 'common.stopAbnormal' },
      ],
    },
    remarkField('description', 'description'),
  ],
};
