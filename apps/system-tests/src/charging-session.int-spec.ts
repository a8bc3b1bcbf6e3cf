/**
 * The first milestone, end to end with the real services, each its own process (api and its worker,
 * OCPP gateway, message centre and its worker): simulated pile -> gateway -> bus -> settled order (in the
 * api worker) -> stop notice pushed over STOMP to a signed-in operator, then the order's amount
 * (`order.settled`) joining that notice, on both bus drivers. Orders must match the simulator's own
 * record to the Wh and the fen.
 */
import { randomUUID } from 'node:crypto';
import { Client, type IMessage } from '@stomp/stompjs';
import { WebSocket } from 'ws';
import { priceSession } from '@voltdepot/server-billing';
import { SimulatedPile, type SessionRecord } from '@voltdepot/server-ocpp-simulator';
import { createTestDatabase, eventually, type TestDatabase } from '@voltdepot/server-testing';
import { seedTestDepot, TEST_PLAN } from './fixtures/depot';
import { busDrivers, signIn, startPlatform, type RunningPlatform } from './fixtures/platform';

import type { StopNotice } from '@voltdepot/shared-contracts';

/** A console-like STOMP client subscribed to the realtime stop notices. */
function listenForStopNotices(
  url: string,
  token: string,
): Promise<{ notices: StopNotice[]; close: () => Promise<void> }> {
  const notices: StopNotice[] = [];
  const client = new Client({
    webSocketFactory: () => new WebSocket(url, ['v12.stomp']),
    connectHeaders: { Authorization: `Bearer ${token}` },
    heartbeatIncoming: 0,
    heartbeatOutgoing: 0,
    reconnectDelay: 0,
  });
  return new Promise((resolve, reject) => {
    client.onConnect = () => {
      const receipt = randomUUID();
      client.watchForReceipt(receipt, () => resolve({ notices, close: () => client.deactivate() }));
      client.subscribe('/user/topic/transRunStatusStop', (m: IMessage) => notices.push(JSON.parse(m.body)), {
        receipt,
      });
    };
    client.onStompError = (frame) => reject(new Error(frame.headers['message']));
    client.activate();
  });
}

describe.each(busDrivers())('a charging session end to end (bus %j)', (busEnv) => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: string;
  let msgUrl: string;
  let pile: SimulatedPile;
  const prefix = `vdsys${randomUUID().slice(0, 6)}`;
  const ocppPort = 20000 + Math.floor(Math.random() * 10000);
  const chargePointId = `DEPOT-${randomUUID().slice(0, 4)}`;

  beforeAll(async () => {
    db = await createTestDatabase();
    await seedTestDepot(db, { chargePointIds: [chargePointId], password: 'pile-secret' }, [
      'BUS-0001',
      'BUS-0002',
    ]);
    platform = await startPlatform({ databaseUrl: db.url, prefix, ocppPort, busEnv });
    ({ apiUrl: api, msgUrl } = platform);
    pile = new SimulatedPile({
      url: `ws://127.0.0.1:${ocppPort}/ocpp`,
      chargePointId,
      password: 'pile-secret',
      connectors: 2,
      timeScale: 600,
      meterIntervalMs: 200,
      maxPowerW: 150_000,
      bootRetryMs: 500,
    });
    await pile.start();
  });

  afterAll(async () => {
    await pile?.stop();
    await platform?.close();
    await db?.drop();
  });

  it('turns every session into one exact order and pushes a stop notice to the operator', async () => {
    const operator = await listenForStopNotices(msgUrl, await signIn(api, 'operator', 'Demo@123456'));
    const maintainer = await listenForStopNotices(msgUrl, await signIn(api, 'maintainer', 'Demo@123456'));
    // Gun 1 charges a bus until it is full (EVDisconnected, a normal stop); gun 2 hits an emergency stop.
    const full = await pile.startSession(1, 'BUS-0001', { startSoc: 70, targetSoc: 80, capacityWh: 300_000 });
    const cut = await pile.startSession(2, 'BUS-0002', { autoStop: false });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await pile.stopSession(2, 'EmergencyStop');
    await eventually(() => expect(full.stoppedAt).toBeDefined(), 60_000);
    await pile.drained();

    const orders = await eventually(async () => {
      const rows = await db.dataSource.query(
        'SELECT * FROM charging_order WHERE charge_point_id = $1 ORDER BY connector_id',
        [chargePointId],
      );
      expect(rows).toHaveLength(2);
      return rows;
    }, 30_000);

    for (const [order, session] of [
      [orders[0], full],
      [orders[1], cut],
    ] as [Record<string, unknown>, SessionRecord][]) {
      const expected = priceSession(
        TEST_PLAN,
        session.readings.map((r) => ({ at: Date.parse(r.at), energyWh: r.energyWh })),
      );
      expect(session.energyWh).toBeGreaterThan(0);
      expect({
        transactionId: order['transaction_id'],
        energyWh: Number(order['energy_wh']),
        totalFen: Number(order['total_fen']),
        payStatus: order['pay_status'],
      }).toEqual({
        transactionId: session.transactionId,
        energyWh: session.energyWh,
        totalFen: expected.totalFen,
        payStatus: 0,
      });
      expect(expected.energyWh).toBe(session.energyWh);
    }
    expect(orders.map((o: Record<string, unknown>) => [o['end_reason'], o['stop_kind']])).toEqual([
      ['EVDisconnected', 'normal'],
      ['EmergencyStop', 'abnormal'],
    ]);

    // The operator's console is told about both stops (type 1 normal, type 2 abnormal) and, once each
    // order is settled, its amount under the same notice key: the amount of each exactly once.
    const keyOf = (order: Record<string, unknown>) => `${chargePointId}/${order['transaction_id']}`;
    const amounts = () => operator.notices.filter((n) => n.amountFen !== undefined);
    await eventually(() => expect(amounts()).toHaveLength(2), 15_000);
    expect(
      amounts()
        .map((n) => [n.key, n.amountFen])
        .sort(),
    ).toEqual(orders.map((o: Record<string, unknown>) => [keyOf(o), Number(o['total_fen'])]).sort());
    const byKey = new Map(operator.notices.map((n) => [n.key, n]));
    expect([...byKey.keys()].sort()).toEqual(orders.map(keyOf).sort());
    expect([...byKey.values()].map((n) => n.type).sort()).toEqual([1, 2]);
    for (const notice of operator.notices) {
      expect(notice.msg).toContain(chargePointId);
      expect(notice.date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    }
    expect(operator.notices.length).toBeLessThanOrEqual(4); // a notice and its amount, or one with both
    expect(maintainer.notices).toEqual([]); // maintenance staff do not receive stop notices
    await operator.close();
    await maintainer.close();
  });
});
