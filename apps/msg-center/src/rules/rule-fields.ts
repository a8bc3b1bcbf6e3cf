import { Frequencies, MsgLevels } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { entityId } from '../shared/grid';

/** Fields shared by event rules and alerts: what to send, to whom, where, how urgent, how often. */
export const ruleDeliveryShape = {
  templateId: entityId.nullish(),
  groupId: entityId.nullish(),
  channels: z
    .array(z.coerce.number().int().min(0, 'channels are 0 to 4').max(4, 'channels are 0 to 4'))
    .max(5)
    .default([])
    .transform((c) => [...new Set(c)].sort()),
  level: z.enum(MsgLevels).default('PROMPT'),
  frequency: z.enum(Frequencies).nullish(),
  enabled: z.boolean().default(true),
};

/** Throttle window of a frequency: at most one message per rule and target in it. */
export const FREQUENCY_MS: Record<(typeof Frequencies)[number], number> = {
  FIVE_MINUTES: 5 * 60_000,
  THIRTY_MINUTES: 30 * 60_000,
  HOURS: 3_600_000,
  FOUR_HOURS: 4 * 3_600_000,
  DAY: 86_400_000,
  WEEK: 7 * 86_400_000,
};
