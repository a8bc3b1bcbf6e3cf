import { apiSchemas, view } from '@voltdepot/server-core';
import { z } from 'zod';
import { resourceNodeSchema } from '../resources/resource.dto';
import { userProfileShape } from '../users/user.dto';

export const currentUserInfoSchema = apiSchemas.named(
  'CurrentUserInfo',
  view({
    id: z.number().int(),
    username: z.string(),
    realName: z.string(),
    organizationId: z.number().int(),
    organizationName: z.string(),
    roles: z.array(view({ id: z.number().int(), code: z.string(), name: z.string() })),
    permissions: z.array(z.string()).describe('Codes of the menus and buttons the caller holds'),
    menus: z.array(resourceNodeSchema),
    secondFactorMissing: z
      .boolean()
      .describe('An administrator whose account has no second factor (TOTP): the console warns them'),
  }),
);
export type CurrentUserInfo = z.infer<typeof currentUserInfoSchema>;

export const userExtSchema = apiSchemas.named(
  'UserExt',
  view({
    userId: z.number().int(),
    ...userProfileShape,
    dataScopeOrganizationIds: z
      .array(z.number().int())
      .describe('Roots of the organisation subtrees whose data the caller sees'),
    lastLoginAt: z.string().nullable(),
    totpEnabled: z.boolean(),
  }),
);
export type UserExt = z.infer<typeof userExtSchema>;
