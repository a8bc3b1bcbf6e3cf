import { apiSchemas, view } from '@voltdepot/server-core';
import { z } from 'zod';
import type { OrganizationRow } from './organization.repository';
import { bodyId, codeSchema, nameSchema } from '../shared/schemas';

const sort = z.number().int().min(0).max(1_000_000);
export const createOrganizationSchema = z
  .object({ parentId: bodyId, code: codeSchema, name: nameSchema, sort: sort.optional() })
  .strict();
export type CreateOrganizationDto = z.infer<typeof createOrganizationSchema>;
export const updateOrganizationSchema = z
  .object({
    parentId: bodyId.optional(),
    code: codeSchema.optional(),
    name: nameSchema.optional(),
    sort: sort.optional(),
  })
  .strict();
export type UpdateOrganizationDto = z.infer<typeof updateOrganizationSchema>;

// Answers

/** An organisation with its children (a recursive schema needs its type written out). */
export type OrganizationNode = Omit<OrganizationRow, 'path'> & { children: OrganizationNode[] };

export const organizationNodeSchema: z.ZodType<OrganizationNode> = apiSchemas.named(
  'OrganizationNode',
  z.lazy(() =>
    view({
      id: z.number().int(),
      parentId: z.number().int().nullable(),
      code: z.string(),
      name: z.string(),
      sort: z.number().int(),
      children: z.array(organizationNodeSchema),
    }),
  ),
);
