import { FEE_SCOPES } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import type { AssetDefinition } from '../shared/asset-definition';
import { optionalBoolean, optionalInt, optionalText, requiredEnum, requiredInt } from '../shared/fields';

const stationFeeSchema = z
  .object({
    feeScope: requiredEnum('Fee scope (internal or external)', FEE_SCOPES),
    freeParkingMinutes: requiredInt('Free parking minutes', 0, 1440),
    occupationIntervalMinutes: requiredInt('Occupation interval minutes', 1, 1440),
    occupationUnitPriceFen: requiredInt('Occupation unit price (fen)', 0, 1_000_000),
    cappedAmountFen: requiredInt('Capped amount (fen)', 0, 100_000_000),
    occupationFeeEnabled: optionalBoolean('Occupation fee', false),
    serviceFeeFree: optionalBoolean('Service fee free', false),
    serviceFeeFen: optionalInt('Service fee (fen/kWh)', 0, 1_000_000),
    serviceFeeDescription: optionalText('Service fee description', 255),
  })
  .strict();

/**
 * The station fee and occupation rules screen (menu basic:stationFee): the fee settings of the stations,
 * edited on their own. Stations are added and removed on the station grid only.
 */
export const stationFeeDefinition: AssetDefinition = {
  kind: 'stationFee',
  noun: 'Station',
  table: 'station',
  scoped: true,
  permission: 'basic:stationFee',
  columns: [
    { field: 'feeScope', column: 'fee_scope', kind: 'text' },
    { field: 'freeParkingMinutes', column: 'free_parking_minutes', kind: 'int' },
    { field: 'occupationIntervalMinutes', column: 'occupation_interval_minutes', kind: 'int' },
    { field: 'occupationUnitPriceFen', column: 'occupation_unit_price_fen', kind: 'int' },
    { field: 'cappedAmountFen', column: 'capped_amount_fen', kind: 'int' },
    { field: 'occupationFeeEnabled', column: 'occupation_fee_enabled', kind: 'bool' },
    { field: 'serviceFeeFree', column: 'service_fee_free', kind: 'bool' },
    { field: 'serviceFeeFen', column: 'service_fee_fen', kind: 'int' },
    { field: 'serviceFeeDescription', column: 'service_fee_description', kind: 'text' },
  ],
  computed: [
    { field: 'number', sql: 't.number', kind: 'text' },
    { field: 'name', sql: 't.name', kind: 'text' },
  ],
  references: [],
  unique: [],
  createSchema: stationFeeSchema,
  updateSchema: stationFeeSchema,
  filters: [
    { field: 'number', sql: 't.number', kind: 'like' },
    { field: 'name', sql: 't.name', kind: 'like' },
    { field: 'feeScope', sql: 't.fee_scope', kind: 'text' },
  ],
};
