import { cpuShares, readCpu, type CpuReading } from './child';

describe('cpuShares', () => {
  const at = (postgres: number, idle: number, total: number): CpuReading => ({
    byCommand: { postgres },
    idle,
    total,
  });

  it('gives each command its CPU over the window in % of one core and the idle share of all cores', () => {
    // 10 s on 2 cores: 20 s of CPU time in all, 5.5 of them PostgreSQL's, 3 idle.
    expect(cpuShares(at(100, 50, 1_000), at(105.5, 53, 1_020), 10)).toEqual({
      byCommand: { postgres: 55 },
      idlePercent: 15,
    });
  });

  it('counts a command first seen in the later reading from zero, and has no idle share without time', () => {
    const later: CpuReading = { byCommand: { postgres: 2, node: 1 }, idle: 10, total: 100 };
    expect(cpuShares(at(1, 10, 100), later, 2)).toEqual({
      byCommand: { postgres: 50, node: 50 },
      idlePercent: NaN,
    });
  });
});

describe('readCpu', () => {
  it('finds this process by its command name and reads the machine totals', () => {
    const reading = readCpu(['node', 'no-such-command']);
    expect(reading.byCommand['node']).toBeGreaterThan(0);
    expect(reading.byCommand['no-such-command']).toBe(0);
    expect(reading.total).toBeGreaterThan(reading.idle);
    expect(reading.idle).toBeGreaterThanOrEqual(0);
  });
});
