import type { CspDirectives } from '@voltdepot/server-core';

/** Written by the console's build where a page's nonce goes (vite.config.ts `html.cspNonce`). */
export const CSP_NONCE_PLACEHOLDER = 'VOLTDEPOT_CSP_NONCE';

/** Where browsers post what the policy blocked; the server logs it. */
export const CSP_REPORT_PATH = '/csp-report';

const HOST = /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/;

export type ConsoleCspOptions = {
  /** The page's nonce (HTML answers); other files have none. */
  nonce?: string;
  /** The host the browser asked for, for the STOMP socket; ignored unless it is a plain host[:port]. */
  host?: string;
  mapTileOrigins: readonly string[];
  cardReaderOrigins: readonly string[];
};

/**
 * The console's policy. Scripts only from this server (the build has no inline script). Style elements
 * need the page's nonce: the console stamps it on every style element its code creates (antd's
 * CSS-in-JS, the scroll locker of dialogs, the editor), so injected markup cannot style the page. Style
 * attributes stay allowed: antd's components and echarts' tooltips set them through markup, and an
 * attribute can neither run script nor read the page. Connections: this server (API calls) and its
 * WebSocket (STOMP push; CSP 3 counts it as 'self', older engines need the scheme spelled out), and the
 * card-reader agent on loopback. Images: this server, data:/blob: (captcha, QR codes, editor images,
 * downloads) and the configured map tile hosts.
 */
export function consoleCsp(options: ConsoleCspOptions): CspDirectives {
  const socket =
    options.host !== undefined && HOST.test(options.host)
      ? [`ws://${options.host}`, `wss://${options.host}`]
      : [];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': options.nonce === undefined ? ["'self'"] : ["'self'", `'nonce-${options.nonce}'`],
    'style-src-attr': ["'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...options.mapTileOrigins],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...socket, ...options.cardReaderOrigins],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'report-uri': [CSP_REPORT_PATH],
  };
}
