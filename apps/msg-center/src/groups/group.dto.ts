import { GroupTypes } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { entityId, optionalText } from '../shared/grid';

export const groupBodySchema = z
  .object({
    name: z
      .string({ required_error: 'Please enter group name' })
      .trim()
      .min(1, 'Please enter group name')
      .max(100),
    type: z.enum(GroupTypes),
    memberIds: z.array(entityId).max(10_000).default([]),
    description: z.string().trim().max(500).nullish(),
  })
  .superRefine((g, ctx) => {
    if (g.type !== 'NONE' && g.memberIds.length === 0) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['memberIds'],
        message: 'Please select at least one receiver',
      });
    }
  });
export type GroupBody = z.infer<typeof groupBodySchema>;

export const groupQuerySchema = z.object({ name: optionalText, type: optionalText });
export type GroupQuery = z.infer<typeof groupQuerySchema>;
