import type { DataSource } from 'typeorm';
import { LostStopSweepHandler, lostStopSweepIntervalMs, lostStopSweepJob } from './lost-stop-sweep.job';
import { LOST_STOP_BATCH, type SettlementService } from './settlement.service';

/** A handler over a fake database whose sweeps take the given numbers of stops in turn. */
function handlerTaking(taken: (number | Error)[]) {
  const transactions: number[] = [];
  const service = {
    sweepLostStops: jest.fn(async () => {
      const next = taken.shift() ?? 0;
      if (next instanceof Error) throw next;
      return next;
    }),
  } as unknown as SettlementService;
  const dataSource = {
    transaction: async (work: (m: unknown) => Promise<number>) => {
      const result = await work({});
      transactions.push(result);
      return result;
    },
  } as unknown as DataSource;
  const relay = { nudge: jest.fn() };
  return { handler: new LostStopSweepHandler(dataSource, service, relay), transactions, relay };
}

describe('the lost-stop sweep job', () => {
  it('runs every minute, or every half of a shorter wait', () => {
    expect(lostStopSweepIntervalMs(10)).toBe(60_000);
    expect(lostStopSweepIntervalMs(1)).toBe(30_000);
    expect(lostStopSweepJob(1).schedule).toEqual({ everyMs: 30_000, payload: {} });
  });

  it('takes batches, each its own transaction, until one is not full, nudging the relay after each', async () => {
    const { handler, transactions, relay } = handlerTaking([
      LOST_STOP_BATCH,
      LOST_STOP_BATCH,
      3,
      LOST_STOP_BATCH,
    ]);
    expect(await handler.handle()).toBe(2 * LOST_STOP_BATCH + 3);
    expect(transactions).toEqual([LOST_STOP_BATCH, LOST_STOP_BATCH, 3]);
    expect(relay.nudge).toHaveBeenCalledTimes(3);
  });

  it('nudges nothing when nothing was lost', async () => {
    const { handler, relay } = handlerTaking([0]);
    expect(await handler.handle()).toBe(0);
    expect(relay.nudge).not.toHaveBeenCalled();
  });

  it('fails the run when a batch fails (the job is tried again; committed batches stay done)', async () => {
    const { handler, transactions } = handlerTaking([LOST_STOP_BATCH, new Error('database down')]);
    await expect(handler.handle()).rejects.toThrow('database down');
    expect(transactions).toEqual([LOST_STOP_BATCH]);
  });
});
