/**
 * Live monitoring end to end with the real services: a simulated pile -> gateway -> bus -> the api worker's read
 * model -> msg-center -> a STOMP frame on the station's topic, on both bus drivers. Measures how long a
 * pile's message takes to reach a subscribed screen (the requirement: within 1 s), checks who may
 * subscribe, and sends pile commands from the api through the gateway's command channel.
 */
import { randomUUID } from 'node:crypto';
import { pilePasswordHasherFromEnv } from '@voltdepot/server-pile-credentials';
import argon2 from 'argon2';
import { Client, type IFrame, type IMessage } from '@stomp/stompjs';
import request from 'supertest';
import { WebSocket } from 'ws';
import { SimulatedPile } from '@voltdepot/server-ocpp-simulator';
import Redis from 'ioredis';
import { connectionKey } from '@voltdepot/server-ocpp-commands';
import { createTestDatabase, eventually, testEnv, type TestDatabase } from '@voltdepot/server-testing';
import { monitorStationTopic, type MonitorGunView, type MonitorPush } from '@voltdepot/shared-contracts';
import { busDrivers, signIn, startPlatform, type RunningPlatform } from './fixtures/platform';

type Watcher = {
  frames: { at: number; push: MonitorPush }[];
  /** Resolves with the first frame after `since` in which gun `connectorId` satisfies `test`. */
  waitFor(
    connectorId: number,
    test: (gun: MonitorGunView) => boolean,
    since: number,
    timeoutMs?: number,
  ): Promise<number>;
  close(): Promise<void>;
};

/** A console-like STOMP client on a station's topic; resolves once the subscription is confirmed. */
function watchStation(url: string, token: string, stationId: number): Promise<Watcher> {
  const frames: Watcher['frames'] = [];
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
        resolve({
          frames,
          async waitFor(connectorId, test, since, timeoutMs = 10_000) {
            return eventually(
              () => {
                const hit = frames.find(
                  (f) =>
                    f.at >= since &&
                    f.push.piles.some((p) => p.guns.some((g) => g.connectorId === connectorId && test(g))),
                );
                if (!hit)
                  throw new Error(
                    `no frame with gun ${connectorId} as expected yet (${frames.length} frames)`,
                  );
                return hit.at;
              },
              timeoutMs,
              5,
            );
          },
          close: () => client.deactivate(),
        }),
      );
      client.subscribe(
        monitorStationTopic(stationId),
        (m: IMessage) => frames.push({ at: Date.now(), push: JSON.parse(m.body) as MonitorPush }),
        { receipt },
      );
    };
    client.onStompError = (frame: IFrame) => {
      void client.deactivate();
      reject(new Error(`${frame.headers['message']}: ${frame.body}`));
    };
    client.activate();
  });
}

describe.each(busDrivers())('live monitoring end to end (bus %j)', (busEnv) => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: string;
  let msgUrl: string;
  let pile: SimulatedPile;
  let stationId: number;
  let admin: string;
  const prefix = `vdlive${randomUUID().slice(0, 6)}`;
  const ocppPort = 20000 + Math.floor(Math.random() * 10000);
  const chargePointId = `LIVE-${randomUUID().slice(0, 4)}`;
  const card = `LIVE${randomUUID().slice(0, 6).toUpperCase()}`;
  const plate = `皖A·L${Math.floor(Math.random() * 9000 + 1000)}`;

  beforeAll(async () => {
    db = await createTestDatabase();
    const q = (sql: string, params: unknown[] = []) =>
      db.dataSource.query(sql, params) as Promise<{ id: number }[]>;
    const [org] = await q(`SELECT id FROM sys_organization WHERE code = 'HF'`);
    const [region] = await q(`INSERT INTO region (name, area_code) VALUES ('合肥市', '340100') RETURNING id`);
    [{ id: stationId }] = await q(
      `INSERT INTO station (organization_id, number, name, region_id, type, status, address, longitude, latitude,
         opening_time, closing_time, is_open, supports_reservation, fee_scope, free_parking_minutes,
         occupation_interval_minutes, occupation_unit_price_fen, capped_amount_fen)
       VALUES ($1, 'LIVE-1', 'Live depot', $2, 100, 0, 'Depot road', 117.23, 31.82, '00:00', '23:59', true, false,
         'internal', 0, 15, 0, 0) RETURNING id`,
      [org.id, region.id],
    );
    stationId = Number(stationId);
    const hash = pilePasswordHasherFromEnv().hash('pile-secret');
    const [host] = await q(
      `INSERT INTO charging_pile (organization_id, station_id, name, number, charge_point_id, ocpp_password_hash,
         device_status, gun_count, protocol_version)
       VALUES ($1, $2, 'Live 1', $3, $3, $4, 50, 2, 'ocpp1.6') RETURNING id`,
      [org.id, stationId, chargePointId, hash],
    );
    await q(`INSERT INTO pile_registry (charge_point_id, state, password_hash) VALUES ($1, 'active', $2)`, [
      chargePointId,
      hash,
    ]);
    for (const channel of [1, 2]) {
      await q(
        `INSERT INTO charging_gun (organization_id, pile_id, name, channel_number, qr_code, connector_type)
         VALUES ($1, $2, $3, $4, $5, 4)`,
        [org.id, host.id, `${channel}号枪`, channel, `${chargePointId}/${channel}`],
      );
    }
    const [maker] = await q(
      `INSERT INTO manufacturer (name, type, contact_name, contact_number) VALUES ('Bus maker', 'car', 'Li', '1') RETURNING id`,
    );
    await q(
      `INSERT INTO vehicle (organization_id, vin, plate, manufacturer_id) VALUES ($1, 'LVDLIVE0000000001', $2, $3)`,
      [org.id, plate, maker.id],
    );
    await q(
      `INSERT INTO charging_card (organization_id, physical_number, type, self_number, cardholder, status)
       VALUES ($1, $2, 3, $3, $4, 'normal')`,
      [org.id, card, `C${card}`, `${plate} 驾驶员`],
    );
    await q(`INSERT INTO id_tag (id_tag, status) VALUES ($1, 'Accepted')`, [card]);

    platform = await startPlatform({ databaseUrl: db.url, prefix, ocppPort, busEnv });
    ({ apiUrl: api, msgUrl } = platform);
    admin = await signIn(api, 'admin', 'Admin@123456');
    pile = new SimulatedPile({
      url: `ws://127.0.0.1:${ocppPort}/ocpp`,
      chargePointId,
      password: 'pile-secret',
      connectors: 2,
      timeScale: 60,
      meterIntervalMs: 300,
      maxPowerW: 150_000,
      bootRetryMs: 500,
    });
  }, 120_000);

  afterAll(async () => {
    await pile?.stop();
    await platform?.close();
    await db?.drop();
  });

  it('refuses the station topic to users without a monitoring permission or outside their data scope', async () => {
    /** A user of `organization` with the seeded `role` (or none), signed in. */
    const userOf = async (username: string, organization: string, role?: string) => {
      await db.dataSource.query(
        `WITH u AS (INSERT INTO sys_user (username, password_hash, real_name, organization_id, password_changed_at)
                    SELECT $1, $2, $1, id, now() FROM sys_organization WHERE code = $3 RETURNING id)
         INSERT INTO sys_user_role (user_id, role_id) SELECT u.id, r.id FROM u, sys_role r WHERE r.code = $4`,
        [username, await argon2.hash('Secret123', { type: argon2.argon2id }), organization, role ?? ''],
      );
      return signIn(api, username, 'Secret123');
    };
    const roleless = await userOf('hf.clerk', 'HF');
    await expect(watchStation(msgUrl, roleless, stationId)).rejects.toThrow(
      /Forbidden subscription: Missing permission/,
    );
    // A fleet manager of the Fuzhou depot may watch stations, but the Hefei station is not theirs.
    const fleet = await userOf('fz.fleet', 'FZ', 'fleet_manager');
    await expect(watchStation(msgUrl, fleet, stationId)).rejects.toThrow(
      `Station ${stationId} does not exist`,
    );
  });

  it("pushes a pile's status changes to the station's screens within a second", async () => {
    const screen = await watchStation(msgUrl, admin, stationId);
    try {
      const booted = Date.now();
      await pile.start();
      await screen.waitFor(2, (g) => g.status === 'idle', booted, 30_000);

      const latencies: number[] = [];
      for (let round = 0; round < 10; round++) {
        const faulted = Date.now();
        await pile.reportFault(2, 'GroundFailure');
        latencies.push(
          (await screen.waitFor(2, (g) => g.status === 'fault' && g.errorCode === 'GroundFailure', faulted)) -
            faulted,
        );
        const cleared = Date.now();
        await pile.clearFault(2);
        latencies.push((await screen.waitFor(2, (g) => g.status === 'idle', cleared)) - cleared);
      }
      const sorted = [...latencies].sort((a, b) => a - b);
      const p50 = sorted[Math.floor(sorted.length / 2)];
      const max = sorted.at(-1)!;
      console.log(
        `live monitoring (${busEnv['BUS']} bus): pile StatusNotification -> STOMP frame, ${latencies.length} changes: ` +
          `p50 ${p50} ms, p90 ${sorted[Math.floor(sorted.length * 0.9) - 1]} ms, max ${max} ms`,
      );
      // The requirement is 1 s: nine changes in ten within it, and none beyond 2 s even on a loaded
      // 2-core machine running the whole test suite.
      const p90 = sorted[Math.floor(sorted.length * 0.9) - 1];
      expect(p90).toBeLessThan(1_000);
      expect(max).toBeLessThan(2_000);
    } finally {
      await screen.close();
    }
  }, 90_000);

  it('shows when an idle pile was last heard from, from its live connection (heartbeats publish no event)', async () => {
    const lastSeen = async (): Promise<string | null> => {
      const page = await request(api)
        .get('/api/monitor/pile/page/1/size/10')
        .query({ keyword: chargePointId })
        .set('authorization', `Bearer ${admin}`)
        .expect(200);
      const view = (page.body.list as { chargePointId: string; lastSeenAt: string | null }[]).find(
        (p) => p.chargePointId === chargePointId,
      );
      return view?.lastSeenAt ?? null;
    };
    const before = await lastSeen();
    expect(before).not.toBeNull();
    // The gateway refreshes a connected pile's record at most every 30 s; do what it does after a later
    // Heartbeat, without the wait. No bus event moves the read model meanwhile.
    const heard = new Date(Date.parse(before!) + 45_000).toISOString();
    const redis = new Redis(testEnv().redisUrl);
    try {
      expect(await redis.hset(connectionKey(prefix, chargePointId), 'lastSeenAt', heard)).toBe(0);
    } finally {
      await redis.quit();
    }
    expect(await lastSeen()).toBe(heard);
  });

  it('starts and stops a charge from the api, and the gun card follows with power and the bus', async () => {
    const screen = await watchStation(msgUrl, admin, stationId);
    try {
      const sent = Date.now();
      const start = await request(api)
        .post(`/api/monitor/pile/${chargePointId}/command/RemoteStartTransaction`)
        .set('authorization', `Bearer ${admin}`)
        .send({ connectorId: 1, idTag: card })
        .expect(200);
      expect(start.body).toEqual({ status: 'completed', response: { status: 'Accepted' } });
      const charging = await screen.waitFor(
        1,
        (g) => g.status === 'charging' && (g.powerW ?? 0) > 0 && g.vehicle?.plate === plate && g.soc !== null,
        sent,
        30_000,
      );
      const transactionId = pile.activeSession(1)?.transactionId;
      expect(transactionId).toBeDefined();

      const stop = await request(api)
        .post(`/api/monitor/pile/${chargePointId}/command/RemoteStopTransaction`)
        .set('authorization', `Bearer ${admin}`)
        .send({ transactionId })
        .expect(200);
      expect(stop.body.response).toEqual({ status: 'Accepted' });
      await screen.waitFor(1, (g) => g.status === 'idle' && g.powerW === null, charging, 30_000);

      const journal = await db.dataSource.query(
        `SELECT action, status, replica_id FROM pile_command WHERE charge_point_id = $1 ORDER BY requested_at`,
        [chargePointId],
      );
      expect(journal.map((r: { action: string; status: string }) => [r.action, r.status])).toEqual([
        ['RemoteStartTransaction', 'completed'],
        ['RemoteStopTransaction', 'completed'],
      ]);
      expect(journal[0].replica_id).toEqual(expect.any(String));
    } finally {
      await screen.close();
    }
  }, 90_000);
});
