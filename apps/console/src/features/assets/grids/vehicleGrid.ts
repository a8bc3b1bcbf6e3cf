import type { GridConfig } from '../components/AssetGridPage';
import { BASIC_MENUS } from '../permissions';
import { PATTERNS } from '../rules/formRules';
import { companyRefSpec } from './commonFields';

/**
 * Vehicles: §5 VIN, plate and manufacturer required; company, fleet and line one chain; §4 operational
 * status (in service or not), which tells a driving charge from a parking charge in the bus list.
 */
export const vehicleGrid: GridConfig = {
  kind: 'vehicle',
  menu: BASIC_MENUS.vehicle,
  title: 'vehicle',
  importable: true,
  scrollX: 1600,
  fields: [
    {
      name: 'vin',
      label: 'vin',
      kind: 'text',
      required: true,
      text: { max: 17, min: 17, pattern: PATTERNS.vin },
      search: true,
    },
    { name: 'plate', label: 'plate', kind: 'text', required: true, text: { max: 16 }, search: true },
    {
      name: 'manufacturerId',
      label: 'manufacturer',
      kind: 'ref',
      required: true,
      view: 'manufacturerName',
      ref: { kind: 'manufacturer', params: () => ({ type: 'car' }) },
    },
    { name: 'selfNumber', label: 'selfNumber', kind: 'text', text: { max: 16 } },
    {
      name: 'companyId',
      label: 'company',
      kind: 'ref',
      ref: companyRefSpec,
      view: 'companyName',
      search: true,
    },
    {
      name: 'fleetId',
      label: 'fleet',
      kind: 'ref',
      view: 'fleetName',
      ref: {
        kind: 'fleet',
        dependsOn: ['companyId'],
        params: (v) => (v['companyId'] ? { companyId: v['companyId'] as number } : {}),
      },
    },
    {
      name: 'lineId',
      label: 'line',
      kind: 'ref',
      view: 'lineName',
      ref: {
        kind: 'line',
        dependsOn: ['fleetId'],
        params: (v) => (v['fleetId'] ? { fleetId: v['fleetId'] as number } : null),
      },
    },
    { name: 'batteryCapacityWh', label: 'batteryCapacityWh', kind: 'int', min: 1, max: 10_000_000 },
    { name: 'workingVoltageV', label: 'workingVoltageV', kind: 'int', min: 0, max: 2000, grid: false },
    { name: 'workingCurrentA', label: 'workingCurrentA', kind: 'int', min: 0, max: 2000, grid: false },
    { name: 'batteryPackType', label: 'batteryPackType', kind: 'text', text: { max: 32 }, grid: false },
    { name: 'vehicleType', label: 'vehicleType', kind: 'text', text: { max: 32 } },
    { name: 'vehicleModel', label: 'vehicleModel', kind: 'text', text: { max: 32 } },
    {
      name: 'operational',
      label: 'operational',
      kind: 'bool',
      boolLabels: { on: 'vehicle.inService', off: 'vehicle.notInService' },
      search: true,
    },
    { name: 'dayCharging', label: 'dayCharging', kind: 'bool' },
    { name: 'nightCharging', label: 'nightCharging', kind: 'bool', initial: true },
    { name: 'dailyTrips', label: 'dailyTrips', kind: 'int', min: 0, max: 100, grid: false },
    { name: 'supplementarySoc', label: 'supplementarySoc', kind: 'int', min: 0, max: 100, grid: false },
  ],
};
