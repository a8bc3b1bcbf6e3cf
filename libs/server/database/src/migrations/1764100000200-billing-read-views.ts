import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the billing area publishes for the other areas to read (docs/decisions/0001-table-ownership.md):
 * which price plan each station charges with from when (the assets' station grid shows the one in force).
 */
export class BillingReadViews1764100000200 implements MigrationInterface {
  name = 'BillingReadViews1764100000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE VIEW billing_station_price_plan_v AS
        SELECT station_id, plan_id, effective_from FROM station_price_plan`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP VIEW billing_station_price_plan_v`);
  }
}
