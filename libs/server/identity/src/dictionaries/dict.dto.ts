import { apiSchemas, view } from '@voltdepot/server-core';
import { z } from 'zod';
import type { DictRow } from './dict.repository';
import { bodyId, codeSchema, nameSchema } from '../shared/schemas';

/** A type has no parent; an item's parent is a type. */
export const createDictSchema = z
  .object({
    parentId: bodyId.nullable().optional(),
    code: codeSchema,
    name: nameSchema,
    value: z.string().max(255).nullable().optional(),
    sort: z.number().int().min(0).max(1_000_000).optional(),
    enabled: z.boolean().optional(),
  })
  .strict();
export type CreateDictDto = z.infer<typeof createDictSchema>;
export const updateDictSchema = createDictSchema.omit({ parentId: true }).partial().strict();
export type UpdateDictDto = z.infer<typeof updateDictSchema>;
export const dictTreeQuerySchema = z.object({
  code: z
    .string()
    .trim()
    .max(64)
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
});
export const dictTypeParamsSchema = z.object({ code: codeSchema });

// Answers

export type DictKind = 'type' | 'item';
/** A dictionary type with its items, or an item (a recursive schema needs its type written out). */
export type DictNode = DictRow & { children: DictNode[] };

export const dictNodeSchema: z.ZodType<DictNode> = apiSchemas.named(
  'DictNode',
  z.lazy(() =>
    view({
      id: z.number().int(),
      parentId: z.number().int().nullable(),
      kind: z.enum(['type', 'item']),
      code: z.string(),
      name: z.string(),
      value: z.string().nullable(),
      sort: z.number().int(),
      enabled: z.boolean(),
      children: z.array(dictNodeSchema),
    }),
  ),
);
