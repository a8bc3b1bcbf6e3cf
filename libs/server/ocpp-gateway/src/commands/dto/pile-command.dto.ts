import { apiSchemas, gridPageOf, pageParams, view } from '@voltdepot/server-core';
import { z } from 'zod';
import { CHARGE_POINT_ID_PATTERN } from '@voltdepot/shared-ocpp';
import { findUnstorableText } from '../../persistence/storable-values';

/** The permission code (a button resource under "operation") that lets a user command piles. */
export const PILE_COMMAND_PERMISSION = 'pile:command';

export const pileParamsSchema = z.object({
  chargePointId: z
    .string()
    .regex(
      CHARGE_POINT_ID_PATTERN,
      'Charge point id must start with a letter or digit and contain only letters, digits and . _ : -',
    ),
});

export const commandParamsSchema = pileParamsSchema.extend({
  // Checked against the OCPP 1.6 command list by CommandService, which names the valid ones.
  action: z.string().min(1).max(64),
});
export type CommandParams = z.infer<typeof commandParamsSchema>;

/** `{page}/size/{size}` path parameters of the command journal grid. */
export const commandPageParamsSchema = pileParamsSchema.extend({
  ...pageParams(1000),
});
export type CommandPageParams = z.infer<typeof commandPageParamsSchema>;

/**
 * The request body: the OCPP request's own fields, plus an optional `timeoutMs` that is not sent to
 * the pile. The OCPP fields are validated against the OCPP 1.6J schema by CommandService.
 */
export const commandBodySchema = z
  .object({ timeoutMs: z.number().int().min(100).max(600_000).optional() })
  .passthrough()
  .superRefine((body, ctx) => {
    // The command is journalled as jsonb, which takes no NUL character.
    const problem = findUnstorableText(body);
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  });
export type CommandBody = z.infer<typeof commandBodySchema>;

// Answers (names distinct from the api's: one process may serve both documents).

export const commandResultSchema = apiSchemas.named(
  'GatewayCommandResult',
  view({
    status: z.literal('completed'),
    response: z.unknown().describe("The pile's OCPP confirmation, e.g. { status: 'Accepted' }"),
  }),
);
export type CommandResultDto = z.infer<typeof commandResultSchema>;

export const pileCommandRecordSchema = apiSchemas.named(
  'PileCommandRecord',
  view({
    id: z.string(),
    chargePointId: z.string(),
    action: z.string(),
    params: z.unknown().describe('The OCPP request sent'),
    status: z.enum(['pending', 'completed', 'failed', 'timeout', 'offline']),
    response: z.unknown().describe("The pile's answer, once completed"),
    error: z.string().nullable(),
    replicaId: z.string().nullable().describe('The gateway replica the pile was connected to'),
    requestedAt: z.string(),
    completedAt: z.string().nullable(),
  }),
);
export const pileCommandRecordPageSchema = gridPageOf('PileCommandRecordPage', pileCommandRecordSchema);
