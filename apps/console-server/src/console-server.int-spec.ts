import { createLogger, loadConfig } from '@voltdepot/server-core';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import request from 'supertest';
import WebSocket, { WebSocketServer } from 'ws';
import { consoleServerConfigSchema } from './console-server.config';
import { createConsoleServer } from './console-server';

/** What a fake upstream saw of a request, sent back as its answer. */
type Echo = { service: string; method: string; url: string; headers: Record<string, string>; body: string };

const PAGE = `<!doctype html><html><head>
<meta property="csp-nonce" nonce="VOLTDEPOT_CSP_NONCE" />
<script type="module" crossorigin src="/assets/index-Ab12Cd34.js" nonce="VOLTDEPOT_CSP_NONCE"></script>
<style nonce="VOLTDEPOT_CSP_NONCE">body{margin:0}</style>
</head><body><div id="root"></div></body></html>`;
const SCRIPT = `export const text = ${JSON.stringify('console '.repeat(400))};\n`;

/** A build as Vite writes it: two pages, hashed assets with their (hidden) source maps, public files. */
function writeBuild(): string {
  const dist = mkdtempSync(join(tmpdir(), 'console-dist-'));
  mkdirSync(join(dist, 'assets'));
  mkdirSync(join(dist, 'screen'));
  mkdirSync(join(dist, '.vite'));
  writeFileSync(join(dist, 'index.html'), PAGE);
  writeFileSync(
    join(dist, 'screen/index.html'),
    PAGE.replace('<div id="root">', '<div id="root" class="screen">'),
  );
  writeFileSync(join(dist, 'assets/index-Ab12Cd34.js'), SCRIPT);
  writeFileSync(join(dist, 'assets/index-Ab12Cd34.js.map'), '{"version":3,"sources":["src/main.tsx"]}');
  writeFileSync(join(dist, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dist, '.vite/manifest.json'), '{}');
  return dist;
}

/** An upstream that answers every request with what it saw, and speaks WebSocket at /ms/ws (echo). */
type FakeUpstream = { server: Server; url: string; cancelled: string[] };

async function fakeUpstream(service: string): Promise<FakeUpstream> {
  const cancelled: string[] = [];
  const sockets = new WebSocketServer({ noServer: true });
  sockets.on('connection', (ws, req) => {
    ws.send(`hello from ${service}, forwarded for ${req.headers['x-forwarded-for']}`);
    ws.on('message', (data) => ws.send(`echo ${String(data)}`));
  });
  const server = createServer((req, res) => {
    if (req.url === '/api/slow') {
      // Never answers; notes when the request is given up.
      res.on('close', () => cancelled.push(req.url ?? ''));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const echo: Echo = {
        service,
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const status = req.url?.startsWith('/api/missing') ? 404 : 200;
      res.writeHead(status, {
        'content-type': 'application/json',
        'set-cookie': ['a=1; HttpOnly', 'b=2'],
        'content-security-policy': "default-src 'none'",
      });
      res.end(JSON.stringify(echo));
    });
  });
  server.on('upgrade', (req: IncomingMessage, socket, head) => {
    if (req.url !== '/ms/ws') {
      socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-type: text/plain\r\ncontent-length: 6\r\n\r\nno way');
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => sockets.emit('connection', ws, req));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, cancelled };
}

function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      callback();
    },
  });
  return { lines, logger: createLogger({ service: 'console', level: 'warn', destination }) };
}

async function startConsole(dist: string, env: Record<string, string>) {
  const config = loadConfig(consoleServerConfigSchema, { CONSOLE_DIST: dist, ...env });
  const { lines, logger } = capturedLogger();
  const console = createConsoleServer({ config, logger });
  await new Promise<void>((resolve) => console.server.listen(0, '127.0.0.1', resolve));
  const port = (console.server.address() as AddressInfo).port;
  return { console, lines, url: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}` };
}

const nonceOf = (csp: string) => /'nonce-([^']+)'/.exec(csp)?.[1];

/** A GET whose body is left as the server sent it (supertest would decompress it). */
function rawGet(target: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    get(target, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    }).on('error', reject);
  });
}

describe('console server', () => {
  let dist: string;
  let api: FakeUpstream;
  let ms: FakeUpstream;
  let started: Awaited<ReturnType<typeof startConsole>>;
  let url: string;

  beforeAll(async () => {
    dist = writeBuild();
    api = await fakeUpstream('api');
    ms = await fakeUpstream('msg-center');
    started = await startConsole(dist, {
      API_UPSTREAM: api.url,
      MS_UPSTREAM: ms.url,
      CONSOLE_MAP_TILE_ORIGINS: 'https://*.tile.example.com',
    });
    url = started.url;
  });

  afterAll(async () => {
    await started?.console.close();
    await new Promise((resolve) => api?.server.close(resolve));
    await new Promise((resolve) => ms?.server.close(resolve));
    rmSync(dist, { recursive: true, force: true });
  });

  describe('pages', () => {
    it("serves the console's page with a fresh nonce in the policy and the page, never cached", async () => {
      const first = await request(url).get('/').expect(200);
      const second = await request(url).get('/').expect(200);
      const nonce = nonceOf(first.headers['content-security-policy']);
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(nonceOf(second.headers['content-security-policy'])).not.toBe(nonce);
      expect(first.text).not.toContain('VOLTDEPOT_CSP_NONCE');
      expect(first.text.match(/nonce="([^"]+)"/g)).toEqual(Array(3).fill(`nonce="${nonce}"`));
      expect(first.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(first.headers['cache-control']).toBe('no-cache');
      expect(first.headers['etag']).toBeUndefined();
      expect(first.headers['last-modified']).toBeUndefined();
    });

    it('sends the security headers and a policy the console works under, without HSTS over plain HTTP', async () => {
      const res = await request(url).get('/home').set('host', 'depot.example:8443').expect(200);
      expect(res.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'strict-origin-when-cross-origin',
        'cross-origin-opener-policy': 'same-origin',
      });
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      const directives = Object.fromEntries(
        (res.headers['content-security-policy'] as string).split('; ').map((d) => {
          const [name, ...sources] = d.split(' ');
          return [name, sources.join(' ')];
        }),
      );
      const nonce = nonceOf(res.headers['content-security-policy']);
      expect(directives).toEqual({
        'default-src': "'self'",
        'script-src': "'self'",
        'style-src': `'self' 'nonce-${nonce}'`,
        'style-src-attr': "'unsafe-inline'",
        'img-src': "'self' data: blob: https://*.tile.example.com",
        'font-src': "'self' data:",
        'connect-src': "'self' ws://depot.example:8443 wss://depot.example:8443 ws://127.0.0.1:*",
        'object-src': "'none'",
        'base-uri': "'self'",
        'form-action': "'self'",
        'frame-ancestors': "'none'",
        'report-uri': '/csp-report',
      });
    });

    it('answers client-side routes with the console and the big screen folder with its own page', async () => {
      for (const path of ['/home', '/station/ChargEquipManage/index', '/login?redirect=%2Fhome'])
        expect((await request(url).get(path).expect(200)).text).toContain('<div id="root">');
      expect((await request(url).get('/screen/').expect(200)).text).toContain('class="screen"');
      expect((await request(url).get('/screen/index.html').expect(200)).text).toContain('class="screen"');
      await request(url).get('/screen?ddtab=true').expect(301).expect('location', '/screen/?ddtab=true');
    });

    it('publishes no source map, dot file or anything outside the build; a missing file is a 404', async () => {
      for (const path of [
        '/assets/index-Ab12Cd34.js.map',
        '/.vite/manifest.json',
        '/%2e%2e/package.json',
        '/assets/..%2f..%2fpackage.json',
        '/assets/missing-Zz99.js',
      ]) {
        const res = await request(url).get(path);
        expect([path, res.status]).toEqual([path, 404]);
      }
      await request(url).get('/%E0%A4%A').expect(400);
    });

    it('only reads: other methods get 405', async () => {
      await request(url).put('/index.html').expect(405).expect('allow', 'GET, HEAD');
    });

    it('answers its own health check', async () => {
      await request(url).get('/health').expect(200, { service: 'console', status: 'ok' });
    });
  });

  describe('files', () => {
    const script = '/assets/index-Ab12Cd34.js';

    it('caches hashed assets for a year, immutable', async () => {
      const res = await request(url).get(script).expect(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });

    it.each([
      ['br', (body: Buffer) => brotliDecompressSync(body)],
      ['gzip', (body: Buffer) => gunzipSync(body)],
    ] as const)('compresses text files with %s when the browser takes it', async (encoding, decode) => {
      const res = await rawGet(`${url}${script}`, { 'accept-encoding': `${encoding}, deflate` });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['vary']).toBe('Accept-Encoding');
      expect(res.body.length).toBeLessThan(SCRIPT.length / 10);
      expect(decode(res.body).toString('utf8')).toBe(SCRIPT);
    });

    it('sends the file as it is when the browser takes no compression', async () => {
      const res = await rawGet(`${url}${script}`, { 'accept-encoding': 'identity, br;q=0' });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body.toString('utf8')).toBe(SCRIPT);
    });

    it('has unhashed files revalidated, with an ETag answering 304', async () => {
      const first = await request(url).get('/logo.svg').expect(200);
      expect(first.headers['cache-control']).toBe('no-cache');
      expect(first.headers['content-type']).toBe('image/svg+xml');
      await request(url).get('/logo.svg').set('if-none-match', first.headers['etag']).expect(304);
    });
  });

  describe('proxy', () => {
    it('passes the API paths to the api with path, query, method and body, and the answer back as it is', async () => {
      const res = await request(url)
        .post('/api/station/page/1/size/10?name=%E9%BC%93')
        .set('x-forwarded-for', '6.6.6.6')
        .set('x-forwarded-proto', 'https')
        .send({ name: '鼓楼' })
        .expect(200);
      const echo = res.body as Echo;
      expect(echo).toMatchObject({
        service: 'api',
        method: 'POST',
        url: '/api/station/page/1/size/10?name=%E9%BC%93',
        body: '{"name":"鼓楼"}',
      });
      // This server is the edge: what the client claimed is dropped.
      expect(echo.headers['x-forwarded-for']).toBe('127.0.0.1');
      expect(echo.headers['x-forwarded-proto']).toBe('http');
      expect(echo.headers['x-forwarded-host']).toBe(new URL(url).host);
      expect(res.headers['set-cookie']).toEqual(['a=1; HttpOnly', 'b=2']);
      // The service's own headers, not the console's page policy.
      expect(res.headers['content-security-policy']).toBe("default-src 'none'");
    });

    it.each([
      ['/auth/login', 'api'],
      ['/public/noAuth/getPlatformModuleConfigList', 'api'],
      ['/authority/users/currentuser/menus', 'api'],
      ['/user/info', 'api'],
      ['/favorite/list', 'api'],
      ['/ms/m1/msg/inbox/unread', 'msg-center'],
    ])('%s goes to %s', async (path, service) => {
      expect(((await request(url).get(path).expect(200)).body as Echo).service).toBe(service);
    });

    it('passes error statuses through, and keeps /apiDocs and /msx as console routes', async () => {
      await request(url).get('/api/missing').expect(404);
      for (const path of ['/apiDocs', '/msx'])
        expect((await request(url).get(path).expect(200)).text).toContain('<div id="root">');
    });

    it('answers 502 with an error body when the upstream is down', async () => {
      const down = await startConsole(dist, { API_UPSTREAM: 'http://127.0.0.1:1', MS_UPSTREAM: ms.url });
      try {
        const res = await request(down.url).get('/api/user/1').expect(502);
        expect(res.body).toMatchObject({
          code: 'UPSTREAM_UNAVAILABLE',
          message: 'The api service is not reachable',
        });
      } finally {
        await down.console.close();
      }
    });

    it('gives up the upstream request when the browser goes away, without logging it as a failure', async () => {
      const warnings = started.lines.length;
      const client = get(`${url}/api/slow`);
      client.on('error', () => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
      client.destroy();
      for (let i = 0; i < 50 && api.cancelled.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(api.cancelled).toEqual(['/api/slow']);
      expect(started.lines.slice(warnings)).toEqual([]);
    });

    it("passes the STOMP WebSocket to the message centre, both ways, with the client's address", async () => {
      const ws = new WebSocket(`${started.wsUrl}/ms/ws`, { headers: { 'x-forwarded-for': '6.6.6.6' } });
      const received: string[] = [];
      const two = new Promise<void>((resolve, reject) => {
        ws.on('message', (data) => {
          received.push(String(data));
          if (received.length === 2) resolve();
        });
        ws.on('error', reject);
      });
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      ws.send('CONNECT');
      await two;
      ws.close();
      expect(received).toEqual(['hello from msg-center, forwarded for 127.0.0.1', 'echo CONNECT']);
    });

    it("passes an upstream's refusal of an upgrade back, and refuses upgrades elsewhere", async () => {
      const statusOf = (path: string) =>
        new Promise<number>((resolve, reject) => {
          const ws = new WebSocket(`${started.wsUrl}${path}`);
          ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
          ws.on('open', () => reject(new Error(`${path} was upgraded`)));
          ws.on('error', () => undefined);
        });
      expect(await statusOf('/ms/other')).toBe(401);
      expect(await statusOf('/assets/socket')).toBe(404);
    });
  });

  describe('behind a proxy', () => {
    it('from a proxy TRUST_PROXY lists: extends X-Forwarded-For and keeps the https the proxy saw (HSTS on the page)', async () => {
      const behind = await startConsole(dist, {
        API_UPSTREAM: api.url,
        MS_UPSTREAM: ms.url,
        TRUST_PROXY: 'loopback',
      });
      try {
        const echo = (
          await request(behind.url)
            .get('/api/health')
            .set('x-forwarded-for', '203.0.113.9')
            .set('x-forwarded-proto', 'https')
            .set('x-forwarded-host', 'depot.example')
            .expect(200)
        ).body as Echo;
        expect(echo.headers).toMatchObject({
          'x-forwarded-for': '203.0.113.9, 127.0.0.1',
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'depot.example',
        });
        const page = await request(behind.url)
          .get('/')
          .set('x-forwarded-proto', 'https')
          .set('x-forwarded-host', 'depot.example')
          .expect(200);
        expect(page.headers['strict-transport-security']).toBe('max-age=31536000');
        expect(page.headers['content-security-policy']).toContain('wss://depot.example ');
        // Without the proxy's word for it, no HSTS.
        expect(
          (await request(behind.url).get('/').expect(200)).headers['strict-transport-security'],
        ).toBeUndefined();
      } finally {
        await behind.console.close();
      }
    });

    it('from a peer TRUST_PROXY does not list: sets X-Forwarded-* from the connection', async () => {
      const behind = await startConsole(dist, {
        API_UPSTREAM: api.url,
        MS_UPSTREAM: ms.url,
        TRUST_PROXY: '10.0.0.0/8',
      });
      try {
        const echo = (
          await request(behind.url)
            .get('/api/health')
            .set('x-forwarded-for', '203.0.113.9')
            .set('x-forwarded-proto', 'https')
            .set('x-forwarded-host', 'depot.example')
            .expect(200)
        ).body as Echo;
        expect(echo.headers).toMatchObject({ 'x-forwarded-for': '127.0.0.1', 'x-forwarded-proto': 'http' });
        expect(echo.headers['x-forwarded-host']).not.toBe('depot.example');
      } finally {
        await behind.console.close();
      }
    });

    it('BEHIND_TLS=true sends HSTS on every answer', async () => {
      const behind = await startConsole(dist, {
        API_UPSTREAM: api.url,
        MS_UPSTREAM: ms.url,
        BEHIND_TLS: 'true',
      });
      try {
        for (const path of ['/', '/assets/index-Ab12Cd34.js', '/nothing.js'])
          expect((await request(behind.url).get(path)).headers['strict-transport-security']).toBe(
            'max-age=31536000',
          );
      } finally {
        await behind.console.close();
      }
    });
  });

  describe('CSP reports', () => {
    it('logs what browsers report as blocked', async () => {
      const report = {
        'csp-report': {
          'document-uri': `${url}/home`,
          'violated-directive': 'img-src',
          'blocked-uri': 'https://tiles.elsewhere.example/1/2/3.png',
        },
      };
      await request(url)
        .post('/csp-report')
        .set('content-type', 'application/csp-report')
        .send(JSON.stringify(report))
        .expect(204);
      expect(started.lines).toContainEqual(
        expect.objectContaining({ msg: 'content security policy violation', report: report['csp-report'] }),
      );
    });

    it('refuses a report that is not JSON or too large', async () => {
      await request(url)
        .post('/csp-report')
        .set('content-type', 'application/csp-report')
        .send('nope')
        .expect(400);
      await request(url)
        .post('/csp-report')
        .set('content-type', 'application/csp-report')
        .send(JSON.stringify({ x: 'y'.repeat(20_000) }))
        .expect(413);
    });
  });
});
