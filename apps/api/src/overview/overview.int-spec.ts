/**
 * The home page's figures through the real api: piles and guns made live by gateway events on the bus
 * (the worker's read model), orders in PostgreSQL around the business day's edges, the caller's data
 * scope, the business time zone setting, and the home permission.
 */
import { randomUUID } from 'node:crypto';
import { businessDayOf } from '@voltdepot/server-billing';
import { RedisStreamsBus } from '@voltdepot/server-messaging';
import {
  deleteRedisKeys,
  eventually,
  insertDepot,
  organizationId,
  PileEvents,
  testEnv,
} from '@voltdepot/server-testing';
import {
  ADMIN_PASSWORD,
  bearer,
  DEMO_PASSWORD,
  errorOf,
  startApiTestApp,
  type ApiTestApp,
} from '../fixtures/api-test-app';
import type { TodayOverview } from './overview.dto';

const prefix = `vdhome${randomUUID().slice(0, 6)}`;
const run = randomUUID().slice(0, 4).toUpperCase();
const cp = { fz: `FZ-${run}-H1`, fzIdle: `FZ-${run}-H2`, hf: `HF-${run}-H1` };

describe('GET /api/overview/today', () => {
  let app: ApiTestApp;
  let bus: RedisStreamsBus;
  const tokens: Record<string, string> = {};
  /** The admin's figures before this test's depots existed (the demo data may hold some). */
  let before: TodayOverview;
  const get = (user: string) => app.http().get('/api/overview/today').set(bearer(tokens[user]));

  /** An order stopped at `stoppedAt` at charge point `chargePoint`. */
  async function order(chargePoint: string, stoppedAt: Date, energyWh: number, totalFen: number) {
    await app.db.dataSource.query(
      `INSERT INTO charging_order (order_no, charge_point_id, connector_id, transaction_id, stopped_at,
                                   meter_stop_wh, energy_wh, total_fen, end_reason, stop_kind, pay_status)
       VALUES ($1, $2, 1, $3, $4, $5, $5, $6, 'Local', 'normal', 1)`,
      [
        `HM${randomUUID().replace(/-/g, '').slice(0, 18)}`,
        chargePoint,
        Math.floor(Math.random() * 1e9),
        stoppedAt,
        energyWh,
        totalFen,
      ],
    );
  }

  beforeAll(async () => {
    app = await startApiTestApp({ BUS_PREFIX: prefix, OCPP_REDIS_PREFIX: prefix }, [], { worker: true });
    const db = app.db.dataSource;
    // The fleet manager's role loses the home page: its figures are refused.
    await db.query(
      `DELETE FROM sys_role_resource WHERE role_id = (SELECT id FROM sys_role WHERE code = 'fleet_manager')
          AND resource_id = (SELECT id FROM sys_resource WHERE code = 'home')`,
    );
    // The operator role sees the FZ subtree only, so data scope has something to leave out.
    await db.query(
      `UPDATE sys_role_organization SET organization_id = $1 WHERE role_id = (SELECT id FROM sys_role WHERE code = 'operator')`,
      [await organizationId(db, 'FZ')],
    );
    for (const [user, password] of [
      ['admin', ADMIN_PASSWORD],
      ['operator', DEMO_PASSWORD],
      ['fleet', DEMO_PASSWORD],
    ]) {
      tokens[user] = (await app.login(user, password)).accessToken;
    }
    before = (await get('admin').expect(200)).body as TodayOverview;
    const depot = (organization: string, chargePointId: string, guns: number, name: string) =>
      insertDepot(db, {
        organization,
        station: { number: chargePointId, name },
        pile: { name: chargePointId, number: chargePointId, charge_point_id: chargePointId, gun_count: guns },
        guns,
      });
    await depot('FZ', cp.fz, 2, 'Fuzhou Home Yard');
    await depot('FZ', cp.fzIdle, 1, 'Fuzhou Quiet Yard'); // never heard of: offline
    await depot('HF', cp.hf, 1, 'Hefei Home Yard');

    const day = businessDayOf(new Date(), 'Asia/Shanghai');
    // Today's edges are in, yesterday's last and tomorrow's first instant are not.
    await order(cp.fz, day.from, 10_001, 1_001);
    await order(cp.fz, new Date(day.to.getTime() - 1), 20_002, 2_002);
    await order(cp.fz, new Date(day.from.getTime() - 1), 40_000, 4_000);
    await order(cp.fz, day.to, 80_000, 8_000);
    await order(cp.hf, new Date(), 5_005, 505);

    bus = new RedisStreamsBus({ url: testEnv().redisUrl, prefix, trimIntervalMs: 0 });
    const fz = new PileEvents(cp.fz, Date.now() - 120_000);
    const hf = new PileEvents(cp.hf, Date.now() - 120_000);
    await bus.publish([
      fz.connected(),
      fz.status(2, 'Faulted', 1),
      ...fz.charging(10, {
        connectorId: 1,
        transactionId: 4242,
        idTag: `C${run}`,
        meterStartWh: 100_000,
        energyWh: 2_000,
        powerW: 90_000,
        soc: 50,
      }),
      hf.connected(),
      hf.status(1, 'Available', 1),
    ]);
  }, 90_000);

  afterAll(async () => {
    await bus?.close();
    await app?.close();
    await deleteRedisKeys(testEnv().redisUrl, prefix);
  });

  it("counts the scope's live state and today's orders, in Wh and fen", async () => {
    const mine = await eventually(async () => {
      const body = (await get('operator').expect(200)).body as TodayOverview;
      expect(body.guns.charging).toBe(1);
      expect(body.faults.guns).toBe(1);
      return body;
    }, 20_000);
    const day = businessDayOf(new Date(), 'Asia/Shanghai');
    expect(mine.businessDay).toEqual({
      date: day.date,
      timeZone: 'Asia/Shanghai',
      from: day.from.toISOString(),
      to: day.to.toISOString(),
    });
    // The operator sees Fuzhou only: two stations (one online), two piles, three guns (two online).
    expect(mine).toEqual(
      expect.objectContaining({
        stations: { online: 1, total: 2 },
        piles: { online: 1, total: 2 },
        guns: { online: 2, total: 3, charging: 1 },
        orders: { count: 2, energyWh: 30_003, revenueFen: 3_003 },
        faults: { open: 1, piles: 1, guns: 1 },
      }),
    );

    // The administrator sees Hefei too, on top of whatever was there before.
    const all = await eventually(async () => {
      const body = (await get('admin').expect(200)).body as TodayOverview;
      expect(body.piles.online - before.piles.online).toBe(2);
      return body;
    }, 20_000);
    expect({
      stations: [all.stations.online - before.stations.online, all.stations.total - before.stations.total],
      guns: [all.guns.online - before.guns.online, all.guns.total - before.guns.total],
      charging: all.guns.charging - before.guns.charging,
      orders: [
        all.orders.count - before.orders.count,
        all.orders.energyWh - before.orders.energyWh,
        all.orders.revenueFen - before.orders.revenueFen,
      ],
    }).toEqual({
      stations: [2, 3],
      guns: [3, 4],
      charging: 1,
      orders: [3, 35_008, 3_508],
    });
  });

  it('takes the business day from the platform setting businessTimeZone', async () => {
    const db = app.db.dataSource;
    await db.query(
      `UPDATE sys_platform_config SET config_value = 'UTC' WHERE config_key = 'businessTimeZone'`,
    );
    try {
      const body = (await get('operator').expect(200)).body as TodayOverview;
      const day = businessDayOf(new Date(), 'UTC');
      expect(body.businessDay).toEqual({
        date: day.date,
        timeZone: 'UTC',
        from: day.from.toISOString(),
        to: day.to.toISOString(),
      });
    } finally {
      await db.query(
        `UPDATE sys_platform_config SET config_value = 'Asia/Shanghai' WHERE config_key = 'businessTimeZone'`,
      );
    }
  });

  it('needs the home permission and a session', async () => {
    errorOf((await get('fleet').expect(403)).body, 'FORBIDDEN');
    await app.http().get('/api/overview/today').expect(401);
  });
});
