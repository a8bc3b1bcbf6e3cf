import { z } from 'zod';
import { AssetsErrorCode, AssetsException } from '../assets.exception';
import { companyRef, fleetRef, lineRef } from '../companies/companies.definition';
import type { AssetDefinition } from '../shared/asset-definition';
import {
  optionalBoolean,
  optionalId,
  optionalInt,
  optionalText,
  requiredId,
  requiredText,
} from '../shared/fields';

/** ISO 3779: 17 characters, digits and capital letters except I, O and Q. */
export const VIN_PATTERN = /^[A-HJ-NPR-Z0-9]{17}$/;

export const vehicleSchema = z
  .object({
    vin: requiredText('VIN', 17, 17, {
      regex: /^[A-HJ-NPR-Z0-9]{17}$/i,
      message: 'VIN must be 17 letters or digits (no I, O or Q)',
    }).transform((v) => v.toUpperCase()),
    plate: requiredText('License plate', 16),
    manufacturerId: requiredId('Manufacturer'),
    selfNumber: optionalText('Self number', 16),
    companyId: optionalId('Company'),
    fleetId: optionalId('Fleet'),
    lineId: optionalId('Line'),
    batteryCapacityWh: optionalInt('Battery capacity (Wh)', 1, 10_000_000),
    workingVoltageV: optionalInt('Working voltage (V)', 0, 2000),
    workingCurrentA: optionalInt('Working current (A)', 0, 2000),
    batteryPackType: optionalText('Battery pack type', 32),
    vehicleModel: optionalText('Vehicle model', 32),
    vehicleType: optionalText('Vehicle type', 32),
    dayCharging: optionalBoolean('Day charging', false),
    nightCharging: optionalBoolean('Night charging', true),
    dailyTrips: optionalInt('Daily trips', 0, 100),
    supplementarySoc: optionalInt('Supplementary charging SOC threshold', 0, 100),
    /** business-areas §4 operational status: in service (true) or not. */
    operational: optionalBoolean('Operational status', false),
    organizationId: optionalId('Organization'),
  })
  .strict();

export const vehicleDefinition: AssetDefinition = {
  kind: 'vehicle',
  noun: 'Vehicle',
  table: 'vehicle',
  scoped: true,
  permission: 'basic:vehicle',
  columns: [
    { field: 'vin', column: 'vin', kind: 'text' },
    { field: 'plate', column: 'plate', kind: 'text' },
    { field: 'manufacturerId', column: 'manufacturer_id', kind: 'int' },
    { field: 'selfNumber', column: 'self_number', kind: 'text' },
    { field: 'companyId', column: 'company_id', kind: 'int' },
    { field: 'fleetId', column: 'fleet_id', kind: 'int' },
    { field: 'lineId', column: 'line_id', kind: 'int' },
    { field: 'batteryCapacityWh', column: 'battery_capacity_wh', kind: 'int' },
    { field: 'workingVoltageV', column: 'working_voltage_v', kind: 'int' },
    { field: 'workingCurrentA', column: 'working_current_a', kind: 'int' },
    { field: 'batteryPackType', column: 'battery_pack_type', kind: 'text' },
    { field: 'vehicleModel', column: 'vehicle_model', kind: 'text' },
    { field: 'vehicleType', column: 'vehicle_type', kind: 'text' },
    { field: 'dayCharging', column: 'day_charging', kind: 'bool' },
    { field: 'nightCharging', column: 'night_charging', kind: 'bool' },
    { field: 'dailyTrips', column: 'daily_trips', kind: 'int' },
    { field: 'supplementarySoc', column: 'supplementary_soc', kind: 'int' },
    { field: 'operational', column: 'operational', kind: 'bool' },
  ],
  computed: [
    {
      field: 'manufacturerName',
      sql: '(SELECT mf.name FROM manufacturer mf WHERE mf.id = t.manufacturer_id)',
      kind: 'text',
    },
    {
      field: 'companyName',
      sql: '(SELECT c.name FROM bus_company c WHERE c.id = t.company_id)',
      kind: 'text',
    },
    { field: 'fleetName', sql: '(SELECT f.name FROM bus_fleet f WHERE f.id = t.fleet_id)', kind: 'text' },
    { field: 'lineName', sql: '(SELECT l.name FROM bus_line l WHERE l.id = t.line_id)', kind: 'text' },
  ],
  references: [
    {
      field: 'manufacturerId',
      table: 'manufacturer',
      noun: 'Manufacturer',
      scoped: false,
      must: { sql: `r.type = 'car'`, message: (id) => `Manufacturer ${id} is not a car manufacturer` },
    },
    companyRef,
    fleetRef,
    lineRef,
  ],
  organizationFrom: ['companyId', 'fleetId', 'lineId'],
  unique: [
    {
      constraint: 'vehicle_vin_uq',
      field: 'vin',
      message: (v) => `A vehicle with VIN '${String(v['vin'])}' already exists`,
    },
    {
      constraint: 'vehicle_plate_uq',
      field: 'plate',
      message: (v) => `A vehicle with license plate '${String(v['plate'])}' already exists`,
    },
  ],
  createSchema: vehicleSchema,
  updateSchema: vehicleSchema,
  filters: [
    { field: 'vin', sql: 't.vin', kind: 'like' },
    { field: 'plate', sql: 't.plate', kind: 'like' },
    { field: 'companyId', sql: 't.company_id', kind: 'int' },
    { field: 'fleetId', sql: 't.fleet_id', kind: 'int' },
    { field: 'lineId', sql: 't.line_id', kind: 'int' },
    { field: 'operational', sql: 't.operational', kind: 'bool' },
  ],
  hooks: {
    /** Company, fleet and line must be one chain: the fleet of the company, the line of the fleet. */
    async prepare({ values, references }) {
      const fleet = references.get('fleetId');
      const line = references.get('lineId');
      const rule = (field: string, message: string) =>
        new AssetsException(AssetsErrorCode.RuleViolated, message, [{ field, message }]);
      if (fleet && values['companyId'] !== null && Number(fleet['company_id']) !== values['companyId']) {
        throw rule(
          'fleetId',
          `Fleet ${String(values['fleetId'])} does not belong to company ${String(values['companyId'])}`,
        );
      }
      if (line && values['fleetId'] !== null && Number(line['fleet_id']) !== values['fleetId']) {
        throw rule(
          'lineId',
          `Line ${String(values['lineId'])} does not belong to fleet ${String(values['fleetId'])}`,
        );
      }
      return {};
    },
  },
};
