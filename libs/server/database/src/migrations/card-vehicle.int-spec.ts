import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { QueryRunner } from 'typeorm';
import { dropDatabase, ensureDatabase, migrateDatabase, withDatabase } from '../index';
import { CardVehicle1763980000000 } from './1763980000000-card-vehicle';
import { AssetsReadViews1764100000100 } from './1764100000100-assets-read-views';

const BASE_URL = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

// Cards made before the link take the one vehicle their text names; deleting a vehicle unlinks them.
describe('charging_card.vehicle_id (real PostgreSQL, all migrations)', () => {
  const name = `vd_t_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
  const url = withDatabase(BASE_URL, name);
  let client: Client;
  const migration = new CardVehicle1763980000000();
  // assets_card_v publishes the column: it goes while the column does.
  const views = new AssetsReadViews1764100000100();
  let runner: QueryRunner;
  const q = async (sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows;

  beforeAll(async () => {
    await ensureDatabase(url);
    await migrateDatabase(url, 'card-vehicle-test');
    client = new Client({ connectionString: url });
    await client.connect();
    runner = { query: (sql: string, params?: unknown[]) => q(sql, params) } as unknown as QueryRunner;
  }, 60_000);

  afterAll(async () => {
    await client?.end();
    await dropDatabase(BASE_URL, name);
  });

  it('backfills each card whose cardholder or description names exactly one plate', async () => {
    await views.down(runner);
    await migration.down(runner);
    const [org] = await q(`SELECT id FROM sys_organization WHERE code = 'ROOT'`);
    const [maker] = await q(
      `INSERT INTO manufacturer (name, type, contact_name, contact_number) VALUES ('Maker', 'car', 'Li', '1') RETURNING id`,
    );
    const vehicle = async (plate: string, vin: string) =>
      Number(
        (
          await q(
            `INSERT INTO vehicle (organization_id, vin, plate, manufacturer_id) VALUES ($1, $2, $3, $4) RETURNING id`,
            [org.id, vin, plate, maker.id],
          )
        )[0].id,
      );
    const v1 = await vehicle('皖A·D101', 'LVDTEST0000000001');
    const v2 = await vehicle('皖A·D202', 'LVDTEST0000000002');
    const card = async (number: string, cardholder: string, description: string | null) =>
      q(
        `INSERT INTO charging_card (organization_id, physical_number, type, self_number, cardholder, description, status)
         VALUES ($1, $2, 3, $2, $3, $4, 'normal')`,
        [org.id, number, cardholder, description],
      );
    await card('BYHOLDER', '皖A·D101 驾驶员', null);
    await card('BYDESC', 'Wang Wu', '皖A·D202 充电卡');
    await card('TWOPLATES', '皖A·D101/皖A·D202', null);
    await card('NOPLATE', 'Spare card', 'for any bus');

    await migration.up(runner);
    await views.up(runner);
    const links = await q(`SELECT physical_number, vehicle_id FROM charging_card ORDER BY physical_number`);
    expect(links.map((r) => [r.physical_number, r.vehicle_id])).toEqual([
      ['BYDESC', v2],
      ['BYHOLDER', v1],
      ['NOPLATE', null],
      ['TWOPLATES', null],
    ]);

    await q(`DELETE FROM vehicle WHERE id = $1`, [v1]);
    const [unlinked] = await q(`SELECT vehicle_id FROM charging_card WHERE physical_number = 'BYHOLDER'`);
    expect(unlinked.vehicle_id).toBeNull();
    const [index] = await q(`SELECT indexdef FROM pg_indexes WHERE indexname = 'charging_card_vehicle_idx'`);
    expect(index.indexdef).toMatch(/\(vehicle_id\)/);
  });
});
