import { securityHeaders, SERVICE_CSP } from '@voltdepot/server-core';

/** The headers a browser's security depends on, CORS included (no service answers a foreign origin). */
const WATCHED = [
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'strict-transport-security',
  'access-control-allow-origin',
  'access-control-allow-credentials',
] as const;

/** The watched headers of a response (supertest's `res.headers` or fetch's `Headers`), lower-case names. */
export function securityHeadersOf(headers: Headers | Record<string, unknown>): Record<string, string> {
  const read = (name: string): unknown =>
    headers instanceof Headers ? (headers.get(name) ?? undefined) : headers[name];
  const found: Record<string, string> = {};
  for (const name of WATCHED) {
    const value = read(name);
    if (value !== undefined) found[name] = String(value);
  }
  return found;
}

/** What every answer of a service carries (createServiceApp), over plain HTTP: compare with `securityHeadersOf`. */
export const SERVICE_SECURITY_HEADERS: Record<string, string> = Object.fromEntries(
  Object.entries(securityHeaders({ csp: SERVICE_CSP, referrerPolicy: 'no-referrer', hsts: false })).map(
    ([name, value]) => [name.toLowerCase(), value],
  ),
);
