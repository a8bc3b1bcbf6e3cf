import { intParam, pageParams, INT32_MAX } from '@voltdepot/server-core';
import { GUN_STATUSES, PILE_COMMAND_ACTIONS, VEHICLE_CHARGE_STATUSES } from '@voltdepot/shared-contracts';
import { z } from 'zod';

const id = intParam(1, INT32_MAX);
const flag = z.enum(['true', 'false']).transform((v) => v === 'true');

export const stationParamsSchema = z.object({ id });
export type StationParams = z.infer<typeof stationParamsSchema>;

/** `{page}/size/{size}` of the monitoring grids. */
export const pageParamsSchema = z.object(pageParams(500));
export type PageParams = z.infer<typeof pageParamsSchema>;

export const pileQuerySchema = z
  .object({
    stationId: id.optional(),
    keyword: z.string().trim().max(48).optional(),
    online: flag.optional(),
    /** Piles with at least one gun in this status. */
    gunStatus: z.enum(GUN_STATUSES).optional(),
  })
  .strict();
export type PileQuery = z.infer<typeof pileQuerySchema>;

export const vehicleQuerySchema = z
  .object({
    keyword: z.string().trim().max(32).optional(),
    chargeStatus: z.enum(VEHICLE_CHARGE_STATUSES).optional(),
    lowSoc: flag.optional(),
  })
  .strict();
export type VehicleQuery = z.infer<typeof vehicleQuerySchema>;

export const commandParamsSchema = z.object({
  chargePointId: z.string().min(1).max(48),
  action: z.enum(PILE_COMMAND_ACTIONS, {
    errorMap: () => ({ message: `Action must be one of ${PILE_COMMAND_ACTIONS.join(', ')}` }),
  }),
});
export type CommandParams = z.infer<typeof commandParamsSchema>;

const connectorId = z.number({ required_error: 'Gun is required' }).int().min(1).max(16);
/** How long to wait for the pile's answer (default 30 s). */
const timeoutMs = z.number().int().min(1_000).max(120_000).optional();

/** The body of each command: the OCPP request fields the screens send (OCPP 1.6 §6). */
export const commandBodySchemas = {
  RemoteStartTransaction: z
    .object({
      connectorId,
      idTag: z
        .string({ required_error: 'Card number is required' })
        .trim()
        .min(1, 'Card number is required')
        .max(20, 'Card number must be at most 20 characters'),
      timeoutMs,
    })
    .strict(),
  RemoteStopTransaction: z
    .object({
      transactionId: z
        .number({ required_error: 'Transaction is required' })
        .int()
        .min(1, 'Transaction must be a transaction id (1 to 2147483647)')
        .max(2_147_483_647, 'Transaction must be a transaction id (1 to 2147483647)'),
      timeoutMs,
    })
    .strict(),
  Reset: z.object({ type: z.enum(['Hard', 'Soft']), timeoutMs }).strict(),
  UnlockConnector: z.object({ connectorId, timeoutMs }).strict(),
  ChangeAvailability: z
    .object({
      // 0: the whole pile.
      connectorId: z.number({ required_error: 'Gun is required' }).int().min(0).max(16),
      type: z.enum(['Inoperative', 'Operative']),
      timeoutMs,
    })
    .strict(),
} as const;

/** The body of any command, for the document (each action's body is validated by its own schema). */
export const anyCommandBodySchema = z.union([
  commandBodySchemas.RemoteStartTransaction,
  commandBodySchemas.RemoteStopTransaction,
  commandBodySchemas.Reset,
  commandBodySchemas.UnlockConnector,
  commandBodySchemas.ChangeAvailability,
]);
