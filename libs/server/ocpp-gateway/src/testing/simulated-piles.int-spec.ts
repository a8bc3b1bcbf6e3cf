import { SimulatedPile } from '@voltdepot/server-ocpp-simulator';
import type { TransactionStoppedV1 } from '@voltdepot/shared-events';
import { eventually } from '@voltdepot/server-testing';
import { GatewayTestHarness } from './fixtures/gateway-test-harness';

const h = new GatewayTestHarness();
const piles: SimulatedPile[] = [];

beforeAll(async () => {
  await h.start();
  await h.addIdTag('BUS-A', 'Accepted');
  await h.addIdTag('BUS-B', 'Accepted');
  await h.addIdTag('BUS-C', 'Accepted');
});
afterAll(async () => {
  for (const pile of piles) await pile.stop();
  await h.stop();
});

async function simulatedPile(
  id: string,
  options: Partial<ConstructorParameters<typeof SimulatedPile>[0]> = {},
): Promise<SimulatedPile> {
  const password = await h.addPile(id);
  const pile = new SimulatedPile({
    url: h.url,
    chargePointId: id,
    password,
    connectors: 2,
    meterIntervalMs: 50,
    timeScale: 600,
    reconnectDelayMs: 100,
    ...options,
  });
  piles.push(pile);
  await pile.start();
  return pile;
}

type TxRow = {
  transaction_id: number;
  meter_start_wh: number;
  meter_stop_wh: number;
  stop_reason: string;
  stop_kind: string;
};

describe('simulated piles against the gateway', () => {
  it('charges two buses on two guns; the gateway records what the pile metered', async () => {
    const pile = await simulatedPile('SIM-1');
    expect(pile.registrationStatus).toBe('Accepted');
    const a = await pile.startSession(1, 'BUS-A', { startSoc: 30, targetSoc: 95, autoStop: false });
    const b = await pile.startSession(2, 'BUS-B', { startSoc: 60, targetSoc: 70 }); // stops by itself
    await eventually(() => expect(b.stoppedAt).toBeDefined());
    await new Promise((r) => setTimeout(r, 300));
    await pile.stopSession(1, 'EmergencyStop');
    await pile.drained();

    for (const session of [a, b]) {
      const [row] = await h.query<TxRow>(
        'SELECT transaction_id, meter_start_wh::float8 AS meter_start_wh, meter_stop_wh::float8 AS meter_stop_wh, stop_reason, stop_kind FROM ocpp_transaction WHERE transaction_id = $1',
        [session.transactionId],
      );
      expect(row.meter_start_wh).toBe(session.meterStartWh);
      expect(row.meter_stop_wh).toBe(session.meterStopWh);
      expect(row.meter_stop_wh - row.meter_start_wh).toBe(session.energyWh);
      expect(session.energyWh).toBeGreaterThan(0);
    }
    expect(b.reason).toBe('EVDisconnected');
    expect(b.endSoc).toBeGreaterThanOrEqual(70);
    const stopA = await h.waitForEvent<TransactionStoppedV1>(
      'transaction.stopped',
      (p) => p.transactionId === a.transactionId,
    );
    expect(stopA.payload).toMatchObject({
      reason: 'EmergencyStop',
      stopKind: 'abnormal',
      energyWh: a.energyWh,
    });
    const samples = await h.query<{ n: string; flagged: string }>(
      `SELECT count(*) AS n, count(flag) AS flagged FROM ocpp_meter_sample WHERE transaction_id = $1 AND measurand = 'Energy.Active.Import.Register'`,
      [a.transactionId],
    );
    expect(Number(samples[0].n)).toBeGreaterThan(2);
    expect(samples[0].flagged).toBe('0');
    const statuses = await h.query(
      `SELECT connector_id, status FROM connector_status WHERE charge_point_id = 'SIM-1' ORDER BY connector_id`,
    );
    expect(statuses).toEqual([
      { connector_id: 0, status: 'Available' },
      { connector_id: 1, status: 'Available' },
      { connector_id: 2, status: 'Available' },
    ]);
  });

  it('queues transaction messages while offline and replays them in order on reconnect', async () => {
    const pile = await simulatedPile('SIM-2');
    const session = await pile.startSession(1, 'BUS-C', { startSoc: 20, targetSoc: 95, autoStop: false });
    await eventually(() => expect(session.transactionId).toBeDefined());
    await pile.goOffline();
    await new Promise((r) => setTimeout(r, 300)); // meter values pile up
    await pile.stopSession(1, 'PowerLoss');
    expect(pile.pendingMessages).toBeGreaterThan(2);
    const [before] = await h.query<{ stopped_at: Date | null }>(
      'SELECT stopped_at FROM ocpp_transaction WHERE transaction_id = $1',
      [session.transactionId],
    );
    expect(before.stopped_at).toBeNull();

    await pile.goOnline();
    await pile.drained();
    const [row] = await h.query<TxRow>(
      'SELECT meter_stop_wh::float8 AS meter_stop_wh, stop_reason, stop_kind FROM ocpp_transaction WHERE transaction_id = $1',
      [session.transactionId],
    );
    expect(row).toMatchObject({
      meter_stop_wh: session.meterStopWh,
      stop_reason: 'PowerLoss',
      stop_kind: 'abnormal',
    });
    // Replayed in order: the energy register never goes backwards, so nothing is flagged.
    const flags = await h.query(
      `SELECT flag FROM ocpp_meter_sample WHERE transaction_id = $1 AND flag IS NOT NULL`,
      [session.transactionId],
    );
    expect(flags).toEqual([]);
    const [{ max }] = await h.query<{ max: string }>(
      `SELECT max(value)::text AS max FROM ocpp_meter_sample WHERE transaction_id = $1 AND measurand = 'Energy.Active.Import.Register'`,
      [session.transactionId],
    );
    expect(Number(max)).toBe(session.meterStopWh);
  });

  it('replays a whole session that started and ended offline (the stop carries the transactionId the start got)', async () => {
    const pile = await simulatedPile('SIM-3', { sameMessageIdOnRetry: true });
    await pile.goOffline();
    const session = await pile.startSession(2, 'BUS-A', { startSoc: 50, targetSoc: 95, autoStop: false });
    await new Promise((r) => setTimeout(r, 200));
    await pile.stopSession(2, 'Local');
    expect(session.transactionId).toBeUndefined();
    await pile.goOnline();
    await pile.drained();
    expect(session.transactionId).toBeDefined();
    const [row] = await h.query<TxRow>(
      'SELECT meter_start_wh::float8 AS meter_start_wh, meter_stop_wh::float8 AS meter_stop_wh, stop_reason FROM ocpp_transaction WHERE transaction_id = $1',
      [session.transactionId],
    );
    expect(row).toMatchObject({
      meter_start_wh: session.meterStartWh,
      meter_stop_wh: session.meterStopWh,
      stop_reason: 'Local',
    });
    expect(await h.query(`SELECT 1 FROM ocpp_stop_quarantine WHERE charge_point_id = 'SIM-3'`)).toEqual([]);
  });

  it('survives a gateway-side disconnect: the pile reconnects by itself and carries on', async () => {
    const pile = await simulatedPile('SIM-4');
    const session = await pile.startSession(1, 'BUS-B', { startSoc: 20, targetSoc: 95, autoStop: false });
    await eventually(() => expect(session.transactionId).toBeDefined());
    await h.gateway.sessions.get('SIM-4')!.client.close({ code: 1012, reason: 'restart' });
    await eventually(() => expect(h.gateway.sessions.get('SIM-4')).toBeDefined());
    await eventually(() => expect(pile.online).toBe(true));
    await pile.stopSession(1, 'Local');
    await pile.drained();
    const [row] = await h.query<TxRow>(
      'SELECT meter_stop_wh::float8 AS meter_stop_wh FROM ocpp_transaction WHERE transaction_id = $1',
      [session.transactionId],
    );
    expect(row.meter_stop_wh).toBe(session.meterStopWh);
  });
});
