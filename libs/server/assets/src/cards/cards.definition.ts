import { CARD_STATUSES, CARD_TYPES } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import type { AssetDefinition, AssetHooks } from '../shared/asset-definition';
import {
  optionalDateTime,
  optionalId,
  optionalText,
  requiredCode,
  requiredEnum,
  requiredText,
} from '../shared/fields';
import { idTagStatusOf, type IdTagRepository } from './id-tag.repository';

/** Sent by the pile's card reader as the OCPP idTag (at most 20 characters). */
export const physicalNumber = requiredText('Physical number', 16, 1, {
  regex: /^[A-Za-z0-9]+$/,
  message: 'Physical number may contain only letters and digits',
});

const cardSchema = z
  .object({
    physicalNumber,
    type: requiredCode('Card type', CARD_TYPES),
    selfNumber: requiredText('Self number', 16),
    cardholder: requiredText('Cardholder', 30),
    description: optionalText('Description', 255),
    status: requiredEnum('Card status', CARD_STATUSES).default('normal'),
    expiryDate: optionalDateTime('Expiry date'),
    vehicleId: optionalId('Vehicle'),
    organizationId: optionalId('Organization'),
  })
  .strict();

/** The plate of the bus a card charges (depots issue one card per bus). */
const VEHICLE_PLATE_SQL = '(SELECT v.plate FROM vehicle v WHERE v.id = t.vehicle_id)';

export const cardDefinition: AssetDefinition = {
  kind: 'card',
  noun: 'Charging card',
  table: 'charging_card',
  scoped: true,
  permission: 'basic:cardConfig',
  columns: [
    { field: 'physicalNumber', column: 'physical_number', kind: 'text' },
    { field: 'type', column: 'type', kind: 'int' },
    { field: 'selfNumber', column: 'self_number', kind: 'text' },
    { field: 'cardholder', column: 'cardholder', kind: 'text' },
    { field: 'description', column: 'description', kind: 'text' },
    { field: 'status', column: 'status', kind: 'text' },
    { field: 'expiryDate', column: 'expiry_date', kind: 'timestamptz' },
    { field: 'vehicleId', column: 'vehicle_id', kind: 'int' },
  ],
  computed: [{ field: 'vehiclePlate', sql: VEHICLE_PLATE_SQL, kind: 'text' }],
  references: [{ field: 'vehicleId', table: 'vehicle', noun: 'Vehicle', scoped: true }],
  unique: [
    {
      constraint: 'charging_card_physical_number_uq',
      field: 'physicalNumber',
      message: (v) => `A card with physical number '${String(v['physicalNumber'])}' already exists`,
    },
    {
      // business-areas §5: card self number unique (repeat is an error).
      constraint: 'charging_card_self_number_uq',
      field: 'selfNumber',
      message: (v) =>
        `Card self number '${String(v['selfNumber'])}' is repeated: card self numbers must be unique`,
    },
  ],
  createSchema: cardSchema,
  updateSchema: cardSchema,
  filters: [
    { field: 'physicalNumber', sql: 't.physical_number', kind: 'like' },
    { field: 'selfNumber', sql: 't.self_number', kind: 'like' },
    { field: 'cardholder', sql: 't.cardholder', kind: 'like' },
    { field: 'status', sql: 't.status', kind: 'text' },
    { field: 'type', sql: 't.type', kind: 'int' },
    { field: 'vehicleId', sql: 't.vehicle_id', kind: 'int' },
    { field: 'vehiclePlate', sql: VEHICLE_PLATE_SQL, kind: 'like' },
  ],
};

export function cardHooks(idTags: IdTagRepository): AssetHooks {
  return {
    async afterSave(m, saved, { previous }) {
      if (previous !== undefined && previous['physicalNumber'] !== saved['physicalNumber']) {
        await idTags.remove(m, String(previous['physicalNumber']));
      }
      await idTags.upsert(
        m,
        String(saved['physicalNumber']),
        idTagStatusOf(String(saved['status'])),
        (saved['expiryDate'] as string | null) ?? null,
      );
    },
    async beforeDelete(m, row) {
      await idTags.remove(m, String(row['physicalNumber']));
    },
  };
}
