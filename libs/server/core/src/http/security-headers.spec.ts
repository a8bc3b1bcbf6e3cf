import { Socket } from 'node:net';
import { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpRequest } from './express-types';
import {
  cameOverTls,
  contentSecurityPolicy,
  securityHeaders,
  securityHeadersMiddleware,
  SERVICE_CSP,
} from './security-headers';

function plainRequest(extra: Partial<HttpRequest> = {}): HttpRequest {
  return Object.assign(new IncomingMessage(new Socket()), extra);
}

describe('security headers', () => {
  it('writes a policy as directives separated by semicolons', () => {
    expect(contentSecurityPolicy({ 'default-src': ["'self'"], 'img-src': ["'self'", 'data:'] })).toBe(
      "default-src 'self'; img-src 'self' data:",
    );
  });

  it('sends nosniff, no framing, the referrer policy and the policy; HSTS only when asked', () => {
    const headers = securityHeaders({ csp: SERVICE_CSP, referrerPolicy: 'no-referrer', hsts: false });
    expect(headers).toEqual({
      'Content-Security-Policy':
        "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
    });
    expect(
      securityHeaders({ csp: SERVICE_CSP, referrerPolicy: 'no-referrer', hsts: true })[
        'Strict-Transport-Security'
      ],
    ).toBe('max-age=31536000');
  });

  it.each([
    ['plain HTTP', {}, false, false],
    ['plain HTTP, BEHIND_TLS', {}, true, true],
    ["Express's req.secure (a trusted proxy said https)", { secure: true }, false, true],
  ])('%s: TLS is %s', (_name, extra, behindTls, expected) => {
    expect(cameOverTls(plainRequest(extra as Partial<HttpRequest>), behindTls as boolean)).toBe(expected);
  });

  it('the middleware sets every header and calls next', () => {
    const req = plainRequest();
    const res = new ServerResponse(req);
    const next = jest.fn();
    securityHeadersMiddleware({ behindTls: true })(req, res, next);
    expect(next).toHaveBeenCalledWith();
    expect(res.getHeader('x-content-type-options')).toBe('nosniff');
    expect(res.getHeader('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.getHeader('strict-transport-security')).toBe('max-age=31536000');
  });
});
