import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AlertProbes } from './alert-probes';
import { parseAlertTarget } from './alert-target';

/** Probes against a local endpoint that wants Basic credentials (real HTTP, no other service). */
describe('alert probes: targets with credentials in their URL', () => {
  let server: Server;
  let base: string;
  const probes = new AlertProbes({ timeoutMs: 2_000, cpuSampleMs: 10 });
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
  const probes = new AlertProbes({ timeoutMs: 30_000, cpuSampleMs: 10 });

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
