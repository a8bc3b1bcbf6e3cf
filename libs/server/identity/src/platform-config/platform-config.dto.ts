import { apiSchemas, exactly, gridPageOf, view } from '@voltdepot/server-core';
import type { EncryptedPlatformConfig } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { pageParamsSchema } from '../shared/schemas';

export const configKeySchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.-]+$/, 'Only letters, digits and _ . - are allowed');
export const configKeyParamsSchema = z.object({ configKey: configKeySchema });
const configValueSchema = z.string().max(4000);

export const createConfigSchema = z
  .object({
    configKey: configKeySchema,
    configValue: configValueSchema,
    category: z.enum(['system', 'third_party']),
    description: z.string().max(255).nullable().optional(),
  })
  .strict();
export type CreateConfigDto = z.infer<typeof createConfigSchema>;

export const updateConfigSchema = z
  .object({ configValue: configValueSchema, description: z.string().max(255).nullable().optional() })
  .strict();
export type UpdateConfigDto = z.infer<typeof updateConfigSchema>;

/** `PUT /api/platformConfig`: several settings saved together (all or none). */
export const batchUpdateConfigSchema = z
  .object({
    items: z
      .array(z.object({ configKey: configKeySchema, configValue: configValueSchema }).strict())
      .min(1, 'At least one setting must be given')
      .max(100, 'At most 100 settings at a time'),
  })
  .strict()
  .superRefine((dto, ctx) => {
    const seen = new Set<string>();
    dto.items.forEach((item, i) => {
      if (seen.has(item.configKey)) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ['items', i, 'configKey'],
          message: `'${item.configKey}' is given more than once`,
        });
      }
      seen.add(item.configKey);
    });
  });
export type BatchUpdateConfigDto = z.infer<typeof batchUpdateConfigSchema>;

export const configQuerySchema = z.object({
  category: z
    .enum(['platform', 'system', 'third_party', ''])
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
});
export { pageParamsSchema };

// Answers

export const CONFIG_CATEGORIES = ['platform', 'system', 'third_party'] as const;
export const platformConfigRowSchema = apiSchemas.named(
  'PlatformConfigRow',
  view({
    configKey: z.string(),
    configValue: z.string(),
    category: z.enum(CONFIG_CATEGORIES),
    isPublic: z.boolean(),
    builtin: z.boolean(),
    description: z.string().nullable(),
    updatedBy: z.string().nullable(),
    updatedAt: z.string(),
  }),
);
export type PlatformConfigRow = z.infer<typeof platformConfigRowSchema>;
export type ConfigCategory = PlatformConfigRow['category'];
export const platformConfigPageSchema = gridPageOf('PlatformConfigPage', platformConfigRowSchema);

export const encryptedPlatformConfigSchema = apiSchemas.named(
  'EncryptedPlatformConfig',
  exactly<EncryptedPlatformConfig>()(
    view({
      alg: z.literal('AES-256-GCM'),
      iv: z.string().describe('12 random bytes, base64'),
      data: z.string().describe('base64 of the ciphertext followed by the 16-byte tag'),
    }),
  ),
);
