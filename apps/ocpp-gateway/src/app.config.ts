import { serviceConfigSchema } from '@voltdepot/server-core';
import type { z } from 'zod';
import { ocppGatewayConfigShape } from './gateway/ocpp-gateway.config';

export const gatewayConfigSchema = serviceConfigSchema(
  { serviceName: 'ocpp-gateway', port: 3100 },
  ocppGatewayConfigShape,
);

export type GatewayConfig = z.output<typeof gatewayConfigSchema>;
