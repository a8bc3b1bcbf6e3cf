import { serviceConfigSchema } from '@voltdepot/server-core';
import type { z } from 'zod';

export const msgCenterConfigSchema = serviceConfigSchema({ serviceName: 'msg-center', port: 3200 });

export type MsgCenterConfig = z.output<typeof msgCenterConfigSchema>;
