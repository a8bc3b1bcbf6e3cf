import type { DataSource } from 'typeorm';
import { LostStopSweeper, lostStopSweepIntervalMs } from './lost-stop.sweeper';
import { LOST_STOP_BATCH, type SettlementService } from './settlement.service';

/** A sweeper over a fake database whose sweeps take the given numbers of stops in turn. */
function sweeperTaking(taken: (number | Error)[], onError = jest.fn()) {
  const calls: number[] = [];
  const service = {
    sweepLostStops: jest.fn(async () => {
      const next = taken.shift() ?? 0;
      if (next instanceof Error) throw next;
      calls.push(next);
      return next;
    }),
  } as unknown as SettlementService;
  const dataSource = {
    transaction: (work: (m: unknown) => Promise<unknown>) => work({}),
  } as unknown as DataSource;
  return { sweeper: new LostStopSweeper(dataSource, service, { intervalMs: 1000, onError }), calls, onError };
}

describe('LostStopSweeper', () => {
  afterEach(() => jest.useRealTimers());

  it('sweeps every minute, or every half of a shorter wait', () => {
    expect(lostStopSweepIntervalMs(10)).toBe(60_000);
    expect(lostStopSweepIntervalMs(1)).toBe(30_000);
  });

  it('takes batches, each its own transaction, until one is not full', async () => {
    const { sweeper, calls } = sweeperTaking([LOST_STOP_BATCH, LOST_STOP_BATCH, 3, LOST_STOP_BATCH]);
    expect(await sweeper.sweep()).toBe(2 * LOST_STOP_BATCH + 3);
    expect(calls).toEqual([LOST_STOP_BATCH, LOST_STOP_BATCH, 3]);
  });

  it('reports a failed sweep and sweeps again at the next tick', async () => {
    jest.useFakeTimers();
    const failure = new Error('database down');
    const { sweeper, calls, onError } = sweeperTaking([failure, 2]);
    sweeper.start();
    await jest.advanceTimersByTimeAsync(1000);
    expect(onError).toHaveBeenCalledWith(failure);
    await jest.advanceTimersByTimeAsync(1000);
    expect(calls).toEqual([2]);
    await sweeper.stop();
  });

  it('never overlaps a running sweep, and stop waits for it', async () => {
    jest.useFakeTimers();
    let release!: () => void;
    const { sweeper } = sweeperTaking([]);
    const service = (sweeper as unknown as { service: { sweepLostStops: jest.Mock } }).service;
    service.sweepLostStops.mockImplementation(() => new Promise<number>((r) => (release = () => r(0))));
    sweeper.start();
    await jest.advanceTimersByTimeAsync(3000);
    expect(service.sweepLostStops).toHaveBeenCalledTimes(1);
    let stopped = false;
    const stopping = sweeper.stop().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    release();
    await stopping;
    await jest.advanceTimersByTimeAsync(3000);
    expect(service.sweepLostStops).toHaveBeenCalledTimes(1);
  });
});
