import { randomUUID } from 'node:crypto';
import { TransactionStarted, TransactionStopped, type TransactionStoppedV1 } from '@voltdepot/shared-events';
import { createEnvelope } from '@voltdepot/server-messaging';
import { createTestDatabase, type TestDatabase } from '@voltdepot/server-testing';
import { SettlementService } from '../settlement/settlement.service';
import type { SavePricePlanDto } from './dto/price-plan.dto';
import { PricePlanRepository } from './price-plan.repository';
import { PricePlansService } from './price-plans.service';

const HOUR = 3_600_000;
/** One stage over the whole day: `yuan` per kWh of electricity, no service fee. */
const flat = (name: string, priceUnits: number, effectiveFrom?: Date): SavePricePlanDto => ({
  name,
  isDefault: true,
  stages: [
    {
      stageType: 'normal',
      startTime: '00:00',
      endTime: '24:00',
      electricityPrice: priceUnits,
      serviceFee: 0,
    },
  ],
  effectiveFrom: effectiveFrom?.toISOString(),
});

describe('price plan versions in settlement', () => {
  let db: TestDatabase;
  let plans: PricePlansService;
  const settlement = new SettlementService();
  let planId: number;
  let tx = 100;

  beforeAll(async () => {
    db = await createTestDatabase();
    plans = new PricePlansService(new PricePlanRepository(db.dataSource), {
      scopeOf: async () => ({ pathPatterns: ['%'] }),
    });
    // The default plan, which prices sessions at piles without a station plan: 1 yuan/kWh.
    planId = (await plans.create(flat('Depot', 10_000))).id;
  });
  afterAll(async () => {
    await db?.drop();
  });

  const handle = (envelope: Parameters<SettlementService['handle']>[0]) =>
    db.dataSource.transaction((m) => settlement.handle(envelope, m));

  /** Starts a 10 kWh session at `start` (the stop is sent by the returned function). */
  async function startSession(start: Date): Promise<() => Promise<number>> {
    const cp = `CP-${randomUUID().slice(0, 8)}`;
    const transactionId = ++tx;
    await handle(
      createEnvelope(TransactionStarted, cp, {
        chargePointId: cp,
        connectorId: 1,
        transactionId,
        idTag: 'CARD0001',
        meterStartWh: 1_000_000,
        timestamp: start.toISOString(),
        idTagStatus: 'Accepted',
      }),
    );
    return async () => {
      const stop: TransactionStoppedV1 = {
        chargePointId: cp,
        connectorId: 1,
        transactionId,
        idTag: 'CARD0001',
        meterStartWh: 1_000_000,
        meterStopWh: 1_010_000,
        energyWh: 10_000,
        timestamp: new Date(start.getTime() + HOUR).toISOString(),
        reason: 'Local',
        stopKind: 'normal',
        quarantined: false,
      };
      await handle(createEnvelope(TransactionStopped, cp, stop));
      const [order] = await db.dataSource.query(
        'SELECT electricity_fen, price_plan_id FROM charging_order WHERE charge_point_id = $1',
        [cp],
      );
      expect(order.price_plan_id).toBe(planId);
      return Number(order.electricity_fen);
    };
  }

  it('prices a session with the stages in force at its start, whenever it stops', async () => {
    const stopRunning = await startSession(new Date(Date.now() - 2 * HOUR));
    await plans.update(planId, flat('Depot', 20_000)); // from now on: 2 yuan/kWh
    expect(await stopRunning()).toBe(1000); // started before the edit: old stages
    const stopNext = await startSession(new Date(Date.now() + 60_000));
    expect(await stopNext()).toBe(2000); // started after it: new stages

    // A change scheduled for tomorrow: sessions before it keep today's stages.
    const tomorrow = new Date(Date.now() + 24 * HOUR);
    await plans.update(planId, flat('Depot', 30_000, tomorrow));
    expect((await plans.get(planId)).effectiveFrom).toBe(tomorrow.toISOString());
    expect(await (await startSession(new Date(tomorrow.getTime() - HOUR)))()).toBe(2000);
    expect(await (await startSession(new Date(tomorrow.getTime() + HOUR)))()).toBe(3000);
    // And history from before the first edit is still priced as it was.
    expect(await (await startSession(new Date(Date.now() - 30 * HOUR)))()).toBe(1000);
  });

  it('keeps one version when only the name changes, and replaces a scheduled change by an earlier edit', async () => {
    const { id } = await plans.create({ ...flat('Other', 10_000), isDefault: false });
    await plans.update(id, { ...flat('Other renamed', 10_000), isDefault: false });
    const versions = () =>
      db.dataSource.query(
        `SELECT NULLIF(effective_from, '-infinity') AS from, stages->0->>'electricityPrice' AS price
           FROM price_plan_version WHERE plan_id = $1 ORDER BY effective_from`,
        [id],
      );
    expect(await versions()).toEqual([{ from: null, price: '10000' }]);
    await plans.update(id, { ...flat('Other', 30_000, new Date(Date.now() + 48 * HOUR)), isDefault: false });
    await plans.update(id, { ...flat('Other', 20_000, new Date(Date.now() + 24 * HOUR)), isDefault: false });
    const after = await versions();
    expect(after.map((v: { price: string }) => v.price)).toEqual(['10000', '20000']);
  });

  it('refuses an effective time in the past with a 400 naming the field', async () => {
    await expect(
      plans.update(planId, flat('Depot', 40_000, new Date(Date.now() - 10 * 60_000))),
    ).rejects.toMatchObject({
      httpStatus: 400,
      details: [{ field: 'effectiveFrom', message: expect.stringMatching(/must not be in the past/) }],
    });
  });
});
