import { apiSchemas, gridPageOf, view } from '@voltdepot/server-core';
import { z } from 'zod';
import { organizationNodeSchema } from '../organizations/organization.dto';
import { resourceNodeSchema } from '../resources/resource.dto';
import { bodyId, codeSchema, nameSchema, optionalQueryText } from '../shared/schemas';

const description = z.string().trim().max(255).nullable();

export const createRoleSchema = z
  .object({ code: codeSchema, name: nameSchema, description: description.optional() })
  .strict();
export type CreateRoleDto = z.infer<typeof createRoleSchema>;
export const updateRoleSchema = z
  .object({ code: codeSchema.optional(), name: nameSchema.optional(), description: description.optional() })
  .strict();
export type UpdateRoleDto = z.infer<typeof updateRoleSchema>;
export const roleResourcesSchema = z.object({ resourceIds: z.array(bodyId).max(5000) }).strict();
export const roleOrganizationsSchema = z.object({ organizationIds: z.array(bodyId).max(1000) }).strict();
export const roleQuerySchema = z.object({ code: optionalQueryText, name: optionalQueryText });

// Answers

export const roleViewSchema = apiSchemas.named(
  'RoleView',
  view({
    id: z.number().int(),
    code: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    builtin: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
);
export type RoleView = z.infer<typeof roleViewSchema>;
export const rolePageSchema = gridPageOf('RolePage', roleViewSchema);
export const roleResourcesViewSchema = apiSchemas.named(
  'RoleResourcesView',
  view({ resourceIds: z.array(z.number().int()), tree: z.array(resourceNodeSchema) }),
);
export type RoleResourcesView = z.infer<typeof roleResourcesViewSchema>;
export const roleOrganizationsViewSchema = apiSchemas.named(
  'RoleOrganizationsView',
  view({ organizationIds: z.array(z.number().int()), tree: z.array(organizationNodeSchema) }),
);
export type RoleOrganizationsView = z.infer<typeof roleOrganizationsViewSchema>;
export const roleResourceIdsSchema = apiSchemas.named(
  'RoleResourceIds',
  view({ resourceIds: z.array(z.number().int()) }),
);
export const roleOrganizationIdsSchema = apiSchemas.named(
  'RoleOrganizationIds',
  view({ organizationIds: z.array(z.number().int()) }),
);
