import { apiSchemas, gridPageOf, view } from '@voltdepot/server-core';
import { z } from 'zod';
import {
  bodyId,
  nameSchema,
  optionalQueryBoolean,
  optionalQueryText,
  passwordSchema,
  usernameSchema,
} from '../shared/schemas';

export const phoneSchema = z
  .string()
  .trim()
  .max(32)
  .regex(/^[0-9+\- ]*$/, 'Only digits, spaces, + and - are allowed')
  .nullable();
export const emailSchema = z.string().trim().max(128).email().nullable();

export const createUserSchema = z
  .object({
    username: usernameSchema,
    password: passwordSchema,
    realName: nameSchema,
    phone: phoneSchema.optional(),
    email: emailSchema.optional(),
    organizationId: bodyId,
    enabled: z.boolean().optional(),
    roleIds: z.array(bodyId).max(50).optional(),
  })
  .strict();
export type CreateUserDto = z.infer<typeof createUserSchema>;

export const updateUserSchema = z
  .object({
    realName: nameSchema.optional(),
    phone: phoneSchema.optional(),
    email: emailSchema.optional(),
    organizationId: bodyId.optional(),
    roleIds: z.array(bodyId).max(50).optional(),
  })
  .strict();
export type UpdateUserDto = z.infer<typeof updateUserSchema>;

export const enabledSchema = z.object({ enabled: z.boolean() }).strict();
export const resetPasswordSchema = z.object({ password: passwordSchema }).strict();
export const copyUserSchema = z
  .object({ username: usernameSchema, realName: nameSchema, password: passwordSchema })
  .strict();
export type CopyUserDto = z.infer<typeof copyUserSchema>;
export const userRolesSchema = z.object({ roleIds: z.array(bodyId).max(50) }).strict();
export const changeOwnPasswordSchema = z
  .object({ oldPassword: z.string().min(1).max(128), newPassword: passwordSchema })
  .strict();

export const userQuerySchema = z.object({
  username: optionalQueryText,
  realName: optionalQueryText,
  organizationId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  enabled: optionalQueryBoolean,
});
export type UserQuery = z.infer<typeof userQuerySchema>;

// Answers

/** Who a user is: what the user grid and the caller's own profile both show. */
export const userProfileShape = {
  username: z.string(),
  realName: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  organizationId: z.number().int(),
  organizationName: z.string(),
};

export const userViewSchema = apiSchemas.named(
  'UserView',
  view({
    id: z.number().int(),
    ...userProfileShape,
    enabled: z.boolean(),
    totpEnabled: z.boolean().describe('A second factor (TOTP) is on: administrators may reset it'),
    roleIds: z.array(z.number().int()),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
);
export type UserView = z.infer<typeof userViewSchema>;
export const userPageSchema = gridPageOf('UserPage', userViewSchema);
export const userRoleIdsSchema = apiSchemas.named(
  'UserRoleIds',
  view({ roleIds: z.array(z.number().int()) }),
);
