import type { MigrationInterface, QueryRunner } from 'typeorm';

const CODES = ['operation:pricePlan', 'price_plan:view', 'price_plan:edit'];

/** The price plan menu and its permission buttons, granted to administrators and operator staff. */
export class BillingResources1763840000100 implements MigrationInterface {
  name = 'BillingResources1763840000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `INSERT INTO sys_resource (parent_id, type, code, name, path, sort)
       SELECT id, 'menu', 'operation:pricePlan', 'Price plans', '/operation/pricePlan', 90 FROM sys_resource WHERE code = 'operation'`,
    );
    await q.query(
      `INSERT INTO sys_resource (parent_id, type, code, name, sort)
       SELECT p.id, 'button', b.code, b.name, b.sort
         FROM sys_resource p,
              (VALUES ('price_plan:view', 'View price plans', 1), ('price_plan:edit', 'Edit price plans', 2)) AS b(code, name, sort)
        WHERE p.code = 'operation:pricePlan'`,
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
  }
}
