import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An order held for review keeps the tariff it would have been billed with (the price plan's stages and
 * the card's discount at the session's start), so approving it later bills those prices even when the
 * plan or the discount has been edited meanwhile: changing a plan never re-prices history.
 */
export class OrderTariff1763970000000 implements MigrationInterface {
  name = 'OrderTariff1763970000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE charging_order ADD COLUMN tariff jsonb`);
    await q.query(
      `COMMENT ON COLUMN charging_order.tariff IS
        'Held orders: {planId, stages[], discount|null} in force at the session start, billed on approval'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE charging_order DROP COLUMN tariff`);
  }
}
