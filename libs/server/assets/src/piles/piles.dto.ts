import { CHARGE_POINT_ID_PATTERN } from '@voltdepot/shared-ocpp';
import { apiSchemas, gridPageOf, view } from '@voltdepot/server-core';
import { z } from 'zod';
import { optionalId, requiredId, requiredText } from '../shared/fields';
import { assetViewSchemas } from '../shared/asset-view-schema';
import { ocppPassword, pileDefinition } from './piles.definition';

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

// Answers

export const updatedHostsSchema = apiSchemas.named(
  'UpdatedHosts',
  view({ updated: z.number().int().min(0).describe('Hosts changed') }),
);
export const deliveredHostsSchema = apiSchemas.named(
  'DeliveredHosts',
  view({ updated: z.number().int().min(0), deliveredAt: z.string().describe('ISO 8601 instant') }),
);

/** A charge point the gateway turned away because no host has its id. */
export const unknownPileAttemptSchema = apiSchemas.named(
  'UnknownPileAttempt',
  view({
    chargePointId: z.string(),
    remoteAddresses: z.array(z.string()),
    attempts: z.number().int(),
    firstSeenAt: z.string(),
    lastSeenAt: z.string(),
  }),
);
export type UnknownPileAttempt = z.infer<typeof unknownPileAttemptSchema>;
export const unknownPileAttemptPageSchema = gridPageOf('UnknownPileAttemptPage', unknownPileAttemptSchema);

export const registeredPileSchema = apiSchemas.named(
  'RegisteredPile',
  view({
    pile: assetViewSchemas(pileDefinition).row,
    ocppPassword: z.string().describe('The OCPP password, shown once'),
  }),
);
