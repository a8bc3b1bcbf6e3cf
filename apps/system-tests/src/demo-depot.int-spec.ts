/**
 * The demo depot seed (`npm start`) writes real charging-assets records, keeps the gateway's registry and
 * id tags in step with them, and can run any number of times without creating or failing anything.
 */
import { createTestDatabase, type TestDatabase } from '@voltdepot/server-testing';
import { pilePasswordHasherFromEnv } from '@voltdepot/server-pile-credentials';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the demo depot is a script (npm start); this tests it
import {
  busCards,
  DEMO_PILE_PASSWORD,
  demoVehicles,
  pileIds,
  seedDemoDepot,
} from '../../../scripts/demo-depot';

const COUNTS: Record<string, string> = {
  stations: `SELECT count(*)::int AS n FROM station WHERE name IN ('东郊公交充电站', '西站公交充电站')`,
  piles: `SELECT count(*)::int AS n FROM charging_pile WHERE charge_point_id LIKE 'DEPOT-%'`,
  guns: `SELECT count(*)::int AS n FROM charging_gun`,
  transformers: `SELECT count(*)::int AS n FROM box_transformer`,
  vehicles: `SELECT count(*)::int AS n FROM vehicle`,
  cards: `SELECT count(*)::int AS n FROM charging_card`,
  companies: `SELECT count(*)::int AS n FROM bus_company`,
  branches: `SELECT count(*)::int AS n FROM bus_branch`,
  fleets: `SELECT count(*)::int AS n FROM bus_fleet`,
  lines: `SELECT count(*)::int AS n FROM bus_line`,
  stationLabels: `SELECT count(*)::int AS n FROM station_label`,
  regions: `SELECT count(*)::int AS n FROM region`,
  labels: `SELECT count(*)::int AS n FROM asset_label`,
  manufacturers: `SELECT count(*)::int AS n FROM manufacturer`,
  defaultPlans: `SELECT count(*)::int AS n FROM price_plan WHERE is_default`,
  plans: `SELECT count(*)::int AS n FROM price_plan`,
  planStages: `SELECT count(*)::int AS n FROM price_plan_stage`,
  stationPlans: `SELECT count(*)::int AS n FROM station_price_plan`,
  activeRegistry: `SELECT count(*)::int AS n FROM pile_registry WHERE state = 'active' AND password_hash LIKE 'hmac-sha256$%'`,
  registry: `SELECT count(*)::int AS n FROM pile_registry`,
  acceptedTags: `SELECT count(*)::int AS n FROM id_tag WHERE status = 'Accepted'`,
  tags: `SELECT count(*)::int AS n FROM id_tag`,
};

describe('demo depot seed', () => {
  let db: TestDatabase;

  async function counts(): Promise<Record<string, number>> {
    const result: Record<string, number> = {};
    for (const [name, sql] of Object.entries(COUNTS)) {
      const [{ n }] = (await db.dataSource.query(sql)) as { n: number }[];
      result[name] = n;
    }
    return result;
  }

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('seeds the depots as assets records and the gateway rows, and a second run changes nothing', async () => {
    await seedDemoDepot(db.dataSource);
    const first = await counts();
    expect(first).toMatchObject({
      stations: 2,
      piles: 20,
      guns: 40,
      transformers: 2,
      vehicles: 40,
      cards: 40,
      companies: 1,
      branches: 1,
      fleets: 2,
      lines: 4,
      stationLabels: 8,
      defaultPlans: 1,
      planStages: 7,
      stationPlans: 2,
      activeRegistry: 20,
      registry: 20,
      acceptedTags: 40,
      tags: 40,
    });
    const ids = await db.dataSource.query(
      `SELECT (SELECT array_agg(id ORDER BY id) FROM charging_pile) AS piles,
              (SELECT array_agg(id ORDER BY id) FROM charging_card) AS cards,
              (SELECT array_agg(password_hash ORDER BY charge_point_id) FROM pile_registry) AS hashes`,
    );

    await seedDemoDepot(db.dataSource);
    expect(await counts()).toEqual(first);
    expect(
      await db.dataSource.query(
        `SELECT (SELECT array_agg(id ORDER BY id) FROM charging_pile) AS piles,
                (SELECT array_agg(id ORDER BY id) FROM charging_card) AS cards,
                (SELECT array_agg(password_hash ORDER BY charge_point_id) FROM pile_registry) AS hashes`,
      ),
    ).toEqual(ids);
  });

  it('gives both stations the default plan from the epoch and puts everything under the HF depot', async () => {
    const plans = (await db.dataSource.query(
      `SELECT s.name, s.status, s.latitude::float8 AS latitude, s.longitude::float8 AS longitude,
              spp.effective_from = 'epoch' AS from_epoch, p.is_default
         FROM station s JOIN station_price_plan spp ON spp.station_id = s.id JOIN price_plan p ON p.id = spp.plan_id
        ORDER BY s.number`,
    )) as Record<string, unknown>[];
    expect(plans).toEqual([
      {
        name: '东郊公交充电站',
        status: 0,
        latitude: 31.82,
        longitude: 117.23,
        from_epoch: true,
        is_default: true,
      },
      {
        name: '西站公交充电站',
        status: 0,
        latitude: 31.86,
        longitude: 117.18,
        from_epoch: true,
        is_default: true,
      },
    ]);
    const [{ outside }] = (await db.dataSource.query(
      `SELECT count(*)::int AS outside FROM (
         SELECT organization_id FROM bus_company UNION ALL SELECT organization_id FROM bus_fleet
         UNION ALL SELECT organization_id FROM bus_line UNION ALL SELECT organization_id FROM station
         UNION ALL SELECT organization_id FROM box_transformer UNION ALL SELECT organization_id FROM charging_pile
         UNION ALL SELECT organization_id FROM charging_gun UNION ALL SELECT organization_id FROM vehicle
         UNION ALL SELECT organization_id FROM charging_card) t
        WHERE organization_id <> (SELECT id FROM sys_organization WHERE code = 'HF')`,
    )) as { outside: number }[];
    expect(outside).toBe(0);
  });

  it('charges occupation fees at 东郊 only, and turns them on for an untouched depot seeded before', async () => {
    const fees = async () =>
      (await db.dataSource.query(
        `SELECT number, occupation_fee_enabled AS enabled, free_parking_minutes AS free FROM station ORDER BY number`,
      )) as { number: string; enabled: boolean; free: number }[];
    expect(await fees()).toEqual([
      { number: 'HF-DEPOT-A', enabled: true, free: 15 },
      { number: 'HF-DEPOT-B', enabled: false, free: 120 },
    ]);
    // As an earlier seed left it (fees off, two free hours), never edited: the seed turns the fees on.
    await db.dataSource.query(
      `UPDATE station SET occupation_fee_enabled = false, free_parking_minutes = 120 WHERE number = 'HF-DEPOT-A'`,
    );
    await seedDemoDepot(db.dataSource);
    expect((await fees())[0]).toEqual({ number: 'HF-DEPOT-A', enabled: true, free: 15 });
    // Switched off in the console (which bumps updated_at): the seed leaves it off.
    await db.dataSource.query(
      `UPDATE station SET occupation_fee_enabled = false, updated_at = now() + interval '1 second'
        WHERE number = 'HF-DEPOT-A'`,
    );
    await seedDemoDepot(db.dataSource);
    expect((await fees())[0]).toEqual({ number: 'HF-DEPOT-A', enabled: false, free: 15 });
  });

  it('keeps the ids the simulation uses: pile passwords, bus cards and well-formed vehicles', async () => {
    const registry = (await db.dataSource.query(
      `SELECT r.charge_point_id, r.password_hash, p.ocpp_password_hash, p.device_status, p.gun_count
         FROM pile_registry r JOIN charging_pile p USING (charge_point_id) ORDER BY r.charge_point_id`,
    )) as Record<string, unknown>[];
    expect(registry.map((r) => r['charge_point_id'])).toEqual([...pileIds()].sort());
    for (const row of registry) {
      expect(row).toMatchObject({
        device_status: 50,
        gun_count: 2,
        password_hash: row['ocpp_password_hash'],
      });
    }
    const check = await pilePasswordHasherFromEnv().verify(
      String(registry[0]['password_hash']),
      DEMO_PILE_PASSWORD,
    );
    expect(check).toEqual({ match: true });

    const guns = (await db.dataSource.query(
      `SELECT array_agg(channel_number ORDER BY channel_number) AS channels FROM charging_gun GROUP BY pile_id`,
    )) as { channels: number[] }[];
    expect(guns.every((g) => g.channels.join() === '1,2')).toBe(true);

    const cards = (await db.dataSource.query(
      `SELECT c.physical_number, c.status, c.type, t.status AS tag_status, v.plate
         FROM charging_card c JOIN id_tag t ON t.id_tag = c.physical_number
         LEFT JOIN vehicle v ON v.id = c.vehicle_id ORDER BY c.physical_number`,
    )) as Record<string, unknown>[];
    expect(cards.map((c) => c['physical_number'])).toEqual(busCards());
    expect(cards.every((c) => c['status'] === 'normal' && c['tag_status'] === 'Accepted')).toBe(true);
    // Each card is issued to its own bus.
    const plateOf = new Map(demoVehicles().map((v) => [v.card, v.plate]));
    expect(cards.map((c) => c['plate'])).toEqual(cards.map((c) => plateOf.get(String(c['physical_number']))));

    const vehicles = (await db.dataSource.query(
      `SELECT vin, plate, battery_capacity_wh FROM vehicle ORDER BY vin`,
    )) as { vin: string; plate: string; battery_capacity_wh: number }[];
    expect(vehicles.map((v) => v.plate)).toEqual(demoVehicles().map((v) => v.plate));
    for (const v of vehicles) {
      expect(v.vin).toMatch(/^[A-HJ-NPR-Z0-9]{17}$/);
      expect(v.plate).toMatch(/^皖A·D\d{4}$/);
      expect(v.battery_capacity_wh).toBeGreaterThanOrEqual(280_000);
      expect(v.battery_capacity_wh).toBeLessThanOrEqual(420_000);
    }
  });
});
