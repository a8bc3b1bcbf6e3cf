import {
  BMS_POWERS,
  CHARGER_TYPES,
  CONNECTOR_TYPES,
  DEVICE_STATUSES,
  GROUND_LOCK_STATUSES,
  NATIONAL_STANDARDS,
  PARKING_SPACE_TYPES,
  PAYMENT_MODES,
  START_TYPES,
} from '@voltdepot/shared-contracts';
import { CHARGE_POINT_ID_PATTERN } from '@voltdepot/shared-ocpp';
import {
  PILE_PASSWORD_MAX_LENGTH,
  PILE_PASSWORD_MIN_LENGTH,
  type PilePasswordHasher,
} from '@voltdepot/server-pile-credentials';
import { z } from 'zod';
import { AssetsErrorCode, AssetsException } from '../assets.exception';
import type { AssetDefinition, AssetHooks, AssetReference } from '../shared/asset-definition';
import {
  optionalBoolean,
  optionalCode,
  optionalDate,
  optionalDecimal,
  optionalEnum,
  optionalId,
  optionalInt,
  optionalText,
  requiredCode,
  requiredId,
  requiredInt,
  requiredText,
} from '../shared/fields';
import { stationRef } from '../stations/stations.definition';
import { gatewayStateOf, type GatewayRegistryRepository } from './gateway-registry.repository';

export const pileRef: AssetReference = {
  field: 'pileId',
  table: 'charging_pile',
  noun: 'Charging host',
  scoped: true,
};

/**
 * HTTP Basic password of OCPP security profile 1 (16-40 characters, as the OCPP security whitepaper asks);
 * stored only as the keyed hash of @voltdepot/server-pile-credentials, which the gateway verifies.
 */
export const ocppPassword = requiredText(
  'OCPP password',
  PILE_PASSWORD_MAX_LENGTH,
  PILE_PASSWORD_MIN_LENGTH,
  {
    regex: /^[\x21-\x7e]+$/,
    message: 'OCPP password may contain only printable ASCII characters without spaces',
  },
);

const pileFields = {
  name: requiredText('Name', 32),
  number: requiredText('Number', 16),
  chargePointId: requiredText('Charge point id', 48, 1, {
    regex: CHARGE_POINT_ID_PATTERN,
    message: 'Charge point id must start with a letter or digit and contain only letters, digits and . _ : -',
  }),
  type: requiredCode('Charger type', CHARGER_TYPES),
  maxPowerW: requiredInt('Maximum power (W)', 1, 10_000_000),
  ratedPowerW: requiredInt('Rated power (W)', 1, 10_000_000),
  voltageV: optionalInt('Voltage (V)', 0, 2000),
  currentA: optionalInt('Current (A)', 0, 2000),
  deviceStatus: requiredCode('Device status', DEVICE_STATUSES),
  manufacturerId: optionalId('Manufacturer'),
  gunCount: requiredInt('Number of guns', 1, 16),
  stationId: requiredId('Station'),
  protocolVersion: requiredText('Protocol version', 16),
  nationalStandard: optionalCode('National standard', NATIONAL_STANDARDS),
  model: optionalText('Model', 32),
  hostIp: optionalText('Host IP', 45),
  simNumber: optionalText('SIM number', 32),
  productionDate: optionalDate('Production date'),
  paymentMode: optionalCode('Payment method', PAYMENT_MODES),
  supportsReservation: optionalBoolean('Reservation support', false),
  externalId: optionalText('External mapping ID', 64),
  chargingType: optionalCode('Charging type', CHARGER_TYPES),
  startMode: optionalCode('Start mode', START_TYPES),
  coordinateX: optionalDecimal('Coordinate X', -1_000_000, 1_000_000),
  coordinateY: optionalDecimal('Coordinate Y', -1_000_000, 1_000_000),
  transformerId: optionalId('Box transformer'),
};

function ratedWithinMaximum(v: { maxPowerW: number; ratedPowerW: number }, ctx: z.RefinementCtx): void {
  if (v.ratedPowerW > v.maxPowerW) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ['ratedPowerW'],
      message: 'Rated power (W) must not exceed maximum power (W)',
    });
  }
}

/** The password is required to create a host and optional on update (kept when absent). */
export const createPileSchema = z
  .object({ ...pileFields, ocppPassword })
  .strict()
  .superRefine(ratedWithinMaximum);
export const updatePileSchema = z
  .object({ ...pileFields, ocppPassword: ocppPassword.optional() })
  .strict()
  .superRefine(ratedWithinMaximum);

export const pileDefinition: AssetDefinition = {
  kind: 'pile',
  noun: 'Charging host',
  table: 'charging_pile',
  scoped: true,
  permission: 'basic:host',
  columns: [
    { field: 'name', column: 'name', kind: 'text' },
    { field: 'number', column: 'number', kind: 'text' },
    { field: 'chargePointId', column: 'charge_point_id', kind: 'text' },
    // A pile registered from the gateway's unknown list has no type, powers or gun count until edited.
    { field: 'type', column: 'type', kind: 'int', nullable: true },
    { field: 'maxPowerW', column: 'max_power_w', kind: 'int', nullable: true },
    { field: 'ratedPowerW', column: 'rated_power_w', kind: 'int', nullable: true },
    { field: 'voltageV', column: 'voltage_v', kind: 'int' },
    { field: 'currentA', column: 'current_a', kind: 'int' },
    { field: 'deviceStatus', column: 'device_status', kind: 'int' },
    { field: 'manufacturerId', column: 'manufacturer_id', kind: 'int' },
    { field: 'gunCount', column: 'gun_count', kind: 'int', nullable: true },
    { field: 'stationId', column: 'station_id', kind: 'int' },
    { field: 'protocolVersion', column: 'protocol_version', kind: 'text' },
    { field: 'nationalStandard', column: 'national_standard', kind: 'int' },
    { field: 'model', column: 'model', kind: 'text' },
    { field: 'hostIp', column: 'host_ip', kind: 'text' },
    { field: 'simNumber', column: 'sim_number', kind: 'text' },
    { field: 'productionDate', column: 'production_date', kind: 'date' },
    { field: 'paymentMode', column: 'payment_mode', kind: 'int' },
    { field: 'supportsReservation', column: 'supports_reservation', kind: 'bool' },
    { field: 'externalId', column: 'external_id', kind: 'text' },
    { field: 'chargingType', column: 'charging_type', kind: 'int' },
    { field: 'startMode', column: 'start_mode', kind: 'int' },
    { field: 'coordinateX', column: 'coordinate_x', kind: 'numeric' },
    { field: 'coordinateY', column: 'coordinate_y', kind: 'numeric' },
    { field: 'transformerId', column: 'transformer_id', kind: 'int' },
  ],
  computed: [
    { field: 'deliveredAt', sql: 't.delivered_at', kind: 'timestamptz' },
    {
      field: 'transformerName',
      sql: '(SELECT bt.name FROM box_transformer bt WHERE bt.id = t.transformer_id)',
      kind: 'text',
    },
    { field: 'stationName', sql: '(SELECT s.name FROM station s WHERE s.id = t.station_id)', kind: 'text' },
    {
      field: 'manufacturerName',
      sql: '(SELECT mf.name FROM manufacturer mf WHERE mf.id = t.manufacturer_id)',
      kind: 'text',
    },
    { field: 'hasOcppPassword', sql: '(t.ocpp_password_hash IS NOT NULL)', kind: 'bool' },
    {
      field: 'gatewayState',
      sql: '(SELECT pr.state FROM gateway_pile_registry_v pr WHERE pr.charge_point_id = t.charge_point_id)',
      kind: 'text',
    },
  ],
  references: [
    stationRef,
    {
      field: 'manufacturerId',
      table: 'manufacturer',
      noun: 'Manufacturer',
      scoped: false,
      must: {
        sql: `r.type = 'pile'`,
        message: (id) => `Manufacturer ${id} is not a charging pile manufacturer`,
      },
    },
    { field: 'transformerId', table: 'box_transformer', noun: 'Box transformer', scoped: true },
  ],
  organizationFrom: ['stationId'],
  unique: [
    {
      constraint: 'charging_pile_number_uq',
      field: 'number',
      message: (v) => `A charging host numbered '${String(v['number'])}' already exists`,
    },
    {
      constraint: 'charging_pile_charge_point_id_uq',
      field: 'chargePointId',
      message: (v) => `A charging host with charge point id '${String(v['chargePointId'])}' already exists`,
    },
  ],
  createSchema: createPileSchema,
  updateSchema: updatePileSchema,
  filters: [
    { field: 'name', sql: 't.name', kind: 'like' },
    { field: 'number', sql: 't.number', kind: 'like' },
    { field: 'chargePointId', sql: 't.charge_point_id', kind: 'like' },
    { field: 'stationId', sql: 't.station_id', kind: 'int' },
    { field: 'deviceStatus', sql: 't.device_status', kind: 'int' },
    { field: 'transformerId', sql: 't.transformer_id', kind: 'int' },
  ],
};

export function pileHooks(registry: GatewayRegistryRepository, passwords: PilePasswordHasher): AssetHooks {
  return {
    async prepare({ values, references }) {
      const transformer = references.get('transformerId');
      if (transformer !== undefined && Number(transformer['station_id']) !== values['stationId']) {
        const message = `Box transformer ${String(values['transformerId'])} is not at station ${String(values['stationId'])}`;
        throw new AssetsException(AssetsErrorCode.RuleViolated, message, [
          { field: 'transformerId', message },
        ]);
      }
      const password = values['ocppPassword'];
      return typeof password === 'string' ? { ocpp_password_hash: passwords.hash(password) } : {};
    },
    async afterSave(m, saved, { previous }) {
      if (previous !== undefined && previous['chargePointId'] !== saved['chargePointId']) {
        await registry.retire(m, String(previous['chargePointId']));
      }
      await registry.syncPile(m, saved.id, gatewayStateOf(Number(saved['deviceStatus'])));
    },
    async beforeDelete(m, row) {
      await registry.retire(m, String(row['chargePointId']));
    },
  };
}

const gunSchema = z
  .object({
    pileId: requiredId('Charging host'),
    name: requiredText('Gun name', 32),
    channelNumber: requiredInt('Channel number', 1, 16),
    qrCode: requiredText('QR code', 128),
    connectorType: requiredCode('Connector type', CONNECTOR_TYPES),
    maxVoltageV: optionalInt('Maximum voltage (V)', 0, 2000),
    minVoltageV: optionalInt('Minimum voltage (V)', 0, 2000),
    ratedVoltageV: optionalInt('Rated voltage (V)', 0, 2000),
    ratedCurrentA: optionalInt('Rated current (A)', 0, 2000),
    ratedPowerW: optionalInt('Rated power (W)', 0, 10_000_000),
    bmsPower: optionalCode('Auxiliary supply (BMS) voltage', BMS_POWERS),
    terminalName: optionalText('Terminal name', 32),
    groundLockStatus: optionalCode('Ground lock status', GROUND_LOCK_STATUSES),
    parkingPlaceType: optionalEnum('Parking place type', PARKING_SPACE_TYPES),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.minVoltageV !== null && v.maxVoltageV !== null && v.minVoltageV > v.maxVoltageV) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['minVoltageV'],
        message: 'Minimum voltage (V) must not exceed maximum voltage (V)',
      });
    }
  });

export const gunDefinition: AssetDefinition = {
  kind: 'gun',
  noun: 'Gun',
  table: 'charging_gun',
  scoped: true,
  permission: 'basic:gun',
  columns: [
    { field: 'pileId', column: 'pile_id', kind: 'int' },
    { field: 'name', column: 'name', kind: 'text' },
    { field: 'channelNumber', column: 'channel_number', kind: 'int' },
    { field: 'qrCode', column: 'qr_code', kind: 'text' },
    { field: 'connectorType', column: 'connector_type', kind: 'int' },
    { field: 'maxVoltageV', column: 'max_voltage_v', kind: 'int' },
    { field: 'minVoltageV', column: 'min_voltage_v', kind: 'int' },
    { field: 'ratedVoltageV', column: 'rated_voltage_v', kind: 'int' },
    { field: 'ratedCurrentA', column: 'rated_current_a', kind: 'int' },
    { field: 'ratedPowerW', column: 'rated_power_w', kind: 'int', nullable: true },
    { field: 'bmsPower', column: 'bms_power', kind: 'int' },
    { field: 'terminalName', column: 'terminal_name', kind: 'text' },
    { field: 'groundLockStatus', column: 'ground_lock_status', kind: 'int' },
    { field: 'parkingPlaceType', column: 'parking_place_type', kind: 'text' },
  ],
  computed: [
    { field: 'pileName', sql: '(SELECT p.name FROM charging_pile p WHERE p.id = t.pile_id)', kind: 'text' },
    {
      field: 'chargePointId',
      sql: '(SELECT p.charge_point_id FROM charging_pile p WHERE p.id = t.pile_id)',
      kind: 'text',
    },
  ],
  references: [pileRef],
  organizationFrom: ['pileId'],
  unique: [
    {
      constraint: 'charging_gun_channel_uq',
      field: 'channelNumber',
      within: ['pileId'],
      message: (v) =>
        `Charging host ${String(v['pileId'])} already has a gun on channel ${String(v['channelNumber'])}`,
    },
    {
      constraint: 'charging_gun_qr_code_uq',
      field: 'qrCode',
      message: (v) => `QR code '${String(v['qrCode'])}' is already used by another gun`,
    },
  ],
  createSchema: gunSchema,
  updateSchema: gunSchema,
  filters: [
    { field: 'pileId', sql: 't.pile_id', kind: 'int' },
    { field: 'name', sql: 't.name', kind: 'like' },
    { field: 'qrCode', sql: 't.qr_code', kind: 'like' },
    {
      field: 'stationId',
      sql: '(SELECT p.station_id FROM charging_pile p WHERE p.id = t.pile_id)',
      kind: 'int',
    },
  ],
  orderBy: 't.pile_id DESC, t.channel_number',
  hooks: {
    async prepare({ values, references }) {
      const pile = references.get('pileId')!;
      const gunCount = pile['gun_count'] === null ? null : Number(pile['gun_count']);
      if (gunCount !== null && Number(values['channelNumber']) > gunCount) {
        const message = `Channel number ${String(values['channelNumber'])} exceeds the number of guns (${gunCount}) of charging host ${String(values['pileId'])}`;
        throw new AssetsException(AssetsErrorCode.RuleViolated, message, [
          { field: 'channelNumber', message },
        ]);
      }
      return {};
    },
  },
};
