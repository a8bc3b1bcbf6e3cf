import { PricePlanVersions1764020000000 } from './1764020000000-price-plan-versions';
import { migratedDatabase, type MigratedDatabase } from './fixtures/migrated-database';

// Every plan's stages so far become its first version, in force since always, in stage order.
describe('price_plan_version (real PostgreSQL, all migrations)', () => {
  const migration = new PricePlanVersions1764020000000();
  let db: MigratedDatabase;

  beforeAll(async () => {
    db = await migratedDatabase('price-plan-versions-test');
  }, 60_000);

  afterAll(() => db?.close());

  it('makes the stages of existing plans their first version; a plan without stages gets none', async () => {
    await migration.down(db.runner);
    const [withStages] = await db.q(`INSERT INTO price_plan (name) VALUES ('Two stages') RETURNING id`);
    await db.q(`INSERT INTO price_plan (name) VALUES ('No stages') RETURNING id`);
    // Written out of order: the version keeps the order of seq.
    await db.q(
      `INSERT INTO price_plan_stage (plan_id, seq, stage_type, start_minute, end_minute, electricity_price, service_fee)
       VALUES ($1, 1, 'peak', 600, 1440, 8523, 8000), ($1, 0, 'valley', 0, 600, 3200, 4000)`,
      [withStages['id']],
    );

    await migration.up(db.runner);
    const versions = await db.q(
      `SELECT plan_id, effective_from::text AS effective_from, stages FROM price_plan_version ORDER BY plan_id`,
    );
    expect(versions).toEqual([
      {
        plan_id: withStages['id'],
        effective_from: '-infinity',
        // The shape settlement reads (price plans' planVersionStages).
        stages: [
          { stageType: 'valley', startMinute: 0, endMinute: 600, electricityPrice: 3200, serviceFee: 4000 },
          { stageType: 'peak', startMinute: 600, endMinute: 1440, electricityPrice: 8523, serviceFee: 8000 },
        ],
      },
    ]);
    // The station history and the order operation log's resources are back too.
    expect(
      await db.q(`SELECT code FROM sys_resource WHERE code LIKE 'order_operation:%' ORDER BY code`),
    ).toEqual([{ code: 'order_operation:export' }, { code: 'order_operation:view' }]);
  });
});
