import { apiSchemas, exactly, gridPageOf, view } from '@voltdepot/server-core';
import type { LoginLogView, OperationLogView } from '@voltdepot/shared-contracts';
import { z } from 'zod';

export const operationLogViewSchema = apiSchemas.named(
  'OperationLogView',
  exactly<OperationLogView>()(
    view({
      id: z.number().int(),
      userId: z.number().int().nullable(),
      username: z.string().nullable(),
      method: z.string(),
      path: z.string(),
      route: z.string().nullable(),
      status: z.number().int(),
      success: z.boolean(),
      ip: z.string().nullable(),
      userAgent: z.string().nullable(),
      durationMs: z.number(),
      correlationId: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
);
export const operationLogPageSchema = gridPageOf('OperationLogPage', operationLogViewSchema);

export const loginLogViewSchema = apiSchemas.named(
  'LoginLogView',
  exactly<LoginLogView>()(
    view({
      id: z.number().int(),
      userId: z.number().int().nullable(),
      username: z.string(),
      success: z.boolean(),
      reason: z.string().nullable(),
      ip: z.string().nullable(),
      userAgent: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
);
export const loginLogPageSchema = gridPageOf('LoginLogPage', loginLogViewSchema);
