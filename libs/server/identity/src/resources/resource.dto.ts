import { apiSchemas, view } from '@voltdepot/server-core';
import { z } from 'zod';
import type { ResourceRow } from './resource.repository';
import { bodyId, codeSchema, nameSchema } from '../shared/schemas';

const fields = {
  parentId: bodyId.nullable(),
  type: z.enum(['menu', 'button']),
  code: codeSchema,
  name: nameSchema,
  path: z.string().trim().max(255).nullable(),
  icon: z.string().trim().max(64).nullable(),
  sort: z.number().int().min(0).max(1_000_000),
  visible: z.boolean(),
};

export const createResourceSchema = z
  .object({
    ...fields,
    parentId: fields.parentId.optional(),
    path: fields.path.optional(),
    icon: fields.icon.optional(),
    sort: fields.sort.optional(),
    visible: fields.visible.optional(),
  })
  .strict();
export type CreateResourceDto = z.infer<typeof createResourceSchema>;
export const updateResourceSchema = z.object(fields).partial().strict();
export type UpdateResourceDto = z.infer<typeof updateResourceSchema>;

// Answers

export type ResourceType = 'menu' | 'button';
/** A menu or button resource with its children (a recursive schema needs its type written out). */
export type ResourceNode = ResourceRow & { children: ResourceNode[] };

export const resourceNodeSchema: z.ZodType<ResourceNode> = apiSchemas.named(
  'ResourceNode',
  z.lazy(() =>
    view({
      id: z.number().int(),
      parentId: z.number().int().nullable(),
      type: z.enum(['menu', 'button']),
      code: z.string(),
      name: z.string(),
      path: z.string().nullable(),
      icon: z.string().nullable(),
      sort: z.number().int(),
      visible: z.boolean(),
      children: z.array(resourceNodeSchema),
    }),
  ),
);
