import { defineJob, jobIdOf, scheduled } from './job';

describe('defineJob', () => {
  const base = { name: 'billing.lost-stop-sweep', attempts: 3, backoffMs: 1000 };

  it('accepts a sound declaration as it is', () => {
    const job = defineJob<{ id: number }>({ ...base, jobId: (p) => `x.${p.id}` });
    expect(job.jobId({ id: 7 })).toBe('x.7');
  });

  it.each([
    [{ name: 'sweep' }, "name must look like '<area>.<what>'"],
    [{ name: 'Billing.Sweep' }, "name must look like '<area>.<what>'"],
    [{ attempts: 0 }, 'attempts must be an integer from 1 to 20'],
    [{ attempts: 1000 }, 'attempts must be an integer from 1 to 20'],
    [{ backoffMs: -1 }, 'backoffMs must be >= 0'],
    [{ concurrency: 0 }, 'concurrency must be a positive integer'],
    [{ lockMs: 10 }, 'lockMs must be at least 1000'],
    [{ schedule: { everyMs: 5, payload: {} } }, 'schedule.everyMs must be an integer of at least 100'],
    [{ schedule: { cron: ' ', payload: {} } }, 'schedule.cron is empty'],
  ])('%#: refuses %j', (override, problem) => {
    expect(() => defineJob({ ...base, ...override })).toThrow(problem);
  });

  it('adds a schedule from configuration to a declared job, checked again', () => {
    const job = defineJob<Record<string, never>>(base);
    expect(scheduled(job, { everyMs: 30_000, payload: {} }).schedule).toEqual({
      everyMs: 30_000,
      payload: {},
    });
    expect(job.schedule).toBeUndefined();
    expect(() => scheduled(job, { everyMs: 1, payload: {} })).toThrow('everyMs');
  });
});

describe('jobIdOf', () => {
  it('joins the parts with dots and replaces what BullMQ cannot take', () => {
    expect(jobIdOf('alert', 12, '1700000000000')).toBe('alert.12.1700000000000');
    expect(jobIdOf('stop', 'CP:1/2')).toBe('stop.CP_1_2');
  });

  it('hashes a long key into a fixed-length id, the same each time', () => {
    const long = 'x'.repeat(300);
    expect(jobIdOf(long)).toMatch(/^h[0-9a-f]{64}$/);
    expect(jobIdOf(long)).toBe(jobIdOf(long));
  });
});
