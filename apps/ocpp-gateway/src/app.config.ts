import { envBoolean, MIN_JWT_SECRET_LENGTH, serviceConfigSchema } from '@voltdepot/server-core';
import { checkOcppSecurity, ocppGatewayConfigShape } from '@voltdepot/server-ocpp-gateway';
import { checkPilePasswordKey } from '@voltdepot/server-pile-credentials';
import { z } from 'zod';

/**
 * The gateway's environment: the common service variables, the OCPP module's (see
 * ocppGatewayConfigShape in @voltdepot/server-ocpp-gateway) and, for the command HTTP API behind the shared guard:
 * - JWT_SECRET (required, at least 32 characters): the api's access-token key.
 * - AUTH_REDIS_KEY_PREFIX ('auth:'): must match the api's, where the sessions live.
 * - OPENAPI_DOCS (true outside production): serve the command API's document at /docs and /docs-json.
 * - PILE_PASSWORD_KEY (required in production; a development key elsewhere, with a warning), with
 *   PILE_PASSWORD_KEY_ID and PILE_PASSWORD_PREVIOUS_KEYS: the pile password key, the same as the api's.
 */
export const gatewayConfigSchema = serviceConfigSchema(
  { serviceName: 'ocpp-gateway', port: 3100 },
  {
    ...ocppGatewayConfigShape,
    JWT_SECRET: z
      .string()
      .min(MIN_JWT_SECRET_LENGTH, `must have at least ${MIN_JWT_SECRET_LENGTH} characters`),
    AUTH_REDIS_KEY_PREFIX: z.string().min(1).max(64).default('auth:'),
    OPENAPI_DOCS: envBoolean().optional(),
  },
)
  .superRefine(checkOcppSecurity)
  .superRefine(checkPilePasswordKey)
  .transform((c) => ({ ...c, OPENAPI_DOCS: c.OPENAPI_DOCS ?? c.NODE_ENV !== 'production' }));

export type GatewayConfig = z.output<typeof gatewayConfigSchema>;
