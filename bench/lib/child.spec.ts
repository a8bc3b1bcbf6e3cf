import { readFileSync } from 'node:fs';
import { cpuShares, readCpu, type CpuReading } from './child';

describe('cpuShares', () => {
  const at = (postgres: number, idle: number, total: number): CpuReading => ({
    byCommand: { postgres },
    idle,
    total,
    cores: 2,
  });

  it('gives each command its CPU over the window in % of one core and the idle share of all cores', () => {
    // 20 s of CPU time on 2 cores is a 10 s window: 5.5 s of it PostgreSQL's, 3 s idle.
    expect(cpuShares(at(100, 50, 1_000), at(105.5, 53, 1_020))).toEqual({
      byCommand: { postgres: 55 },
      idlePercent: 15,
    });
  });

  it('counts a command first seen in the later reading from zero', () => {
    const later: CpuReading = { byCommand: { postgres: 2, node: 1 }, idle: 11, total: 104, cores: 2 };
    expect(cpuShares(at(1, 10, 100), later)).toEqual({
      byCommand: { postgres: 50, node: 50 },
      idlePercent: 25,
    });
  });

  it('gives no shares for readings without time between them', () => {
    expect(cpuShares(at(1, 10, 100), at(1, 10, 100))).toEqual({
      byCommand: { postgres: NaN },
      idlePercent: NaN,
    });
  });
});

describe('readCpu', () => {
  it('finds this process by its command name and reads the machine totals', () => {
    const own = readFileSync('/proc/self/comm', 'utf8').trim();
    const reading = readCpu([own, 'no-such-command']);
    expect(reading.byCommand[own]).toBeGreaterThan(0);
    expect(reading.byCommand['no-such-command']).toBe(0);
    expect(Object.keys(reading.byCommand).sort()).toEqual([own, 'no-such-command'].sort());
    expect(reading.cores).toBeGreaterThanOrEqual(1);
    expect(reading.total).toBeGreaterThan(reading.idle);
    expect(reading.idle).toBeGreaterThanOrEqual(0);
  });
});
