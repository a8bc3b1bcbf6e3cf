import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { securityHeaders, trustedProxyMatcher, type Logger } from '@voltdepot/server-core';
import type { ConsoleServerConfig } from './console-server.config';
import { consoleCsp, CSP_NONCE_PLACEHOLDER, CSP_REPORT_PATH } from './console-csp';
import { forwardedValue, forwardRequest, forwardUpgrade, requestIsTls, type Upstream } from './proxy';
import { negotiateEncoding, StaticSite, type SiteFile } from './static-site';

export type ConsoleServerOptions = {
  config: Pick<
    ConsoleServerConfig,
    | 'SERVICE_NAME'
    | 'CONSOLE_DIST'
    | 'API_UPSTREAM'
    | 'MS_UPSTREAM'
    | 'TRUST_PROXY'
    | 'BEHIND_TLS'
    | 'CONSOLE_MAP_TILE_ORIGINS'
    | 'CONSOLE_CARD_READER_ORIGINS'
  >;
  logger: Logger;
};

export type ConsoleServer = {
  server: Server;
  /** Stops listening, ends open WebSockets and waits for the rest. */
  close(): Promise<void>;
};

/** The paths the console calls, by service (the Vite dev server's proxy in apps/console/vite.config.ts too). */
export const PROXIED_PREFIXES = {
  api: ['api', 'auth', 'public', 'authority', 'user', 'favorite'],
  'msg-center': ['ms'],
} as const;

const REPORT_LIMIT_BYTES = 16 * 1024;
/** CSP reports logged per minute at most: a broken page in many browsers must not flood the log. */
const REPORTS_PER_MINUTE = 30;

/**
 * The console in production: the build (dist/apps/console) with its caching rules and security headers, the
 * client-side routes answered with the console's page, and the API paths passed to the api and the message
 * centre (WebSocket included). Same origin for all of it, so no CORS anywhere.
 */
export function createConsoleServer(options: ConsoleServerOptions): ConsoleServer {
  const { config, logger } = options;
  const site = new StaticSite(config.CONSOLE_DIST);
  const forwarding = { trustedProxy: trustedProxyMatcher(config.TRUST_PROXY) };
  const upstreams: [RegExp, Upstream][] = [
    [prefixPattern(PROXIED_PREFIXES.api), { name: 'api', url: new URL(config.API_UPSTREAM) }],
    [prefixPattern(PROXIED_PREFIXES['msg-center']), { name: 'msg-center', url: new URL(config.MS_UPSTREAM) }],
  ];
  const upstreamOf = (url: string | undefined) => {
    const path = (url ?? '/').split('?')[0];
    return upstreams.find(([pattern]) => pattern.test(path))?.[1];
  };
  const reports = reportThrottle();

  const headersFor = (req: IncomingMessage, nonce?: string) =>
    securityHeaders({
      csp: consoleCsp({
        nonce,
        host:
          (forwarding.trustedProxy(req.socket.remoteAddress)
            ? forwardedValue(req, 'x-forwarded-host')
            : undefined) ?? req.headers.host,
        mapTileOrigins: config.CONSOLE_MAP_TILE_ORIGINS,
        cardReaderOrigins: config.CONSOLE_CARD_READER_ORIGINS,
      }),
      referrerPolicy: 'strict-origin-when-cross-origin',
      hsts: config.BEHIND_TLS || requestIsTls(req, forwarding),
    });

  async function serveFile(req: IncomingMessage, res: ServerResponse, file: SiteFile): Promise<void> {
    const head = req.method === 'HEAD';
    if (file.html) {
      // Each page gets its own nonce, so the page is never the same twice: no validators, always fetched.
      const nonce = randomBytes(16).toString('base64');
      const body = Buffer.from((await site.pageText(file)).replaceAll(CSP_NONCE_PLACEHOLDER, nonce));
      res.writeHead(200, {
        ...headersFor(req, nonce),
        'Content-Type': file.contentType,
        'Content-Length': body.length,
        'Cache-Control': file.cacheControl,
      });
      res.end(head ? undefined : body);
      return;
    }
    const etag = `W/"${file.size.toString(16)}-${Math.floor(file.mtimeMs).toString(16)}"`;
    const common = {
      ...headersFor(req),
      'Content-Type': file.contentType,
      'Cache-Control': file.cacheControl,
      ETag: etag,
      ...(file.compressible ? { Vary: 'Accept-Encoding' } : {}),
    };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, common).end();
      return;
    }
    const encoding = negotiateEncoding(req.headers['accept-encoding']);
    const compressed = site.compressedBody(file, encoding);
    if (compressed !== undefined && encoding !== undefined) {
      const body = await compressed;
      res.writeHead(200, { ...common, 'Content-Encoding': encoding, 'Content-Length': body.length });
      res.end(head ? undefined : body);
      return;
    }
    res.writeHead(200, { ...common, 'Content-Length': file.size });
    if (head) res.end();
    else
      site
        .stream(file)
        .on('error', () => res.destroy())
        .pipe(res);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const upstream = upstreamOf(req.url);
    if (upstream !== undefined) {
      forwardRequest(req, res, upstream, forwarding, logger);
      return;
    }
    const url = new URL(req.url ?? '/', 'http://console');
    if (url.pathname === '/health' && (req.method === 'GET' || req.method === 'HEAD')) {
      sendJson(req, res, 200, { service: config.SERVICE_NAME, status: 'ok' });
      return;
    }
    if (url.pathname === CSP_REPORT_PATH && req.method === 'POST') {
      await receiveReport(req, res);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      sendJson(req, res, 405, { code: 'METHOD_NOT_ALLOWED', message: `${req.method} is not allowed here` });
      return;
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      sendJson(req, res, 400, { code: 'BAD_REQUEST', message: 'Malformed path' });
      return;
    }
    const found = await site.lookup(pathname);
    if (found.kind === 'add-slash') {
      res.writeHead(301, { ...headersFor(req), Location: `${url.pathname}/${url.search}` }).end();
      return;
    }
    if (found.kind === 'missing') {
      sendJson(req, res, 404, { code: 'NOT_FOUND', message: `Cannot GET ${url.pathname}` });
      return;
    }
    await serveFile(req, res, found);
  }

  function sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: object): void {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      ...headersFor(req),
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(text),
      'Cache-Control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : text);
  }

  /** A browser's report of something the policy blocked (report-uri): logged, so operators see it. */
  async function receiveReport(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let size = 0;
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > REPORT_LIMIT_BYTES) {
        sendJson(req, res, 413, { code: 'PAYLOAD_TOO_LARGE', message: 'CSP report too large' });
        req.destroy();
        return;
      }
      chunks.push(chunk);
    }
    let report: unknown;
    try {
      const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      report = parsed['csp-report'] ?? parsed;
    } catch {
      sendJson(req, res, 400, { code: 'BAD_REQUEST', message: 'A CSP report is JSON' });
      return;
    }
    if (reports.take()) logger.warn({ report }, 'content security policy violation');
    res.writeHead(204, headersFor(req)).end();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger.error({ err: error, path: req.url?.split('?')[0] }, 'request failed');
      if (!res.headersSent)
        sendJson(req, res, 500, { code: 'INTERNAL_ERROR', message: 'Internal server error' });
      else res.destroy();
    });
  });
  const upgraded = new Set<Socket>();
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const upstream = upstreamOf(req.url);
    if (upstream === undefined) {
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
      return;
    }
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    forwardUpgrade(req, socket, head, upstream, forwarding, logger);
  });

  return {
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        for (const socket of upgraded) socket.destroy();
        server.closeIdleConnections();
      }),
  };
}

/** `/api` but not `/apiDocs`: a prefix followed by a slash or the end of the path. */
function prefixPattern(names: readonly string[]): RegExp {
  return new RegExp(`^/(?:${names.join('|')})(?:/|$)`);
}

function reportThrottle() {
  let windowStart = 0;
  let taken = 0;
  return {
    take(): boolean {
      const now = Date.now();
      if (now - windowStart >= 60_000) {
        windowStart = now;
        taken = 0;
      }
      taken += 1;
      return taken <= REPORTS_PER_MINUTE;
    },
  };
}
