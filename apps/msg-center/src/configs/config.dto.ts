import { boundedJson } from '@voltdepot/server-core';
import { ChannelTypes } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { optionalText } from '../shared/grid';
import { channelSettingsSchema } from './channel-settings';

export const configBodySchema = z
  .object({
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
    // Flat and small whatever the channel; then the channel's own settings (channel-settings.ts).
    settings: boundedJson({ maxDepth: 1, maxKeys: 20, maxBytes: 16_384 }, z.record(z.unknown())).default({}),
    status: z.string().trim().max(20).optional(),
  })
  .transform((body, ctx) => {
    const schema = channelSettingsSchema(body.channel, body.provider);
    if (typeof schema === 'string') {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['provider'], message: schema });
      return z.NEVER;
    }
    const settings = schema.safeParse(body.settings, { path: ['settings'] });
    if (settings.success) return { ...body, settings: settings.data as Record<string, unknown> };
    for (const issue of settings.error.issues) ctx.addIssue(issue);
    return z.NEVER;
  });
export type ConfigBody = z.infer<typeof configBodySchema>;

export const configQuerySchema = z.object({
  configName: optionalText,
  fullName: optionalText,
  channel: optionalText,
});
export type ConfigQuery = z.infer<typeof configQuerySchema>;
