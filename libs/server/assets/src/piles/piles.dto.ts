import { CHARGE_POINT_ID_PATTERN } from '@voltdepot/shared-ocpp';
import { z } from 'zod';
import { optionalId, requiredId, requiredText } from '../shared/fields';
import { ocppPassword } from './piles.definition';

/** business-areas §5: batch actions need at least one host. */
export const HOST_SELECTION_MESSAGE = 'At least one host must be selected';

export const hostSelectionSchema = z
  .object({
    ids: z
      .array(requiredId('Charging host'), {
        required_error: HOST_SELECTION_MESSAGE,
        invalid_type_error: HOST_SELECTION_MESSAGE,
      })
      .min(1, HOST_SELECTION_MESSAGE)
      .max(500, 'At most 500 hosts at a time'),
  })
  .strict();
export type HostSelectionDto = z.infer<typeof hostSelectionSchema>;

export const registerUnknownPileSchema = z
  .object({
    stationId: optionalId('Station').transform((v) => v ?? undefined),
    organizationId: optionalId('Organization').transform((v) => v ?? undefined),
    name: requiredText('Name', 32).optional(),
    number: requiredText('Number', 16).optional(),
    ocppPassword: ocppPassword.optional(),
  })
  .strict();
export type RegisterUnknownPileDto = z.infer<typeof registerUnknownPileSchema>;

export const chargePointIdParamsSchema = z.object({
  chargePointId: z
    .string()
    .regex(
      CHARGE_POINT_ID_PATTERN,
      'Charge point id must start with a letter or digit and contain only letters, digits and . _ : -',
    ),
});
