import { z } from 'zod';
import type { AssetDefinition } from '../shared/asset-definition';
import { optionalBoolean, optionalId, optionalText, requiredText } from '../shared/fields';
import { stationRef } from '../stations/stations.definition';

const maintenancePersonnelSchema = z
  .object({
    number: requiredText('Number', 16),
    name: requiredText('Name', 30),
    phone: requiredText('Phone', 32, 1, {
      regex: /^[0-9+\- ]+$/,
      message: 'Phone may contain only digits, spaces, + and -',
    }),
    stationId: optionalId('Station'),
    enabled: optionalBoolean('Enabled', true),
    remark: optionalText('Remark', 255),
    organizationId: optionalId('Organization'),
  })
  .strict();

/** The people who maintain the equipment (work orders name them), by organisation and usual station. */
export const maintenancePersonnelDefinition: AssetDefinition = {
  kind: 'maintenancePersonnel',
  noun: 'Maintenance person',
  table: 'maintenance_personnel',
  scoped: true,
  permission: 'basic:maintenancePersonnel',
  columns: [
    { field: 'number', column: 'number', kind: 'text' },
    { field: 'name', column: 'name', kind: 'text' },
    { field: 'phone', column: 'phone', kind: 'text' },
    { field: 'stationId', column: 'station_id', kind: 'int' },
    { field: 'enabled', column: 'enabled', kind: 'bool' },
    { field: 'remark', column: 'remark', kind: 'text' },
  ],
  computed: [
    { field: 'stationName', sql: '(SELECT s.name FROM station s WHERE s.id = t.station_id)', kind: 'text' },
    {
      field: 'organizationName',
      sql: '(SELECT o.name FROM identity_organization_v o WHERE o.id = t.organization_id)',
      kind: 'text',
    },
  ],
  references: [stationRef],
  organizationFrom: ['stationId'],
  unique: [
    {
      constraint: 'maintenance_personnel_number_uq',
      field: 'number',
      message: (v) => `A maintenance person numbered '${String(v['number'])}' already exists`,
    },
  ],
  createSchema: maintenancePersonnelSchema,
  updateSchema: maintenancePersonnelSchema,
  filters: [
    { field: 'number', sql: 't.number', kind: 'like' },
    { field: 'name', sql: 't.name', kind: 'like' },
    { field: 'stationId', sql: 't.station_id', kind: 'int' },
  ],
};
