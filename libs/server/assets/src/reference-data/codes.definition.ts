import { ALARM_CATEGORIES, ALARM_LEVELS } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import type { AssetDefinition } from '../shared/asset-definition';
import { optionalText, requiredBoolean, requiredCode, requiredEnum, requiredText } from '../shared/fields';

/** Protocol type: a value of the protocol_type dictionary (OCPP 1.6J, GB/T 27930, ...). */
const protocolType = requiredText('Protocol type', 16, 1, {
  regex: /^[A-Za-z0-9._-]+$/,
  message: 'Protocol type may contain only letters, digits and . _ -',
});
const code = requiredText('Code', 16, 1, {
  regex: /^[A-Za-z0-9._:-]+$/,
  message: 'Code may contain only letters, digits and . _ : -',
});

const alarmCodeSchema = z
  .object({
    protocolType,
    code,
    name: requiredText('Name', 32),
    level: requiredCode('Alarm level', ALARM_LEVELS),
    category: requiredEnum('Alarm category', ALARM_CATEGORIES),
    description: optionalText('Description', 255),
  })
  .strict();

/** The fault codes piles report (per protocol), with the level and category of the alarm they raise. */
export const alarmCodeDefinition: AssetDefinition = {
  kind: 'alarmCode',
  noun: 'Alarm code',
  table: 'alarm_code',
  scoped: false,
  permission: 'basic:alarmCode',
  columns: [
    { field: 'protocolType', column: 'protocol_type', kind: 'text' },
    { field: 'code', column: 'code', kind: 'text' },
    { field: 'name', column: 'name', kind: 'text' },
    { field: 'level', column: 'level', kind: 'int' },
    { field: 'category', column: 'category', kind: 'text' },
    { field: 'description', column: 'description', kind: 'text' },
  ],
  references: [],
  unique: [
    {
      constraint: 'alarm_code_code_uq',
      field: 'code',
      within: ['protocolType'],
      message: (v) =>
        `Alarm code '${String(v['code'])}' already exists for protocol '${String(v['protocolType'])}'`,
    },
  ],
  createSchema: alarmCodeSchema,
  updateSchema: alarmCodeSchema,
  filters: [
    { field: 'protocolType', sql: 't.protocol_type', kind: 'text' },
    { field: 'code', sql: 't.code', kind: 'like' },
    { field: 'name', sql: 't.name', kind: 'like' },
    { field: 'level', sql: 't.level', kind: 'int' },
    { field: 'category', sql: 't.category', kind: 'text' },
  ],
  orderBy: 't.protocol_type, t.code',
};

/** business-areas §5: "Stop-charging code: code, name, protocol type." */
const stopCodeSchema = z
  .object({
    protocolType,
    code,
    name: requiredText('Name', 32),
    normal: requiredBoolean('Stopped normally'),
    description: optionalText('Description', 255),
  })
  .strict();

/** Why a charge stopped, per protocol, and whether that is a normal stop (the stop notice's type). */
export const stopCodeDefinition: AssetDefinition = {
  kind: 'stopCode',
  noun: 'Stop-charging code',
  table: 'stop_code',
  scoped: false,
  permission: 'basic:stopCode',
  columns: [
    { field: 'protocolType', column: 'protocol_type', kind: 'text' },
    { field: 'code', column: 'code', kind: 'text' },
    { field: 'name', column: 'name', kind: 'text' },
    { field: 'normal', column: 'normal', kind: 'bool' },
    { field: 'description', column: 'description', kind: 'text' },
  ],
  references: [],
  unique: [
    {
      constraint: 'stop_code_code_uq',
      field: 'code',
      within: ['protocolType'],
      message: (v) =>
        `Stop-charging code '${String(v['code'])}' already exists for protocol '${String(v['protocolType'])}'`,
    },
  ],
  createSchema: stopCodeSchema,
  updateSchema: stopCodeSchema,
  filters: [
    { field: 'protocolType', sql: 't.protocol_type', kind: 'text' },
    { field: 'code', sql: 't.code', kind: 'like' },
    { field: 'name', sql: 't.name', kind: 'like' },
  ],
  orderBy: 't.protocol_type, t.code',
};
