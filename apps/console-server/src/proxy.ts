import { randomUUID } from 'node:crypto';
import { request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '@voltdepot/server-core';

/** A service behind the console: where to send a request and what to call it in errors. */
export type Upstream = { name: string; url: URL };

/** Headers of one connection, never passed on (RFC 9110 §7.6.1); an upgrade sets its own. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export type ForwardingOptions = {
  /**
   * Whether the peer is a trusted reverse proxy (TRUST_PROXY): then its X-Forwarded-* are extended;
   * otherwise they come from the connection and what the client sent is dropped.
   */
  trustedProxy: (address: string | undefined) => boolean;
};

/** The first value of a header a proxy in front may have set (`https, http` -> `https`). */
export function forwardedValue(req: IncomingMessage, name: string): string | undefined {
  const raw = req.headers[name];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.split(',')[0]?.trim();
  return value === '' ? undefined : value;
}

/** Whether the browser reached us over HTTPS, as far as this server can tell. */
export function requestIsTls(req: IncomingMessage, options: ForwardingOptions): boolean {
  if ((req.socket as Socket & { encrypted?: boolean }).encrypted) return true;
  return (
    options.trustedProxy(req.socket.remoteAddress) && forwardedValue(req, 'x-forwarded-proto') === 'https'
  );
}

/** The request's headers for the upstream: hop-by-hop ones dropped, X-Forwarded-* set. */
function upstreamHeaders(
  req: IncomingMessage,
  options: ForwardingOptions,
  keepUpgrade: boolean,
): IncomingHttpHeaders {
  const listed = new Set(
    String(req.headers['connection'] ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase()),
  );
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (HOP_BY_HOP.has(name) || listed.has(name) || name.startsWith('x-forwarded-')) continue;
    headers[name] = value;
  }
  const client = req.socket.remoteAddress ?? '';
  const trusted = options.trustedProxy(req.socket.remoteAddress);
  const earlier = trusted ? req.headers['x-forwarded-for'] : undefined;
  const chain = [earlier, client].flat().filter((item): item is string => Boolean(item));
  headers['x-forwarded-for'] = chain.join(', ');
  headers['x-forwarded-proto'] = requestIsTls(req, options) ? 'https' : 'http';
  const host = (trusted ? forwardedValue(req, 'x-forwarded-host') : undefined) ?? req.headers.host;
  if (host !== undefined) headers['x-forwarded-host'] = host;
  if (keepUpgrade) {
    headers['connection'] = 'Upgrade';
    headers['upgrade'] = req.headers['upgrade'];
  }
  return headers;
}

function upstreamRequest(upstream: Upstream, req: IncomingMessage, headers: IncomingHttpHeaders) {
  return request({
    protocol: upstream.url.protocol,
    hostname: upstream.url.hostname,
    port: upstream.url.port,
    method: req.method,
    path: req.url,
    headers,
  });
}

/** The error body the console's request layer shows, for an upstream that does not answer. */
function unavailableBody(upstream: Upstream): string {
  return JSON.stringify({
    code: 'UPSTREAM_UNAVAILABLE',
    message: `The ${upstream.name} service is not reachable`,
    correlationId: randomUUID(),
  });
}

/** Passes one HTTP request to `upstream` and its answer back, streamed both ways. */
export function forwardRequest(
  req: IncomingMessage,
  res: ServerResponse,
  upstream: Upstream,
  options: ForwardingOptions,
  logger: Logger,
): void {
  const outgoing = upstreamRequest(upstream, req, upstreamHeaders(req, options, false));
  outgoing.on('response', (answer) => {
    const headers: IncomingHttpHeaders = {};
    for (const [name, value] of Object.entries(answer.headers))
      if (!HOP_BY_HOP.has(name)) headers[name] = value;
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
    answer.pipe(res);
  });
  // The browser went away (a navigation, a closed tab): stop the upstream's work too, and say nothing of it.
  let abandoned = false;
  res.on('close', () => {
    if (res.writableFinished) return;
    abandoned = true;
    outgoing.destroy();
  });
  outgoing.on('error', (error) => {
    if (abandoned) return;
    logger.warn({ err: error, upstream: upstream.name, path: req.url?.split('?')[0] }, 'upstream failed');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' }).end(unavailableBody(upstream));
  });
  req.pipe(outgoing);
}

/** The 101 of an upgrade, as the upstream wrote it (the socket is ours once the request asked to upgrade). */
function switchingHead(answer: IncomingMessage): string {
  const lines = [`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}`];
  for (let i = 0; i < answer.rawHeaders.length; i += 2)
    lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** A whole answer written to a raw socket, which then closes. */
function endWithAnswer(socket: Duplex, status: string, contentType: string | undefined, body: Buffer): void {
  const head = [`HTTP/1.1 ${status}`, `content-length: ${body.length}`, 'connection: close'];
  if (contentType !== undefined) head.push(`content-type: ${contentType}`);
  socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), body]));
}

/**
 * Passes a WebSocket upgrade (the STOMP push at /ms/ws) to `upstream`, then joins the two sockets. A refusal
 * (401, 404) goes back to the browser with the upstream's status and body.
 */
export function forwardUpgrade(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  upstream: Upstream,
  options: ForwardingOptions,
  logger: Logger,
): void {
  const outgoing = upstreamRequest(upstream, req, upstreamHeaders(req, options, true));
  socket.on('error', () => outgoing.destroy());
  outgoing.on('upgrade', (answer, upstreamSocket, upstreamHead) => {
    socket.write(switchingHead(answer));
    if (upstreamHead.length > 0) socket.write(upstreamHead);
    if (head.length > 0) upstreamSocket.write(head);
    upstreamSocket.on('error', () => socket.destroy());
    socket.on('error', () => upstreamSocket.destroy());
    upstreamSocket.on('close', () => socket.destroy());
    socket.on('close', () => upstreamSocket.destroy());
    upstreamSocket.pipe(socket).pipe(upstreamSocket);
  });
  outgoing.on('response', (answer) => {
    const chunks: Buffer[] = [];
    answer.on('data', (chunk: Buffer) => chunks.push(chunk));
    answer.on('end', () =>
      endWithAnswer(
        socket,
        `${answer.statusCode} ${answer.statusMessage}`,
        answer.headers['content-type'],
        Buffer.concat(chunks),
      ),
    );
  });
  outgoing.on('error', (error) => {
    logger.warn({ err: error, upstream: upstream.name }, 'upstream failed to upgrade');
    endWithAnswer(
      socket,
      '502 Bad Gateway',
      'application/json; charset=utf-8',
      Buffer.from(unavailableBody(upstream)),
    );
  });
  outgoing.end();
}
