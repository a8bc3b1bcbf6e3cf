import type { TLSSocket } from 'node:tls';
import type { HttpRequest, HttpResponse, Middleware, NextFunction } from './express-types';

/** Directive name -> sources, e.g. `{ 'default-src': ["'self'"] }`. */
export type CspDirectives = Readonly<Record<string, readonly string[]>>;

/** The header value of a policy: `name source source; name source`. */
export function contentSecurityPolicy(directives: CspDirectives): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');
}

/**
 * What the services answer with is JSON (and files): nothing in it may load, run or be framed. Browsers never
 * render these responses as pages, so this only bites when someone opens one directly.
 */
export const SERVICE_CSP: CspDirectives = {
  'default-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
};

/**
 * The OpenAPI page (Swagger UI, outside production): its scripts and stylesheet come from the service itself;
 * it sets inline styles and shows data: images, and reads the document with fetch.
 */
export const API_DOCS_CSP: CspDirectives = {
  'default-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'style-src': ["'self'", "'unsafe-inline'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** One year. Without includeSubDomains: other hosts of the operator's domain are not ours to decide for. */
export const HSTS_VALUE = 'max-age=31536000';

export type SecurityHeaderOptions = {
  csp: CspDirectives;
  /** `no-referrer` for the services; the console sends its origin to map tile servers, which ask for it. */
  referrerPolicy: 'no-referrer' | 'strict-origin-when-cross-origin';
  /** Strict-Transport-Security: only for a request that came over TLS (see `cameOverTls`). */
  hsts: boolean;
};

/** The security headers of one response, for any HTTP server (services and the console server). */
export function securityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Security-Policy': contentSecurityPolicy(options.csp),
    'X-Content-Type-Options': 'nosniff',
    // For browsers without CSP frame-ancestors.
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': options.referrerPolicy,
    'Cross-Origin-Opener-Policy': 'same-origin',
    // No other site may embed what we serve (scripts, images, JSON) without CORS.
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
  if (options.hsts) headers['Strict-Transport-Security'] = HSTS_VALUE;
  return headers;
}

/**
 * True when the browser reached us over HTTPS: this server's own TLS, Express's `req.secure` (which reads
 * X-Forwarded-Proto only when the app trusts its proxy), or `behindTls`, the operator's word that a TLS proxy
 * in front serves every request (BEHIND_TLS).
 */
export function cameOverTls(req: HttpRequest, behindTls: boolean): boolean {
  return behindTls || req.secure === true || (req.socket as TLSSocket | undefined)?.encrypted === true;
}

/**
 * First middleware of every service (createServiceApp): the security headers on every answer, errors and 404s
 * included. `setupOpenApiDocs` replaces the policy on the docs page.
 */
export function securityHeadersMiddleware(options: { behindTls: boolean }): Middleware {
  return function securityHeadersOf(req: HttpRequest, res: HttpResponse, next: NextFunction): void {
    const headers = securityHeaders({
      csp: SERVICE_CSP,
      referrerPolicy: 'no-referrer',
      hsts: cameOverTls(req, options.behindTls),
    });
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    next();
  };
}
