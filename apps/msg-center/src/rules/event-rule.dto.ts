import { boundedJson } from '@voltdepot/server-core';
import { z } from 'zod';
import { optionalText } from '../shared/grid';
import { ruleDeliveryShape } from './rule-fields';

/** Bus events a rule can match (type names of libs/shared/events), with the stop kind as a condition. */
export const RULE_EVENT_TYPES = ['transaction.stopped', 'pile.error', 'pile.error-cleared'] as const;

export const eventRuleBodySchema = z.object({
  name: z
    .string({ required_error: 'Please enter event name' })
    .trim()
    .min(1, 'Please enter event name')
    .max(100),
  eventType: z.enum(RULE_EVENT_TYPES),
  condition: boundedJson(
    { maxDepth: 1, maxKeys: 20, maxBytes: 4096 },
    z.record(z.union([z.string(), z.number(), z.boolean()])),
  ).default({}),
  ...ruleDeliveryShape,
});
export type EventRuleBody = z.infer<typeof eventRuleBodySchema>;

export const eventRuleQuerySchema = z.object({
  name: optionalText,
  eventType: optionalText,
  level: optionalText,
});
export type EventRuleQuery = z.infer<typeof eventRuleQuerySchema>;
