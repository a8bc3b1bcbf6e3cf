import { serviceConfigSchema } from '@voltdepot/server-core';
import type { z } from 'zod';

export const gatewayConfigSchema = serviceConfigSchema({ serviceName: 'ocpp-gateway', port: 3100 });

export type GatewayConfig = z.output<typeof gatewayConfigSchema>;
