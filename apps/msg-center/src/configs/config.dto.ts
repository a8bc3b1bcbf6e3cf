import { ChannelTypes } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { optionalText } from '../shared/grid';

export const configBodySchema = z.object({
  configName: z
    .string({ required_error: 'Please enter configuration name' })
    .trim()
    .min(1, 'Please enter configuration name')
    .max(100),
  fullName: z
    .string({ required_error: 'Please enter message type' })
    .trim()
    .min(1, 'Please enter message type')
    .max(200),
  channel: z.enum(ChannelTypes),
  provider: z.string().trim().max(20).nullish(),
  settings: z.record(z.unknown()).default({}),
  status: z.string().trim().max(20).optional(),
});
export type ConfigBody = z.infer<typeof configBodySchema>;

export const configQuerySchema = z.object({
  configName: optionalText,
  fullName: optionalText,
  channel: optionalText,
});
export type ConfigQuery = z.infer<typeof configQuerySchema>;
