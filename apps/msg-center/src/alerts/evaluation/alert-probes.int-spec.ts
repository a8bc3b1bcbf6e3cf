import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OutboundAllowList, OutboundGuard, type HostResolver } from '@voltdepot/server-core';
import { AlertProbes } from './alert-probes';
import { parseAlertTarget } from './alert-target';

/** The rules as a deployment that lets its alerts reach this machine has them. */
function loopbackAllowed(resolver?: HostResolver): OutboundGuard {
  return new OutboundGuard(new OutboundAllowList(['127.0.0.1']), resolver);
}

/** Probes against a local endpoint that wants Basic credentials (real HTTP, no other service). */
describe('alert probes: targets with credentials in their URL', () => {
  let server: Server;
  let base: string;
  const probes = new AlertProbes({ timeoutMs: 2_000, cpuSampleMs: 10, outbound: loopbackAllowed() });
  const expected = `Basic ${Buffer.from('ops:p@ss').toString('base64')}`;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.headers.authorization !== expected) {
        res.writeHead(401).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(req.url === '/metrics' ? 'process_open_fds 42\n' : '{"status":"UP"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it.each([
    ['HTTP', (hp: string) => `http://ops:p%40ss@${hp}/health`, 1],
    ['JAVA', (hp: string) => `http://ops:p%40ss@${hp}/metrics#process_open_fds`, 42],
  ] as const)('%s sends them as Basic authorization', async (jobType, target, value) => {
    const [m] = await probes.measure(parseAlertTarget(jobType, target(base)), 'label');
    expect(m).toEqual({ target: 'label', value, down: false });
  });

  it('never puts them into the error of a refused check', async () => {
    const [m] = await probes.measure(
      parseAlertTarget('JAVA', `http://ops:wrong@${base}/metrics#process_open_fds`),
      'label',
    );
    expect(m).toMatchObject({ value: null, down: true });
    expect(m.error).toContain('HTTP 401');
    expect(m.error).not.toContain('wrong');
  });
});

describe('alert probes: a target that serves an endless body', () => {
  let server: Server;
  let base: string;
  // A time-out far beyond what either check needs: the size limit, not the clock, must end the metrics
  // read (on a loaded CI machine 16 MiB once took longer than a 3 s time-out), and the HTTP check is
  // timed separately below.
  const probes = new AlertProbes({ timeoutMs: 30_000, cpuSampleMs: 10, outbound: loopbackAllowed() });

  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      if (req.url === '/metrics') res.write('process_open_fds 42\n');
      // Never ends: a stream, a large file or a misbehaving service. Written as fast as the socket takes
      // it (not on a timer, which a loaded machine slows below the probe's 16 MiB before its time-out).
      const chunk = Buffer.alloc(1024 * 1024, 'x');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on('drain', pump);
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });

  it('judges an HTTP check from the start of the page, without reading it all', async () => {
    const started = Date.now();
    const [m] = await probes.measure(parseAlertTarget('HTTP', `http://${base}/stream`), 'label');
    expect(m).toEqual({ target: 'label', value: 1, down: false });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('refuses a metrics page beyond its size limit instead of holding it in memory', async () => {
    const [m] = await probes.measure(
      parseAlertTarget('JAVA', `http://${base}/metrics#process_open_fds`),
      'label',
    );
    expect(m).toMatchObject({ value: null, down: true });
    expect(m.error).toContain('serves more than 16 MiB of metrics');
  });
});

describe('alert probes: targets the outbound rules refuse when they are checked', () => {
  let server: Server;
  let base: string;
  let port: number;
  // `alerts.example` stood for this machine when the alert was saved; now it names the metadata service.
  const resolver: HostResolver = async (host) => [
    { address: host === 'alerts.example' ? '169.254.169.254' : '127.0.0.1', family: 4 },
  ];
  const probes = new AlertProbes({ timeoutMs: 2_000, cpuSampleMs: 10, outbound: loopbackAllowed(resolver) });
  const requested: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      requested.push(req.url ?? '');
      if (req.url === '/moved') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      else res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('process_open_fds 42\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    base = `127.0.0.1:${port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const refused =
    /169\.254\.169\.254,? (is )?a link-local, metadata or reserved address, where outbound requests never go/;

  it.each([
    ['an HTTP check redirected to the metadata service', 'HTTP', () => `http://${base}/moved`, 0],
    [
      'an HTTP check of a name that now resolves there',
      'HTTP',
      () => `http://alerts.example:${port}/health`,
      0,
    ],
    ['a scrape of that name', 'JAVA', () => `http://alerts.example:${port}/metrics#process_open_fds`, null],
    ['a TCP check of that name', 'CONNECTION', () => `alerts.example:${port}`, 0],
    ['a Redis check of that name', 'REDIS', () => `redis://alerts.example:${port}`, null],
  ] as const)(
    '%s is down with the reason, and nothing is requested there',
    async (_case, jobType, target, value) => {
      requested.splice(0);
      const [m] = await probes.measure(parseAlertTarget(jobType, target()), 'label');
      expect(m).toMatchObject({ target: 'label', value, down: true, error: expect.stringMatching(refused) });
      expect(requested.filter((url) => url !== '/moved')).toEqual([]);
    },
  );

  it('a check of an allowed target still works', async () => {
    const [m] = await probes.measure(
      parseAlertTarget('JAVA', `http://${base}/metrics#process_open_fds`),
      'label',
    );
    expect(m).toEqual({ target: 'label', value: 42, down: false });
  });
});

describe("alert probes: the platform's own /metrics behind METRICS_TOKEN", () => {
  let server: Server;
  let base: string;
  const TOKEN = 'metrics-token-0123456789abcdef';
  const seen: (string | undefined)[] = [];

  beforeAll(async () => {
    // Like a service's /metrics with METRICS_TOKEN set.
    server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      if (req.headers.authorization !== `Bearer ${TOKEN}`) {
        res.writeHead(401).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('process_open_fds 7\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => seen.splice(0));

  const measure = (metricsToken: string | undefined, target: string) =>
    new AlertProbes({ timeoutMs: 2_000, cpuSampleMs: 10, outbound: loopbackAllowed(), metricsToken }).measure(
      parseAlertTarget('JAVA', target),
      'label',
    );

  it('scrapes it with the token (a target inside the network)', async () => {
    const [m] = await measure(TOKEN, `http://${base}/metrics#process_open_fds`);
    expect(m).toEqual({ target: 'label', value: 7, down: false });
  });

  it('without the token configured the check says why it is down', async () => {
    const [m] = await measure(undefined, `http://${base}/metrics#process_open_fds`);
    expect(m).toMatchObject({ value: null, down: true, error: expect.stringContaining('HTTP 401') });
  });

  it("sends a target's own credentials instead of the token", async () => {
    await measure(TOKEN, `http://ops:pw@${base}/metrics#process_open_fds`);
    expect(seen).toEqual([`Basic ${Buffer.from('ops:pw').toString('base64')}`]);
  });
});
