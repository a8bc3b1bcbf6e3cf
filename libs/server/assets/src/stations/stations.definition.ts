import { ValidationException } from '@voltdepot/server-core';
import { FEE_SCOPES, STATION_STATUSES, STATION_TYPES } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { AssetsErrorCode, AssetsException } from '../assets.exception';
import { companyRef } from '../companies/companies.definition';
import { REQUIRED_LABEL_TYPES } from '../reference-data/reference-data.definition';
import type { AssetDefinition, AssetHooks, AssetReference } from '../shared/asset-definition';
import {
  optionalBoolean,
  optionalId,
  optionalInt,
  optionalText,
  requiredBoolean,
  requiredCode,
  requiredDecimal,
  requiredEnum,
  requiredId,
  requiredInt,
  requiredText,
  requiredTime,
} from '../shared/fields';
import type { StationLabelRepository } from './station-label.repository';

export const stationRef: AssetReference = {
  field: 'stationId',
  table: 'station',
  noun: 'Station',
  scoped: true,
};

const stationSchema = z
  .object({
    number: requiredText('Number', 16),
    name: requiredText('Name', 32),
    regionId: requiredId('Region'),
    companyId: optionalId('Company'),
    operatorId: optionalId('Operator'),
    type: requiredCode('Station type', STATION_TYPES),
    status: requiredCode('Station status', STATION_STATUSES),
    address: requiredText('Address', 128),
    longitude: requiredDecimal('Longitude', -180, 180),
    latitude: requiredDecimal('Latitude', -90, 90),
    description: optionalText('Description', 255),
    responsiblePhone: optionalText('Responsible person phone', 32),
    servicePhone: optionalText('Platform service phone', 32),
    parkingSpaces: optionalInt('Number of parking spaces', 0, 100_000),
    openingTime: requiredTime('Opening time'),
    closingTime: requiredTime('Closing time'),
    isOpen: requiredBoolean('Open flag'),
    supportsReservation: requiredBoolean('Reservation support'),
    labelIds: z
      .array(requiredId('Label'), {
        required_error: 'At least one label per category',
        invalid_type_error: 'Labels must be a list of label ids',
      })
      .min(1, 'At least one label per category')
      .max(50, 'At most 50 labels'),
    feeScope: requiredEnum('Fee scope (internal or external)', FEE_SCOPES),
    freeParkingMinutes: requiredInt('Free parking minutes', 0, 1440),
    occupationIntervalMinutes: requiredInt('Occupation interval minutes', 1, 1440),
    occupationUnitPriceFen: requiredInt('Occupation unit price (fen)', 0, 1_000_000),
    cappedAmountFen: requiredInt('Capped amount (fen)', 0, 100_000_000),
    occupationFeeEnabled: optionalBoolean('Occupation fee', false),
    constructionSite: optionalText('Construction site', 128),
    areaSqm: optionalInt('Area (m²)', 0, 100_000_000),
    parkingOwner: optionalText('Parking lot owner', 32),
    parkingManager: optionalText('Parking lot manager', 32),
    parkingFloor: optionalText('Parking floor', 16),
    serviceFeeFree: optionalBoolean('Service fee free', false),
    serviceFeeFen: optionalInt('Service fee (fen/kWh)', 0, 1_000_000),
    serviceFeeDescription: optionalText('Service fee description', 255),
    operatedExternally: optionalBoolean('Operated externally', false),
    shownOnMobile: optionalBoolean('Shown on mobile', true),
    organizationId: optionalId('Organization'),
  })
  .strict();

export const stationDefinition: AssetDefinition = {
  kind: 'station',
  noun: 'Station',
  table: 'station',
  scoped: true,
  permission: 'basic:station',
  columns: [
    { field: 'number', column: 'number', kind: 'text' },
    { field: 'name', column: 'name', kind: 'text' },
    { field: 'regionId', column: 'region_id', kind: 'int' },
    { field: 'companyId', column: 'company_id', kind: 'int' },
    { field: 'operatorId', column: 'operator_id', kind: 'int' },
    { field: 'type', column: 'type', kind: 'int' },
    { field: 'status', column: 'status', kind: 'int' },
    { field: 'address', column: 'address', kind: 'text' },
    { field: 'longitude', column: 'longitude', kind: 'numeric' },
    { field: 'latitude', column: 'latitude', kind: 'numeric' },
    { field: 'description', column: 'description', kind: 'text' },
    { field: 'responsiblePhone', column: 'responsible_phone', kind: 'text' },
    { field: 'servicePhone', column: 'service_phone', kind: 'text' },
    { field: 'parkingSpaces', column: 'parking_spaces', kind: 'int' },
    { field: 'openingTime', column: 'opening_time', kind: 'time' },
    { field: 'closingTime', column: 'closing_time', kind: 'time' },
    { field: 'isOpen', column: 'is_open', kind: 'bool' },
    { field: 'supportsReservation', column: 'supports_reservation', kind: 'bool' },
    { field: 'feeScope', column: 'fee_scope', kind: 'text' },
    { field: 'freeParkingMinutes', column: 'free_parking_minutes', kind: 'int' },
    { field: 'occupationIntervalMinutes', column: 'occupation_interval_minutes', kind: 'int' },
    { field: 'occupationUnitPriceFen', column: 'occupation_unit_price_fen', kind: 'int' },
    { field: 'cappedAmountFen', column: 'capped_amount_fen', kind: 'int' },
    { field: 'occupationFeeEnabled', column: 'occupation_fee_enabled', kind: 'bool' },
    { field: 'constructionSite', column: 'construction_site', kind: 'text' },
    { field: 'areaSqm', column: 'area_sqm', kind: 'int' },
    { field: 'parkingOwner', column: 'parking_owner', kind: 'text' },
    { field: 'parkingManager', column: 'parking_manager', kind: 'text' },
    { field: 'parkingFloor', column: 'parking_floor', kind: 'text' },
    { field: 'serviceFeeFree', column: 'service_fee_free', kind: 'bool' },
    { field: 'serviceFeeFen', column: 'service_fee_fen', kind: 'int' },
    { field: 'serviceFeeDescription', column: 'service_fee_description', kind: 'text' },
    { field: 'operatedExternally', column: 'operated_externally', kind: 'bool' },
    { field: 'shownOnMobile', column: 'shown_on_mobile', kind: 'bool' },
  ],
  computed: [
    {
      field: 'labelIds',
      sql: `(SELECT coalesce(array_agg(sl.label_id ORDER BY sl.label_id), '{}') FROM station_label sl WHERE sl.station_id = t.id)`,
      kind: 'intArray',
    },
    { field: 'regionName', sql: '(SELECT r.name FROM region r WHERE r.id = t.region_id)', kind: 'text' },
    {
      // Read-only: billing owns the link (POST /api/pricePlan/station/{stationId}); this is the plan in force now.
      field: 'pricePlanId',
      sql: `(SELECT spp.plan_id FROM billing_station_price_plan_v spp
              WHERE spp.station_id = t.id AND spp.effective_from <= now() ORDER BY spp.effective_from DESC LIMIT 1)`,
      kind: 'int',
    },
    {
      field: 'companyName',
      sql: '(SELECT c.name FROM bus_company c WHERE c.id = t.company_id)',
      kind: 'text',
    },
    {
      field: 'operatorName',
      sql: '(SELECT op.name FROM charging_operator op WHERE op.id = t.operator_id)',
      kind: 'text',
    },
    {
      field: 'pictureIds',
      sql: `(SELECT coalesce(array_agg(sp.id ORDER BY sp.id), '{}') FROM station_picture sp
              WHERE sp.station_id = t.id AND NOT sp.site_plan)`,
      kind: 'intArray',
    },
    {
      // The depot's site plan (a picture marked as such; the station monitor shows it with the map).
      field: 'sitePlanPictureId',
      sql: `(SELECT sp.id FROM station_picture sp WHERE sp.station_id = t.id AND sp.site_plan)`,
      kind: 'int',
    },
  ],
  references: [
    { field: 'regionId', table: 'region', noun: 'Region', scoped: false },
    companyRef,
    { field: 'operatorId', table: 'charging_operator', noun: 'Operator', scoped: false },
  ],
  unique: [
    {
      constraint: 'station_number_uq',
      field: 'number',
      message: (v) => `A station numbered '${String(v['number'])}' already exists`,
    },
  ],
  createSchema: stationSchema,
  updateSchema: stationSchema,
  filters: [
    { field: 'number', sql: 't.number', kind: 'like' },
    { field: 'name', sql: 't.name', kind: 'like' },
    { field: 'status', sql: 't.status', kind: 'int' },
    { field: 'regionId', sql: 't.region_id', kind: 'int' },
    { field: 'companyId', sql: 't.company_id', kind: 'int' },
  ],
};

export function stationHooks(labels: StationLabelRepository): AssetHooks {
  return {
    async prepare({ values }) {
      const ids = [...new Set(values['labelIds'] as number[])];
      const types = await labels.typesOf(ids);
      const unknown = ids.filter((id) => !types.has(id));
      if (unknown.length > 0) {
        const message = `Label ${unknown.join(', ')} does not exist`;
        throw new AssetsException(AssetsErrorCode.ReferenceNotFound, message, [
          { field: 'labelIds', message },
        ]);
      }
      const present = new Set(types.values());
      const missing = REQUIRED_LABEL_TYPES.filter((t) => !present.has(t));
      if (missing.length > 0) {
        throw new ValidationException([
          { field: 'labelIds', message: `At least one label per category (missing: ${missing.join(', ')})` },
        ]);
      }
      return {};
    },
    async afterSave(m, saved, { values }) {
      await labels.replace(m, saved.id, [...new Set(values['labelIds'] as number[])]);
    },
  };
}

const transformerSchema = z
  .object({
    name: requiredText('Name', 32),
    stationId: requiredId('Station'),
    capacityKva: optionalInt('Capacity (kVA)', 1, 1_000_000),
    ip: optionalText('IP', 45),
    type: optionalText('Type', 32),
  })
  .strict();

export const transformerDefinition: AssetDefinition = {
  kind: 'transformer',
  noun: 'Box transformer',
  table: 'box_transformer',
  scoped: true,
  permission: 'basic:transformer',
  columns: [
    { field: 'name', column: 'name', kind: 'text' },
    { field: 'stationId', column: 'station_id', kind: 'int' },
    { field: 'capacityKva', column: 'capacity_kva', kind: 'int' },
    { field: 'ip', column: 'ip', kind: 'text' },
    { field: 'type', column: 'type', kind: 'text' },
  ],
  computed: [
    { field: 'stationName', sql: '(SELECT s.name FROM station s WHERE s.id = t.station_id)', kind: 'text' },
    {
      // The load limit check of the capacity: what the hosts it feeds may draw together.
      field: 'connectedPowerW',
      sql: '(SELECT coalesce(sum(p.max_power_w), 0) FROM charging_pile p WHERE p.transformer_id = t.id)',
      kind: 'int',
    },
    {
      field: 'hostCount',
      sql: '(SELECT count(*) FROM charging_pile p WHERE p.transformer_id = t.id)',
      kind: 'int',
    },
  ],
  references: [stationRef],
  organizationFrom: ['stationId'],
  unique: [
    {
      constraint: 'box_transformer_name_uq',
      field: 'name',
      within: ['stationId'],
      message: (v) =>
        `Station ${String(v['stationId'])} already has a box transformer named '${String(v['name'])}'`,
    },
  ],
  createSchema: transformerSchema,
  updateSchema: transformerSchema,
  filters: [
    { field: 'stationId', sql: 't.station_id', kind: 'int' },
    { field: 'name', sql: 't.name', kind: 'like' },
  ],
};
