import type { MigrationInterface, QueryRunner } from 'typeorm';

const CODES = ['operation:discountPlan', 'discount_plan:view', 'discount_plan:edit'];

/**
 * Discount plans (a percentage of the electricity fee and of the service fee, for the cards listed in
 * the plan's detail rows, within a valid period), the discount columns of charging orders, and the
 * discount plan menu and buttons granted to administrators and operator staff.
 */
export class DiscountPlans1763870000000 implements MigrationInterface {
  name = 'DiscountPlans1763870000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE discount_plan (
        id                   serial PRIMARY KEY,
        name                 varchar(64) NOT NULL,
        customer_type        smallint    NOT NULL CHECK (customer_type IN (1, 2, 3)),
        price_discount       smallint    NOT NULL CHECK (price_discount BETWEEN 0 AND 100),
        service_fee_discount smallint    NOT NULL CHECK (service_fee_discount BETWEEN 0 AND 100),
        valid_from           timestamptz NOT NULL,
        valid_to             timestamptz NOT NULL,
        enabled              boolean     NOT NULL DEFAULT true,
        created_at           timestamptz NOT NULL DEFAULT now(),
        updated_at           timestamptz NOT NULL DEFAULT now(),
        CHECK (valid_to > valid_from)
      )`);
    await q.query(`CREATE UNIQUE INDEX discount_plan_name_key ON discount_plan (lower(name))`);
    // Detail rows: the cards (id tags) a plan applies to.
    await q.query(`
      CREATE TABLE discount_plan_card (
        plan_id integer     NOT NULL REFERENCES discount_plan(id) ON DELETE CASCADE,
        id_tag  varchar(20) NOT NULL,
        PRIMARY KEY (plan_id, id_tag)
      )`);
    await q.query(`CREATE INDEX discount_plan_card_tag_idx ON discount_plan_card (id_tag)`);
    await q.query(`
      ALTER TABLE charging_order
        ADD COLUMN discount_plan_id         integer REFERENCES discount_plan(id) ON DELETE SET NULL,
        ADD COLUMN electricity_discount_fen bigint NOT NULL DEFAULT 0,
        ADD COLUMN service_discount_fen     bigint NOT NULL DEFAULT 0`);
    await q.query(
      `INSERT INTO sys_resource (parent_id, type, code, name, path, sort)
       SELECT id, 'menu', 'operation:discountPlan', 'Discount plans', '/operation/discountPlan', 91
         FROM sys_resource WHERE code = 'operation'`,
    );
    await q.query(
      `INSERT INTO sys_resource (parent_id, type, code, name, sort)
       SELECT p.id, 'button', b.code, b.name, b.sort
         FROM sys_resource p,
              (VALUES ('discount_plan:view', 'View discount plans', 1),
                      ('discount_plan:edit', 'Edit discount plans', 2)) AS b(code, name, sort)
        WHERE p.code = 'operation:discountPlan'`,
    );
    await q.query(
      `INSERT INTO sys_role_resource (role_id, resource_id)
       SELECT r.id, s.id FROM sys_role r, sys_resource s
        WHERE r.code IN ('admin', 'operator') AND s.code = ANY($1::text[])
       ON CONFLICT DO NOTHING`,
      [CODES],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM sys_resource WHERE code = ANY($1::text[]) AND type = 'button'`, [CODES]);
    await q.query(`DELETE FROM sys_resource WHERE code = ANY($1::text[])`, [CODES]);
    await q.query(`
      ALTER TABLE charging_order
        DROP COLUMN discount_plan_id, DROP COLUMN electricity_discount_fen, DROP COLUMN service_discount_fen`);
    await q.query(`DROP TABLE discount_plan_card`);
    await q.query(`DROP TABLE discount_plan`);
  }
}
