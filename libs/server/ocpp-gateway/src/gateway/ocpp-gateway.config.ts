import { accessSync, constants, readFileSync } from 'node:fs';
import { z } from 'zod';
import { envInt, envPort } from '@voltdepot/server-core';
import { pilePasswordConfigShape } from '@voltdepot/server-pile-credentials';

/**
 * Environment variables of the OCPP gateway module (spread into the app's config schema):
 * OCPP_PORT (9000), OCPP_HOST, OCPP_PATH (/ocpp), OCPP_HEARTBEAT_INTERVAL_S, OCPP_BOOT_RETRY_INTERVAL_S,
 * OCPP_MAX_BAD_MESSAGES (in a row, or within OCPP_BAD_MESSAGE_WINDOW_S), OCPP_MAX_QUEUED_CALLS (calls of
 * one pile waiting for their turn), OCPP_REGISTRY_REFRESH_MS, OCPP_ID_TAG_CACHE_MS (fresh lifetime of a
 * cached card), OCPP_ID_TAG_MAX_STALE_MS (how old a cached card may be and still answer while the database
 * is down, 24 h), OCPP_AUTHORIZE_DB_TIMEOUT_MS (Authorize waits this long for the database before
 * answering from memory, 150), OCPP_OPEN_TX_REFRESH_MS (reload of the open transactions kept in memory
 * for ConcurrentTx, 10000; 0: never), OCPP_COMMAND_TIMEOUT_MS,
 * OCPP_MESSAGE_LOG_RETENTION_DAYS, OCPP_REPLICA_ID (default: hostname-pid), OCPP_REDIS_PREFIX (vd),
 * OCPP_METER_BATCH_WAIT_MS (how long a MeterValues call waits for company in a group commit when a
 * connection is free, 2), OCPP_METER_WRITE_CONCURRENCY (meter batches written at once, 1) and
 * OCPP_SECURITY_PROFILE (1: ws:// + HTTP Basic; 2: wss:// with OCPP_TLS_CERT_FILE and OCPP_TLS_KEY_FILE,
 * PEM files, + HTTP Basic), OCPP_MAX_PLAUSIBLE_POWER_W (an energy register rising faster is flagged 'jump'; 100 MW by default, a
 * safety net against corrupt registers that sped-up simulators stay under — set it to about 1.5 x the
 * largest charger of the deployment), OCPP_WS_PING_INTERVAL_MS (30000: a pile that has sent nothing for this
 * long gets a WebSocket ping, and one that has not answered it by the next is disconnected; 0: never ping;
 * otherwise at least 1000); the rules closing sessions a pile never stopped (docs/ocpp-gateway.md):
 * OCPP_SESSION_IDLE_GRACE_S (a session whose connector has been Available or Finishing this long is
 * closed, 600), OCPP_SESSION_MAX_AGE_H (a session recorded this long ago is closed, 24: longer than a
 * night, at least 12, so that delayed and planned sessions waiting overnight are not) and
 * OCPP_SESSION_SWEEP_S (how often each replica applies those two rules, 60; 0: never).
 * Handshakes (see docs/ocpp-gateway.md, "Handshake"): OCPP_HANDSHAKE_TIMEOUT_MS (every handshake answered within
 * it, 5000), OCPP_AUTH_FAILURE_DELAY_MS (a credentials refusal is answered no sooner, 200),
 * OCPP_AUTH_FAILURE_WINDOW_S (300), OCPP_AUTH_MAX_FAILURES_PER_PILE (10) and OCPP_AUTH_MAX_FAILURES_PER_ADDRESS
 * (200): failures within the window before an id's or an address's handshakes are refused with 429 (0: no
 * limit); and the pile password key PILE_PASSWORD_KEY, PILE_PASSWORD_KEY_ID, PILE_PASSWORD_PREVIOUS_KEYS
 * (@voltdepot/server-pile-credentials; the same as the api's).
 */
export const ocppGatewayConfigShape = {
  OCPP_PORT: envPort().default('9000'),
  OCPP_HOST: z.string().min(1).default('0.0.0.0'),
  OCPP_PATH: z
    .string()
    .regex(/^\/[A-Za-z0-9/_-]*$/)
    .default('/ocpp'),
  OCPP_HEARTBEAT_INTERVAL_S: envInt({ min: 10, max: 86_400 }).default('300'),
  OCPP_BOOT_RETRY_INTERVAL_S: envInt({ min: 5, max: 86_400 }).default('60'),
  OCPP_MAX_BAD_MESSAGES: envInt({ min: 1, max: 1_000 }).default('10'),
  OCPP_BAD_MESSAGE_WINDOW_S: envInt({ min: 1, max: 86_400 }).default('60'),
  OCPP_MAX_QUEUED_CALLS: envInt({ min: 1, max: 100 }).default('5'),
  OCPP_REGISTRY_REFRESH_MS: envInt({ min: 100, max: 600_000 }).default('2000'),
  OCPP_ID_TAG_CACHE_MS: envInt({ min: 0, max: 600_000 }).default('5000'),
  OCPP_ID_TAG_MAX_STALE_MS: envInt({ min: 0, max: 604_800_000 }).default('86400000'),
  OCPP_AUTHORIZE_DB_TIMEOUT_MS: envInt({ min: 10, max: 30_000 }).default('150'),
  OCPP_OPEN_TX_REFRESH_MS: envInt({ min: 0, max: 3_600_000 }).default('10000'),
  OCPP_COMMAND_TIMEOUT_MS: envInt({ min: 100, max: 600_000 }).default('30000'),
  OCPP_MESSAGE_LOG_RETENTION_DAYS: envInt({ min: 1, max: 3_650 }).default('7'),
  OCPP_REPLICA_ID: z.string().min(1).optional(),
  OCPP_REDIS_PREFIX: z.string().min(1).default('vd'),
  OCPP_METER_BATCH_WAIT_MS: envInt({ min: 0, max: 1_000 }).default('2'),
  OCPP_METER_WRITE_CONCURRENCY: envInt({ min: 1, max: 8 }).default('1'),
  OCPP_SECURITY_PROFILE: z.enum(['1', '2']).default('1').transform(Number),
  OCPP_TLS_CERT_FILE: z.string().min(1).optional(),
  OCPP_TLS_KEY_FILE: z.string().min(1).optional(),
  OCPP_MAX_PLAUSIBLE_POWER_W: envInt({ min: 1_000, max: 1_000_000_000 }).default('100000000'),
  OCPP_WS_PING_INTERVAL_MS: envInt({ min: 0, max: 2_147_483_647 })
    .refine((ms) => ms === 0 || ms >= 1_000, 'expected 0 (never ping) or at least 1000 ms')
    .default('30000'),
  OCPP_HANDSHAKE_TIMEOUT_MS: envInt({ min: 100, max: 60_000 }).default('5000'),
  OCPP_AUTH_FAILURE_DELAY_MS: envInt({ min: 0, max: 5_000 }).default('200'),
  OCPP_AUTH_FAILURE_WINDOW_S: envInt({ min: 1, max: 86_400 }).default('300'),
  OCPP_AUTH_MAX_FAILURES_PER_PILE: envInt({ min: 0, max: 100_000 }).default('10'),
  OCPP_AUTH_MAX_FAILURES_PER_ADDRESS: envInt({ min: 0, max: 1_000_000 }).default('200'),
  ...pilePasswordConfigShape,
  OCPP_SESSION_IDLE_GRACE_S: envInt({ min: 10, max: 604_800 }).default('600'),
  OCPP_SESSION_MAX_AGE_H: envInt({ min: 12, max: 720 }).default('24'),
  OCPP_SESSION_SWEEP_S: envInt({ min: 0, max: 3_600 }).default('60'),
};

export type OcppGatewayEnv = z.output<z.ZodObject<typeof ocppGatewayConfigShape>>;

/**
 * Profile 2 needs the certificate and key files, readable: checked with the rest of the configuration
 * so that a gateway meant to be TLS-only never starts on plain ws://.
 */
export function checkOcppSecurity(
  config: { OCPP_SECURITY_PROFILE: number; OCPP_TLS_CERT_FILE?: string; OCPP_TLS_KEY_FILE?: string },
  ctx: z.RefinementCtx,
): void {
  if (config.OCPP_SECURITY_PROFILE !== 2) return;
  for (const name of ['OCPP_TLS_CERT_FILE', 'OCPP_TLS_KEY_FILE'] as const) {
    const file = config[name];
    if (!file)
      ctx.addIssue({ code: 'custom', path: [name], message: 'is required when OCPP_SECURITY_PROFILE is 2' });
    else if (!readable(file)) ctx.addIssue({ code: 'custom', path: [name], message: `cannot read ${file}` });
  }
}

function readable(file: string): boolean {
  try {
    accessSync(file, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The OCPP module's variables alone, checked as the service checks them: what the module accepts and
 * refuses (the service's schema adds its common and HTTP variables to the same shape and check).
 */
export const ocppGatewayEnvSchema = z.object(ocppGatewayConfigShape).superRefine(checkOcppSecurity);

/** The TLS material of profile 2 (undefined for profile 1). */
export function ocppTlsOf(config: {
  OCPP_SECURITY_PROFILE?: number;
  OCPP_TLS_CERT_FILE?: string;
  OCPP_TLS_KEY_FILE?: string;
}): { cert: Buffer; key: Buffer } | undefined {
  if (config.OCPP_SECURITY_PROFILE !== 2) return undefined;
  if (!config.OCPP_TLS_CERT_FILE || !config.OCPP_TLS_KEY_FILE)
    throw new Error('OCPP_SECURITY_PROFILE 2 needs OCPP_TLS_CERT_FILE and OCPP_TLS_KEY_FILE');
  return { cert: readFileSync(config.OCPP_TLS_CERT_FILE), key: readFileSync(config.OCPP_TLS_KEY_FILE) };
}
