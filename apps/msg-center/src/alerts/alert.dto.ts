import { AlertGroups, ComparisonExpressions, JobTypes, MsgStatuses } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { optionalText } from '../shared/grid';
import { ruleDeliveryShape } from '../rules/rule-fields';

export const alertBodySchema = z.object({
  name: z
    .string({ required_error: 'Please enter alert name' })
    .trim()
    .min(1, 'Please enter alert name')
    .max(100),
  alertGroup: z.enum(AlertGroups),
  jobType: z.enum(JobTypes),
  /** What to measure; the forms per job type are in evaluation/alert-target.ts (checked by the service). */
  target: z.string().trim().min(1, 'Please enter target').max(500),
  expression: z.enum(ComparisonExpressions).default('GE'),
  threshold: z.coerce.number().finite(),
  status: z.enum(MsgStatuses).default('DEFAULT'),
  ...ruleDeliveryShape,
});
export type AlertBody = z.infer<typeof alertBodySchema>;

export const alertQuerySchema = z.object({
  name: optionalText,
  alertGroup: optionalText,
  jobType: optionalText,
  level: optionalText,
});
export type AlertQuery = z.infer<typeof alertQuerySchema>;

export const prometheusQuerySchema = z.object({ job: optionalText });
