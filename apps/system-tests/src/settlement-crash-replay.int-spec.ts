/**
 * Exactly-once settlement under failure, end to end on both bus drivers: simulated piles charge a
 * dozen sessions while the api worker (with the settlement consumer) runs in its own process and is
 * SIGKILLed mid-run, the OCPP gateway (its own process too) is SIGKILLed while the piles' stops are
 * arriving and restarted, piles retransmit transaction messages
 * (same and new message ids) and the gateway's events are replayed on the bus (same and new event
 * ids). Every session must still end as exactly one order that matches the simulator's own record to
 * the Wh and the fen.
 */
import { randomUUID } from 'node:crypto';
import { priceSession } from '@voltdepot/server-billing';
import { createEventBus, busConfigFromEnv, type EventBus } from '@voltdepot/server-messaging';
import { SimulatedPile, type SessionRecord } from '@voltdepot/server-ocpp-simulator';
import type { EventEnvelope } from '@voltdepot/shared-events';
import {
  createTestDatabase,
  eventually,
  freePort,
  spawnTs,
  waitForHealthy,
  type TestDatabase,
  type TsProcess,
} from '@voltdepot/server-testing';
import { seedTestDepot, TEST_PLAN } from './fixtures/depot';
import { busDrivers, ENTRY_POINTS, platformEnv } from './fixtures/platform';

const drivers = busDrivers();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

jest.setTimeout(240_000);

describe.each(drivers)(
  'settlement through a killed consumer, a killed gateway and replays (bus %j)',
  (busEnv) => {
    let db: TestDatabase;
    let gateway: TsProcess | undefined;
    let bus: EventBus;
    const apis: TsProcess[] = [];
    const piles: SimulatedPile[] = [];
    const prefix = `vdkr${randomUUID().slice(0, 6)}`;
    const ocppPort = 20000 + Math.floor(Math.random() * 5000);
    const gatewayHttpPort = ocppPort + 5000;
    const cards = ['BUS-0101', 'BUS-0102', 'BUS-0103', 'BUS-0104', 'BUS-0105', 'BUS-0106'];
    const common = (): Record<string, string> => ({
      ...platformEnv({ databaseUrl: db.url, prefix, busEnv }),
      DEMO_DATA: 'false',
    });

    async function startGateway(): Promise<void> {
      gateway = spawnTs(ENTRY_POINTS.gateway, {
        ...common(),
        LOG_LEVEL: 'info',
        PORT: String(gatewayHttpPort),
        OCPP_PORT: String(ocppPort),
        OCPP_HOST: '127.0.0.1',
        OCPP_REGISTRY_REFRESH_MS: '200',
      });
      await gateway.waitForLine(/OCPP gateway listening/, 90_000);
    }

    /** The api worker: settlement runs there (the HTTP process has nothing to do in this test). */
    async function startApi(): Promise<TsProcess> {
      const port = await freePort();
      const api = spawnTs(ENTRY_POINTS.apiWorker, { ...common(), API_WORKER_PORT: String(port) });
      apis.push(api);
      await waitForHealthy(api, `http://127.0.0.1:${port}/health`);
      return api;
    }

    const orders = async (): Promise<Record<string, string | number | string[]>[]> =>
      db.dataSource.query(
        `SELECT charge_point_id, transaction_id, energy_wh, total_fen, electricity_fen, service_fen,
              pay_status, abnormal_reasons, meter_start_wh, meter_stop_wh
         FROM charging_order WHERE charge_point_id LIKE $1 ORDER BY charge_point_id, transaction_id`,
        [`${prefix}%`],
      );

    beforeAll(async () => {
      db = await createTestDatabase();
      await seedTestDepot(
        db,
        { chargePointIds: [0, 1, 2].map((i) => `${prefix}-P${i}`), password: 'pile-secret' },
        cards,
      );
      bus = createEventBus(busConfigFromEnv({ ...common() }, 'kill-replay-test'));
      await startGateway();
      for (let i = 0; i < 3; i++) {
        const pile = new SimulatedPile({
          url: `ws://127.0.0.1:${ocppPort}/ocpp`,
          chargePointId: `${prefix}-P${i}`,
          password: 'pile-secret',
          connectors: 2,
          timeScale: 300,
          meterIntervalMs: 250,
          maxPowerW: 150_000,
          bootRetryMs: 300,
          reconnectDelayMs: 300,
          // P0 retransmits a message whose answer was lost with the same id, P1 with a new one.
          sameMessageIdOnRetry: i === 0,
        });
        await pile.start();
        piles.push(pile);
      }
    }, 180_000);

    afterAll(async () => {
      for (const pile of piles) await pile.stop();
      for (const api of apis) await api.kill();
      await gateway?.kill();
      await bus?.close();
      await db?.drop();
    });

    /** One session per gun of every pile; resolves with the records (they fill in as the pile runs). */
    async function startRound(round: number): Promise<SessionRecord[]> {
      const sessions: SessionRecord[] = [];
      for (const [p, pile] of piles.entries()) {
        for (const gun of [1, 2]) {
          sessions.push(
            await pile.startSession(gun, cards[p * 2 + gun - 1], {
              autoStop: false,
              startSoc: 20 + round * 10 + gun,
              capacityWh: 400_000,
            }),
          );
        }
      }
      return sessions;
    }

    async function stopRound(reason: 'EVDisconnected' | 'Local'): Promise<void> {
      for (const pile of piles) for (const gun of [1, 2]) await pile.stopSession(gun, reason);
    }

    it('settles every session exactly once, exactly as the piles metered it', async () => {
      const sessions: SessionRecord[] = [];
      let api = await startApi();

      // Round 1 charges; the consumer is killed while its events are still flowing.
      sessions.push(...(await startRound(1)));
      await sleep(1_500);
      await stopRound('EVDisconnected');
      await eventually(async () => expect((await orders()).length).toBeGreaterThan(0), 60_000, 5);
      await api.kill('SIGKILL');

      // Round 2 starts with no consumer. The gateway is SIGKILLed while the guns' stops are arriving
      // (some written and answered, some written but unanswered, some not yet received) and the rest
      // stop while it is down; the piles queue what was not answered and replay it after reconnecting.
      sessions.push(...(await startRound(2)));
      await sleep(1_000);
      const stopping = stopRound('Local');
      await sleep(15);
      await gateway!.kill('SIGKILL');
      gateway = undefined;
      await stopping;
      // The kill left transaction messages unanswered: the piles hold them for replay.
      expect(piles.reduce((n, pile) => n + pile.pendingMessages, 0)).toBeGreaterThan(0);
      await sleep(500);
      await startGateway();
      for (const pile of piles) await eventually(() => expect(pile.online).toBe(true), 30_000);
      for (const pile of piles) await pile.drained(30_000);

      // A second consumer starts and is killed again while catching up; the third one finishes.
      api = await startApi();
      await sleep(300);
      await api.kill('SIGKILL');
      api = await startApi();

      // Piles retransmit finished transactions' messages: same message id twice, then a new id.
      for (const s of sessions) {
        const pile = piles.find((p) => p.sessions.includes(s))!;
        const stop = {
          transactionId: s.transactionId!,
          idTag: s.idTag,
          meterStop: s.meterStopWh!,
          timestamp: s.stoppedAt!,
          reason: s.reason!,
        };
        const messageId = SimulatedPile.messageId();
        await pile.sendWithMessageId('StopTransaction', stop, messageId);
        await pile.sendWithMessageId('StopTransaction', stop, messageId);
        await pile.call('StopTransaction', stop);
        const sample = s.readings[1];
        await pile.call('MeterValues', {
          connectorId: s.connectorId,
          transactionId: s.transactionId,
          meterValue: [
            {
              timestamp: sample.at,
              sampledValue: [
                { value: String(sample.energyWh), measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
              ],
            },
          ],
        });
      }

      // And the gateway's events are delivered again: the very same envelopes, then copies with new ids.
      const published: {
        event_id: string;
        topic: string;
        key: string;
        type: string;
        version: number;
        occurred_at: Date;
        correlation_id: string;
        payload: Record<string, unknown>;
      }[] = await db.dataSource.query(
        `SELECT event_id, topic, key, type, version, occurred_at, correlation_id, payload
         FROM outbox_event WHERE topic = 'ocpp.transactions' ORDER BY id`,
      );
      expect(published.length).toBeGreaterThan(sessions.length * 3);
      const envelope = (row: (typeof published)[number], eventId: string): EventEnvelope => ({
        eventId,
        topic: row.topic,
        key: row.key,
        type: row.type,
        version: row.version,
        occurredAt: new Date(row.occurred_at).toISOString(),
        correlationId: row.correlation_id,
        payload: row.payload,
      });
      await bus.publish(published.map((row) => envelope(row, row.event_id)));
      await bus.publish(published.map((row) => envelope(row, randomUUID())));
      const replayed = new Set(published.map((row) => row.event_id));

      // Every replayed event has been consumed (its processed mark exists) before the final check.
      await eventually(
        async () => {
          const [{ n }] = await db.dataSource.query(
            `SELECT count(*)::int AS n FROM processed_event WHERE consumer_group = 'billing.settlement'`,
          );
          expect(n).toBeGreaterThanOrEqual(replayed.size * 2);
        },
        120_000,
        200,
      );

      const rows = await eventually(async () => {
        const r = await orders();
        expect(r).toHaveLength(sessions.length);
        return r;
      }, 60_000);
      expect(sessions).toHaveLength(12);
      for (const s of sessions) {
        const pile = piles.find((p) => p.sessions.includes(s))!;
        const matching = rows.filter(
          (o) => o['charge_point_id'] === pile.chargePointId && o['transaction_id'] === s.transactionId,
        );
        expect(matching).toHaveLength(1);
        const order = matching[0];
        const expected = priceSession(
          TEST_PLAN,
          s.readings.map((r) => ({ at: Date.parse(r.at), energyWh: r.energyWh })),
        );
        expect(s.energyWh).toBeGreaterThan(0);
        expect(expected.energyWh).toBe(s.energyWh);
        expect({
          energyWh: Number(order['energy_wh']),
          meterStopWh: Number(order['meter_stop_wh']),
          electricityFen: Number(order['electricity_fen']),
          serviceFen: Number(order['service_fen']),
          totalFen: Number(order['total_fen']),
          payStatus: order['pay_status'],
          abnormal: order['abnormal_reasons'],
        }).toEqual({
          energyWh: s.energyWh,
          meterStopWh: s.meterStopWh,
          electricityFen: expected.electricityFen,
          serviceFen: expected.serviceFen,
          totalFen: expected.totalFen,
          payStatus: 0,
          abnormal: [],
        });
      }
      // One order.settled event per order, however often the inputs arrived.
      const [{ settled }] = await db.dataSource.query(
        `SELECT count(*)::int AS settled FROM outbox_event WHERE type = 'order.settled' AND key LIKE $1`,
        [`${prefix}%`],
      );
      expect(settled).toBe(sessions.length);
    });
  },
);
