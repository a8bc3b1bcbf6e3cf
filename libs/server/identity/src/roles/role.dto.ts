import { z } from 'zod';
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
