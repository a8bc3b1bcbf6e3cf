import { LABEL_TYPES, MANUFACTURER_TYPES, type LabelType } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import type { AssetDefinition } from '../shared/asset-definition';
import { optionalText, requiredEnum, requiredText } from '../shared/fields';

/** Every station needs at least one label of each of these categories. */
export const REQUIRED_LABEL_TYPES = [
  'payment',
  'nationalStandard',
  'chargingType',
] as const satisfies readonly LabelType[];

const phone = (label: string) =>
  requiredText(label, 32, 1, {
    regex: /^[0-9+\- ]+$/,
    message: `${label} may contain only digits, spaces, + and -`,
  });
const optionalPhone = (label: string) =>
  optionalText(label, 32).refine((v) => v === null || /^[0-9+\- ]+$/.test(v), {
    message: `${label} may contain only digits, spaces, + and -`,
  });

const manufacturerSchema = z
  .object({
    name: requiredText('Name', 32),
    type: requiredEnum('Type', MANUFACTURER_TYPES),
    contactName: requiredText('Contact name', 30),
    contactNumber: phone('Contact number'),
  })
  .strict();

export const manufacturerDefinition: AssetDefinition = {
  kind: 'manufacturer',
  noun: 'Manufacturer',
  table: 'manufacturer',
  scoped: false,
  permission: 'basic:manufacturer',
  columns: [
    { field: 'name', column: 'name', kind: 'text' },
    { field: 'type', column: 'type', kind: 'text' },
    { field: 'contactName', column: 'contact_name', kind: 'text' },
    { field: 'contactNumber', column: 'contact_number', kind: 'text' },
  ],
  references: [],
  unique: [
    {
      constraint: 'manufacturer_type_name_uq',
      field: 'name',
      within: ['type'],
      message: (v) => `A ${String(v['type'])} manufacturer named '${String(v['name'])}' already exists`,
    },
  ],
  createSchema: manufacturerSchema,
  updateSchema: manufacturerSchema,
  filters: [
    { field: 'name', sql: 't.name', kind: 'like' },
    { field: 'type', sql: 't.type', kind: 'text' },
  ],
};

const operatorSchema = z
  .object({
    number: requiredText('Number', 16),
    name: requiredText('Name', 32),
    contactName: requiredText('Contact name', 30),
    mobilePhone: optionalPhone('Mobile phone'),
    fixedPhone: phone('Fixed phone'),
    registeredAddress: requiredText('Registered address', 128),
    creditCode: requiredText('Credit code', 18, 1, {
      regex: /^[0-9A-Z]{18}$/,
      message: 'Credit code must be 18 digits or capital letters',
    }),
    remark: optionalText('Remark', 255),
  })
  .strict();

export const operatorDefinition: AssetDefinition = {
  kind: 'operator',
  noun: 'Operator',
  table: 'charging_operator',
  scoped: false,
  permission: 'basic:operator',
  columns: [
    { field: 'number', column: 'number', kind: 'text' },
    { field: 'name', column: 'name', kind: 'text' },
    { field: 'contactName', column: 'contact_name', kind: 'text' },
    { field: 'mobilePhone', column: 'mobile_phone', kind: 'text' },
    { field: 'fixedPhone', column: 'fixed_phone', kind: 'text' },
    { field: 'registeredAddress', column: 'registered_address', kind: 'text' },
    { field: 'creditCode', column: 'credit_code', kind: 'text' },
    { field: 'remark', column: 'remark', kind: 'text' },
  ],
  references: [],
  unique: [
    {
      constraint: 'charging_operator_number_uq',
      field: 'number',
      message: (v) => `An operator numbered '${String(v['number'])}' already exists`,
    },
    {
      constraint: 'charging_operator_credit_code_uq',
      field: 'creditCode',
      message: (v) => `An operator with credit code '${String(v['creditCode'])}' already exists`,
    },
  ],
  createSchema: operatorSchema,
  updateSchema: operatorSchema,
  filters: [
    { field: 'number', sql: 't.number', kind: 'like' },
    { field: 'name', sql: 't.name', kind: 'like' },
  ],
};

const regionSchema = z
  .object({
    name: requiredText('Name', 32),
    areaCode: requiredText('Area code', 12, 1, {
      regex: /^\d{6,12}$/,
      message: 'Area code must be 6 to 12 digits',
    }),
    province: optionalText('Province', 32),
    city: optionalText('City', 32),
    district: optionalText('District', 32),
  })
  .strict();

export const regionDefinition: AssetDefinition = {
  kind: 'region',
  noun: 'Region',
  table: 'region',
  scoped: false,
  permission: 'basic:region',
  columns: [
    { field: 'name', column: 'name', kind: 'text' },
    { field: 'areaCode', column: 'area_code', kind: 'text' },
    { field: 'province', column: 'province', kind: 'text' },
    { field: 'city', column: 'city', kind: 'text' },
    { field: 'district', column: 'district', kind: 'text' },
  ],
  references: [],
  unique: [
    {
      constraint: 'region_area_code_uq',
      field: 'areaCode',
      message: (v) => `A region with area code '${String(v['areaCode'])}' already exists`,
    },
  ],
  createSchema: regionSchema,
  updateSchema: regionSchema,
  filters: [
    { field: 'name', sql: 't.name', kind: 'like' },
    { field: 'areaCode', sql: 't.area_code', kind: 'text' },
  ],
};

const labelSchema = z
  .object({ type: requiredEnum('Label type', LABEL_TYPES), name: requiredText('Label name', 32) })
  .strict();

export const labelDefinition: AssetDefinition = {
  kind: 'label',
  noun: 'Label',
  table: 'asset_label',
  scoped: false,
  permission: 'basic:label',
  columns: [
    { field: 'type', column: 'type', kind: 'text' },
    { field: 'name', column: 'name', kind: 'text' },
  ],
  references: [],
  unique: [
    {
      constraint: 'asset_label_type_name_uq',
      field: 'name',
      within: ['type'],
      message: (v) => `A ${String(v['type'])} label named '${String(v['name'])}' already exists`,
    },
  ],
  createSchema: labelSchema,
  updateSchema: labelSchema,
  filters: [
    { field: 'type', sql: 't.type', kind: 'text' },
    { field: 'name', sql: 't.name', kind: 'like' },
  ],
  orderBy: 't.type, t.name',
};
