/**
 * What a first-time operator sees of the demo (issue #24): a demo started in the afternoon (14:00
 * business time, its clock live) has guns charging within a minute; the big screen's totals are the
 * lists' counts; each demo role signs in to the menu its job needs, and its key lists are not empty.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { instantOf, localDay } from '@voltdepot/server-billing';
import { DepotClock } from '@voltdepot/server-ocpp-simulator';
import { createTestDatabase, eventually, type TestDatabase } from '@voltdepot/server-testing';
import type { MonitorStationSummary } from '@voltdepot/shared-contracts';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the demo depot is a script (npm start); this tests it
import { MIN_OPENING_SESSIONS } from '../../../scripts/demo/depot-schedule';
// eslint-disable-next-line @nx/enforce-module-boundaries -- as above
import {
  loadDemoFleet,
  pileIds,
  seedDemoDepot,
  startDemoSimulation,
  type DemoSimulation,
} from '../../../scripts/demo-depot';
import { busDrivers, signIn, startPlatform, type RunningPlatform } from './fixtures/platform';

type MenuNode = { code: string; path: string | null; children?: MenuNode[] };
const menuPaths = (nodes: MenuNode[]): string[] =>
  nodes.flatMap((n) => [...(n.path ? [n.path] : []), ...menuPaths(n.children ?? [])]);

/** The pages each demo role works in, and pages it must not see (paths of console pages). */
const ROLE_MENUS: Record<string, { password: string; sees: string[]; never: string[] }> = {
  admin: {
    password: 'Admin@123456',
    sees: ['/sys/user', '/sys/role', '/operation/stationMonitor', '/basic/station', '/msg/config'],
    never: [],
  },
  operator: {
    password: 'Demo@123456',
    sees: [
      '/operation/stationMonitor',
      '/operation/pileMonitor',
      '/operation/busList',
      '/operation/orderManage/orderQuery',
      '/operation/pricePlan',
      '/basic/station',
      '/basic/vehicle',
      '/msg/config',
    ],
    never: ['/sys/role', '/sys/resource', '/sys/config'],
  },
  maintainer: {
    password: 'Demo@123456',
    sees: [
      '/operation/stationMonitor',
      '/operation/pileMonitor',
      '/basic/station',
      '/basic/host',
      '/basic/gun',
      '/basic/alarmCode',
      '/basic/maintenancePersonnel',
    ],
    never: ['/sys/user', '/operation/pricePlan', '/operation/orderManage/orderQuery'],
  },
  fleet: {
    password: 'Demo@123456',
    sees: [
      '/operation/busList',
      '/operation/stationMonitor',
      '/operation/orderManage/orderQuery',
      '/basic/vehicle',
      '/basic/fleet',
      '/basic/line',
      '/basic/cardConfig',
    ],
    never: ['/sys/user', '/sys/org', '/sys/role', '/basic/host', '/operation/pricePlan'],
  },
};

/** The lists each role's work starts from: none may be empty on the demo. */
const KEY_LISTS: Record<string, string[]> = {
  admin: ['/api/station/page/1/size/10', '/api/user/page/1/size/10', '/api/monitor/vehicle/page/1/size/10'],
  operator: [
    '/api/monitor/pile/page/1/size/10',
    '/api/monitor/vehicle/page/1/size/10',
    '/api/station/page/1/size/10',
    '/api/vehicle/page/1/size/10',
  ],
  maintainer: [
    '/api/monitor/pile/page/1/size/10',
    '/api/pile/page/1/size/10',
    '/api/gun/page/1/size/10',
    '/api/alarmCode/page/1/size/10',
    '/api/maintenancePersonnel/page/1/size/10',
  ],
  fleet: [
    '/api/monitor/vehicle/page/1/size/10',
    '/api/vehicle/page/1/size/10',
    '/api/fleet/page/1/size/10',
    '/api/line/page/1/size/10',
    '/api/card/page/1/size/10',
  ],
};

describe('the demo as a first-time operator sees it', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let simulation: DemoSimulation | undefined;
  const prefix = `vdlook${randomUUID().slice(0, 6)}`;
  const ocppPort = 20000 + Math.floor(Math.random() * 10000);
  const tokens: Record<string, string> = {};
  const get = (who: string, path: string) =>
    request(platform.apiUrl).get(path).set('Authorization', `Bearer ${tokens[who]}`);

  beforeAll(async () => {
    db = await createTestDatabase();
    await seedDemoDepot(db.dataSource);
    platform = await startPlatform({ databaseUrl: db.url, prefix, ocppPort, busEnv: busDrivers()[0] });
    for (const [who, { password }] of Object.entries(ROLE_MENUS))
      tokens[who] = await signIn(platform.apiUrl, who, password);
  });

  afterAll(async () => {
    await simulation?.stop();
    await platform?.close();
    await db?.drop();
  });

  it('started at 14:00 business time with a live clock, has guns charging within a minute', async () => {
    const fleet = await loadDemoFleet(db.dataSource);
    // The latest 14:00 that has passed: the clock runs at real time from there (as a restart would).
    let startAt = instantOf(localDay(Date.now(), fleet.timeZone), 14 * 60, fleet.timeZone);
    if (startAt > Date.now()) startAt -= 24 * 3_600_000;
    const clock = new DepotClock({ startAt, speed: 1 });
    const started = Date.now();
    simulation = await startDemoSimulation({
      ocppUrl: `ws://127.0.0.1:${ocppPort}/ocpp`,
      clock,
      fleet,
      faultRate: 0.03,
      abnormalRate: 0,
      meterIntervalMs: 2_000,
    });
    await eventually(
      async () => {
        const stations = (await get('operator', '/api/monitor/station/list').expect(200))
          .body as MonitorStationSummary[];
        const charging = stations.reduce((n, s) => n + s.guns.charging, 0);
        expect(charging).toBeGreaterThanOrEqual(MIN_OPENING_SESSIONS);
      },
      60_000 - (Date.now() - started),
      1_000,
    );
    // The sessions began at the depot clock's 14:00, as top-ups (no evening replay).
    const [sessions] = (await db.dataSource.query(
      `SELECT count(*)::int AS n, min(started_at) AS first, max(started_at) AS last
         FROM ocpp_transaction WHERE charge_point_id = ANY($1)`,
      [pileIds()],
    )) as { n: number; first: Date; last: Date }[];
    expect(sessions.n).toBeGreaterThanOrEqual(MIN_OPENING_SESSIONS);
    expect(new Date(sessions.first).getTime()).toBeGreaterThanOrEqual(startAt);
    expect(new Date(sessions.last).getTime()).toBeLessThan(startAt + 90_000);
  }, 120_000);

  it("shows on the big screen the lists' counts: stations, piles and guns", async () => {
    for (const who of ['admin', 'operator']) {
      // The screen's tiles read page 1 of size 1 of each grid (apps/console/src/screen/screenTotals.ts).
      const total = async (grid: string) =>
        ((await get(who, `/api/${grid}/page/1/size/1`).expect(200)).body as { total: number }).total;
      const stations = (await get(who, '/api/monitor/station/list').expect(200))
        .body as MonitorStationSummary[];
      const listed = async (grid: string) =>
        ((await get(who, `/api/${grid}/page/1/size/100`).expect(200)).body as { list: unknown[] }).list
          .length;
      expect(await total('station')).toBe(stations.length);
      expect(await total('station')).toBe(await listed('station'));
      expect(await total('pile')).toBe(stations.reduce((n, s) => n + s.pilesTotal, 0));
      expect(await total('pile')).toBe(await listed('pile'));
      const guns = stations.reduce((n, s) => n + Object.values(s.guns).reduce((a, b) => a + b, 0), 0);
      expect(await total('gun')).toBe(guns);
      expect({ who, stations: stations.length }).toEqual({ who, stations: 2 });
    }
  });

  it.each(Object.keys(ROLE_MENUS))('gives %s the menu of their job and non-empty key lists', async (who) => {
    const menus = (await get(who, '/authority/users/currentuser/menus').expect(200)).body as MenuNode[];
    const paths = menuPaths(menus);
    expect(paths).toEqual(expect.arrayContaining(ROLE_MENUS[who].sees));
    for (const path of ROLE_MENUS[who].never)
      expect({ who, path, shown: paths.includes(path) }).toEqual({
        who,
        path,
        shown: false,
      });
    for (const path of KEY_LISTS[who]) {
      const page = (await get(who, path).expect(200)).body as { list: unknown[]; total: number };
      expect({ path, total: page.total }).toEqual({ path, total: expect.any(Number) });
      expect({ path, empty: page.list.length === 0 }).toEqual({ path, empty: false });
    }
  });
});
