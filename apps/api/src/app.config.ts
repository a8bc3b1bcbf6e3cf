import { serviceConfigSchema } from '@voltdepot/server-core';
import type { z } from 'zod';

export const apiConfigSchema = serviceConfigSchema({ serviceName: 'api', port: 3000 });

export type ApiConfig = z.output<typeof apiConfigSchema>;
