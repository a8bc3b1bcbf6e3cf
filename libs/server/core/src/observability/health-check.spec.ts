import { buildHealthReport, healthCheck, healthHttpStatus, runHealthCheck } from './health-check';
import { postgresCheck, redisCheck } from './dependency-checks';

const up = healthCheck('up', async () => undefined);
const down = healthCheck('down', async () => {
  throw new Error('connect ECONNREFUSED 127.0.0.1:1');
});

describe('health checks', () => {
  it('reports up with a latency', async () => {
    expect(await runHealthCheck(up)).toEqual({ name: 'up', status: 'up', latencyMs: expect.any(Number) });
  });

  it('reports a rejection as down with its message', async () => {
    expect(await runHealthCheck(down)).toMatchObject({
      name: 'down',
      status: 'down',
      error: 'connect ECONNREFUSED 127.0.0.1:1',
    });
  });

  it('reports a synchronous throw as down', async () => {
    const throwsSync = {
      name: 'sync',
      check: () => {
        throw new Error('sync');
      },
    } as never;
    expect(await runHealthCheck(throwsSync)).toMatchObject({ status: 'down', error: 'sync' });
  });

  it('gives up after the timeout', async () => {
    const hangs = healthCheck('hangs', () => new Promise(() => undefined), { timeoutMs: 20 });
    expect(await runHealthCheck(hangs)).toMatchObject({ status: 'down', error: 'timed out after 20 ms' });
  });

  it('explains an AggregateError (several addresses refused)', async () => {
    const many = healthCheck('pg', async () => {
      throw new AggregateError([
        new Error('connect ECONNREFUSED ::1:5999'),
        new Error('connect ECONNREFUSED 127.0.0.1:5999'),
      ]);
    });
    expect((await runHealthCheck(many)).error).toBe(
      'connect ECONNREFUSED ::1:5999; connect ECONNREFUSED 127.0.0.1:5999',
    );
  });

  it.each([
    ['all up', [up, up], 'ok', 200],
    ['no checks', [], 'ok', 200],
    ['a critical one down', [up, down], 'down', 503],
    ['only a non-critical one down', [up, { ...down, critical: false }], 'degraded', 200],
  ] as const)('%s -> %s (%i)', async (_case, checks, status, httpStatus) => {
    const report = await buildHealthReport(checks, { service: 'api', version: '1.2.3' });
    expect(report).toMatchObject({
      service: 'api',
      version: '1.2.3',
      status,
      uptimeSeconds: expect.any(Number),
    });
    expect(report.dependencies.map((d) => d.name)).toEqual(checks.map((c) => c.name));
    expect(healthHttpStatus(report)).toBe(httpStatus);
  });
});

describe('dependency checks', () => {
  it('postgresCheck runs SELECT 1', async () => {
    const query = jest.fn().mockResolvedValue({ rows: [{ '?column?': 1 }] });
    const check = postgresCheck({ query });
    await check.check();
    expect(check.name).toBe('postgres');
    expect(query).toHaveBeenCalledWith('SELECT 1');
  });

  it('redisCheck pings, and fails fast while reconnecting', async () => {
    await expect(redisCheck({ ping: async () => 'PONG', status: 'ready' }).check()).resolves.toBeUndefined();
    const ping = jest.fn();
    await expect(redisCheck({ ping, status: 'reconnecting' }).check()).rejects.toThrow(
      'connection is reconnecting',
    );
    expect(ping).not.toHaveBeenCalled();
    await expect(redisCheck({ ping: async () => 'LOADING' }).check()).rejects.toThrow(
      'unexpected PING reply "LOADING"',
    );
  });
});
