import { apiSchemas, gridPageOf, view } from '@voltdepot/server-core';
import { z } from 'zod';

export const operationLogViewSchema = apiSchemas.named(
  'OperationLogView',
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
);
export type OperationLogView = z.infer<typeof operationLogViewSchema>;
export const operationLogPageSchema = gridPageOf('OperationLogPage', operationLogViewSchema);

export const loginLogViewSchema = apiSchemas.named(
  'LoginLogView',
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
);
export type LoginLogView = z.infer<typeof loginLogViewSchema>;
export const loginLogPageSchema = gridPageOf('LoginLogPage', loginLogViewSchema);
