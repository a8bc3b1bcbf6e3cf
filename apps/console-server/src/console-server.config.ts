import { envBoolean, envPort, envProxyList, envUrl, LOG_LEVELS } from '@voltdepot/server-core';
import { z } from 'zod';

/** `scheme://host[:port]`, host and port may be `*` wildcards as CSP allows; nothing that could end a directive. */
const CSP_ORIGIN = /^(https?|wss?):\/\/(\*\.)?[A-Za-z0-9.-]+(:(\d{1,5}|\*))?$/;

/** A space- or comma-separated list of origins for a CSP directive. */
function cspOrigins() {
  return z.string().transform((raw, ctx) => {
    const origins = raw.split(/[\s,]+/).filter((item) => item !== '');
    const bad = origins.filter((origin) => !CSP_ORIGIN.test(origin));
    if (bad.length > 0) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `expected origins like https://tiles.example.com or ws://127.0.0.1:*, got '${bad.join(' ')}'`,
      });
      return z.NEVER;
    }
    return origins;
  });
}

/**
 * The console server's environment:
 * - PORT (4200), HOST (all interfaces): where it listens.
 * - CONSOLE_DIST (dist/apps/console): the console's build (`nx run console:build`).
 * - API_UPSTREAM (http://127.0.0.1:3000): the api, for /api /auth /public /authority /user /favorite.
 * - MS_UPSTREAM (http://127.0.0.1:3200): the message centre, for /ms and its STOMP WebSocket /ms/ws.
 * - TRUST_PROXY (none): the reverse proxies in front (addresses, CIDR ranges, loopback/linklocal/uniquelocal,
 *   as every service reads it): a request from one of them has its X-Forwarded-For/-Proto/-Host extended
 *   and passed on. From any other peer this server is the edge: it sets them from the connection and drops
 *   what the client sent, so nobody can pose as another address to the api's login throttling.
 * - BEHIND_TLS (false): a TLS proxy in front serves every request over HTTPS: answers carry HSTS.
 * - CONSOLE_MAP_TILE_ORIGINS (none): the hosts of the map tile source (platform setting `mapTileUrl`),
 *   e.g. `https://*.tile.openstreetmap.org`; the console's policy lets images load only from these.
 * - CONSOLE_CARD_READER_ORIGINS (`ws://127.0.0.1:*`): the IC-card reader agent on the operator's PC.
 */
export const consoleServerConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  SERVICE_NAME: z.string().min(1).default('console'),
  PORT: envPort().default('4200'),
  HOST: z.string().min(1).optional(),
  CONSOLE_DIST: z.string().min(1).default('dist/apps/console'),
  API_UPSTREAM: envUrl(['http']).default('http://127.0.0.1:3000'),
  MS_UPSTREAM: envUrl(['http']).default('http://127.0.0.1:3200'),
  TRUST_PROXY: envProxyList().default(''),
  BEHIND_TLS: envBoolean().default('false'),
  CONSOLE_MAP_TILE_ORIGINS: cspOrigins().default(''),
  CONSOLE_CARD_READER_ORIGINS: cspOrigins().default('ws://127.0.0.1:*'),
});

export type ConsoleServerConfig = z.output<typeof consoleServerConfigSchema>;
