/**
 * The demo depot's simulation (`npm start`) on the real services: its 20 piles replay an evening on
 * the depot clock against the gateway, the api and the msg-center, and within about a minute the
 * monitoring map shows guns charging, orders are settled with energy in several price bands, stop
 * notices arrive and no sample shows more power than the gun is rated for or a time in the future.
 * DEMO_SIMULATION=false seeds and starts no pile.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client, type IMessage } from '@stomp/stompjs';
import request from 'supertest';
import { WebSocket } from 'ws';
import { DepotClock } from '@voltdepot/server-ocpp-simulator';
import { createTestDatabase, eventually, type TestDatabase } from '@voltdepot/server-testing';
import type { MonitorStationSummary } from '@voltdepot/shared-contracts';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the demo depot is a script (npm start); this tests it
import { replayStart } from '../../../scripts/demo/depot-schedule';
// eslint-disable-next-line @nx/enforce-module-boundaries -- as above
import {
  lastDemoTimestamp,
  loadDemoFleet,
  pileIds,
  seedDemoDepot,
  startDemoSimulation,
  type DemoSimulation,
} from '../../../scripts/demo-depot';
import { busDrivers, signIn, startPlatform, type RunningPlatform } from './fixtures/platform';

const HOUR = 3_600_000;
const ROOT = path.resolve(__dirname, '../../..');
const BANDS = ['sharp', 'peak', 'normal', 'valley', 'deep_valley'];

/** Runs the demo script as `npm start` does, waiting for it to exit (it must, without a simulation). */
function runDemoScript(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', 'scripts/demo-depot.ts'], {
      cwd: ROOT,
      env: { ...process.env, SWC_NODE_PROJECT: path.join(ROOT, 'tsconfig.base.json'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`demo-depot.ts still running after 60 s:\n${output}`));
    }, 60_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Stop notices pushed to a signed-in operator's console. */
function listenForStopNotices(
  url: string,
  token: string,
): Promise<{ count: () => number; close: () => Promise<void> }> {
  let count = 0;
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
      client.watchForReceipt(receipt, () =>
        resolve({ count: () => count, close: () => client.deactivate() }),
      );
      client.subscribe('/user/topic/transRunStatusStop', (_m: IMessage) => count++, { receipt });
    };
    client.onStompError = (frame) => reject(new Error(frame.headers['message']));
    client.activate();
  });
}

describe('the demo depot simulation on the real stack', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let simulation: DemoSimulation | undefined;
  const prefix = `vddemo${randomUUID().slice(0, 6)}`;
  const ocppPort = 20000 + Math.floor(Math.random() * 10000);
  const ocppUrl = `ws://127.0.0.1:${ocppPort}/ocpp`;
  const piles = pileIds();

  const count = async (sql: string, params: unknown[] = [piles]) =>
    Number(((await db.dataSource.query(sql, params)) as { n: number }[])[0].n);

  beforeAll(async () => {
    db = await createTestDatabase();
    await seedDemoDepot(db.dataSource);
    platform = await startPlatform({ databaseUrl: db.url, prefix, ocppPort, busEnv: busDrivers()[0] });
  });

  afterAll(async () => {
    await simulation?.stop();
    await platform?.close();
    await db?.drop();
  });

  it('with DEMO_SIMULATION=false seeds again and starts no pile', async () => {
    const { code, output } = await runDemoScript({
      DATABASE_URL: db.url,
      OCPP_URL: ocppUrl,
      DEMO_SIMULATION: 'false',
    });
    expect(output).toContain('demo depot seeded');
    expect(output).not.toContain('demo simulation running');
    expect(code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await count(`SELECT count(*)::int AS n FROM ocpp_pile_boot WHERE charge_point_id = ANY($1)`)).toBe(
      0,
    );
    expect(
      await count(`SELECT count(*)::int AS n FROM connector_status WHERE charge_point_id = ANY($1)`),
    ).toBe(0);
    expect(await lastDemoTimestamp(db.dataSource)).toBeUndefined();
  }, 90_000);

  it('replays an evening: guns charging, band-split orders, stop notices, plausible power, no future time', async () => {
    const token = await signIn(platform.apiUrl, 'operator', 'Demo@123456');
    const notices = await listenForStopNotices(platform.msgUrl, token);
    const fleet = await loadDemoFleet(db.dataSource);
    // 17:00 business time at least 7 h ago, at 360x: a real minute covers 17:00 to 23:00.
    const clock = new DepotClock({ startAt: replayStart(Date.now(), fleet.timeZone, 7 * HOUR), speed: 360 });
    simulation = await startDemoSimulation({
      ocppUrl,
      clock,
      fleet,
      faultRate: 0.03,
      abnormalRate: 0.08,
      meterIntervalMs: 2_000,
    });
    expect(simulation.piles.every((p) => p.online)).toBe(true);

    // The monitoring map (the api's read model) shows guns charging.
    await eventually(
      async () => {
        const res = await request(platform.apiUrl)
          .get('/api/monitor/station/list')
          .set('Authorization', `Bearer ${token}`)
          .expect(200);
        const charging = (res.body as MonitorStationSummary[]).reduce((n, s) => n + s.guns.charging, 0);
        expect(charging).toBeGreaterThanOrEqual(5);
      },
      60_000,
      1_000,
    );

    // Settled orders, at least one with energy in more than one price band.
    const bandCount = BANDS.map((b) => `(o.${b}_energy_wh > 0)::int`).join(' + ');
    await eventually(
      async () =>
        expect(
          await count(
            `SELECT count(*)::int AS n FROM charging_order o WHERE charge_point_id = ANY($1) AND ${bandCount} >= 2`,
          ),
        ).toBeGreaterThanOrEqual(1),
      90_000,
      1_000,
    );
    await eventually(() => expect(notices.count()).toBeGreaterThanOrEqual(1), 15_000);
    // A bus left on a gun past the free quarter hour at 东郊 pays an occupation fee.
    await eventually(
      async () =>
        expect(
          await count(
            `SELECT count(*)::int AS n FROM occupation_order o JOIN station s ON s.id = o.station_id
              WHERE s.number = 'HF-DEPOT-A' AND o.amount_fen > 0`,
            [],
          ),
        ).toBeGreaterThanOrEqual(1),
      60_000,
      1_000,
    );
    await notices.close();
    await simulation.stop();
    simulation = undefined;

    // Orders add up: the bands make the whole, and energy is what the meter says.
    const orders = (await db.dataSource.query(
      `SELECT energy_wh::int AS energy, (${BANDS.map((b) => `${b}_energy_wh`).join(' + ')})::int AS bands,
              (meter_stop_wh - meter_start_wh)::int AS metered, extract(epoch FROM stopped_at - started_at) AS seconds
         FROM charging_order WHERE charge_point_id = ANY($1)`,
      [piles],
    )) as { energy: number; bands: number; metered: number; seconds: string }[];
    expect(orders.length).toBeGreaterThanOrEqual(1);
    for (const order of orders) {
      expect(order.bands).toBe(order.energy);
      expect(order.metered).toBe(order.energy);
      // Energy is power x depot time: never more than the 120 kW guns deliver (1 Wh of rounding).
      expect(order.energy).toBeLessThanOrEqual((120_000 * Number(order.seconds)) / 3600 + 1);
    }

    // No power sample above the gun's rated power, and the power between two register readings too.
    expect(
      await count(
        `SELECT count(*)::int AS n FROM ocpp_meter_sample s
           JOIN charging_pile p ON p.charge_point_id = s.charge_point_id
           JOIN charging_gun g ON g.pile_id = p.id AND g.channel_number = s.connector_id
          WHERE s.charge_point_id = ANY($1) AND s.measurand = 'Power.Active.Import' AND s.value > g.rated_power_w`,
      ),
    ).toBe(0);
    const [derived] = (await db.dataSource.query(
      `SELECT count(*)::int AS samples, coalesce(max(w), 0)::float8 AS max_w FROM (
         SELECT (value - lag(value) OVER w) * 3600 / nullif(extract(epoch FROM sampled_at - lag(sampled_at) OVER w), 0) AS w
           FROM ocpp_meter_sample
          WHERE charge_point_id = ANY($1) AND measurand = 'Energy.Active.Import.Register' AND transaction_id IS NOT NULL
         WINDOW w AS (PARTITION BY transaction_id ORDER BY sampled_at)) t WHERE w IS NOT NULL`,
      [piles],
    )) as { samples: number; max_w: number }[];
    expect(derived.samples).toBeGreaterThan(10);
    expect(derived.max_w).toBeGreaterThan(60_000);
    expect(derived.max_w).toBeLessThanOrEqual(120_000 * 1.01);

    // Every timestamp the piles sent was in the past when it arrived.
    expect(
      await count(
        `SELECT count(*)::int AS n FROM ocpp_meter_sample WHERE charge_point_id = ANY($1) AND sampled_at > received_at`,
      ),
    ).toBe(0);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM ocpp_transaction WHERE charge_point_id = ANY($1)
            AND (started_at > created_at OR stopped_at > now())`,
      ),
    ).toBe(0);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM connector_status WHERE charge_point_id = ANY($1) AND status_at > updated_at`,
      ),
    ).toBe(0);
    // A restart would carry on from the last time the piles reported, which is in the replayed past.
    const last = await lastDemoTimestamp(db.dataSource);
    expect(last).toBeGreaterThan(clock.startAt);
    expect(last).toBeLessThanOrEqual(Date.now());
  }, 150_000);
});
