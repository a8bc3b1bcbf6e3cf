import type { MigrationInterface, QueryRunner } from 'typeorm';

const MENUS: [code: string, name: string, path: string, sort: number][] = [
  ['operation:orderManage:orderQuery', 'Order query', '/operation/orderManage/orderQuery', 1],
  ['operation:orderManage:abnormalOrder', 'Abnormal orders', '/operation/orderManage/abnormalOrder', 2],
];

const BUTTONS: [parent: string, code: string, name: string, sort: number][] = [
  ['operation:orderManage:orderQuery', 'charging_order:view', 'View charging orders', 1],
  ['operation:orderManage:orderQuery', 'charging_order:export', 'Export charging orders', 2],
  ['operation:orderManage:abnormalOrder', 'charging_order:review', 'Review abnormal orders', 1],
  ['operation:pricePlan', 'price_plan:export', 'Export price plans', 3],
  ['operation:discountPlan', 'discount_plan:export', 'Export discount plans', 3],
];

const GRANTED = ['operation:orderManage', ...MENUS.map(([code]) => code), ...BUTTONS.map(([, code]) => code)];

/**
 * The order screens of the console: an "Order management" menu under Operations holding order query,
 * abnormal orders and the occupation fee orders (moved there, at the path the spec gives:
 * /operation/orderManage/occupationOrder); the buttons the order API checks and the export buttons
 * of the plan lists; and the review record of abnormal (held) orders: one decision per order.
 */
export class OrderConsole1763940000000 implements MigrationInterface {
  name = 'OrderConsole1763940000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE charging_order_review (
        order_id      bigint       PRIMARY KEY REFERENCES charging_order (id) ON DELETE CASCADE,
        decision      varchar(8)   NOT NULL CHECK (decision IN ('approve', 'reject')),
        reason        varchar(200) NOT NULL,
        reviewer_id   bigint,
        reviewer_name varchar(64)  NOT NULL,
        reviewed_at   timestamptz  NOT NULL DEFAULT now()
      )`);
    // Abnormal-order screen: orders held at settlement, newest first.
    await q.query(
      `CREATE INDEX charging_order_held_idx ON charging_order (stopped_at DESC) WHERE cardinality(abnormal_reasons) > 0`,
    );

    await q.query(
      `INSERT INTO sys_resource (parent_id, type, code, name, path, sort)
       SELECT id, 'menu', 'operation:orderManage', 'Order management', '/operation/orderManage', 92
         FROM sys_resource WHERE code = 'operation'`,
    );
    for (const [code, name, path, sort] of MENUS) {
      await q.query(
        `INSERT INTO sys_resource (parent_id, type, code, name, path, sort)
         SELECT id, 'menu', $1, $2, $3, $4 FROM sys_resource WHERE code = 'operation:orderManage'`,
        [code, name, path, sort],
      );
    }
    await q.query(
      `UPDATE sys_resource SET parent_id = (SELECT id FROM sys_resource WHERE code = 'operation:orderManage'),
              path = '/operation/orderManage/occupationOrder', sort = 3
        WHERE code = 'operation:occupationOrder'`,
    );
    for (const [parent, code, name, sort] of BUTTONS) {
      await q.query(
        `INSERT INTO sys_resource (parent_id, type, code, name, sort)
         SELECT id, 'button', $2, $3, $4 FROM sys_resource WHERE code = $1`,
        [parent, code, name, sort],
      );
    }
    await q.query(
      `INSERT INTO sys_role_resource (role_id, resource_id)
       SELECT r.id, s.id FROM sys_role r, sys_resource s
        WHERE r.code IN ('admin', 'operator') AND s.code = ANY($1::text[])
       ON CONFLICT DO NOTHING`,
      [GRANTED],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE sys_resource SET parent_id = (SELECT id FROM sys_resource WHERE code = 'operation'),
              path = '/operation/occupationOrder'
        WHERE code = 'operation:occupationOrder'`,
    );
    const buttons = BUTTONS.map(([, code]) => code);
    await q.query(`DELETE FROM sys_resource WHERE code = ANY($1::text[]) AND type = 'button'`, [buttons]);
    await q.query(`DELETE FROM sys_resource WHERE code = ANY($1::text[])`, [MENUS.map(([code]) => code)]);
    await q.query(`DELETE FROM sys_resource WHERE code = 'operation:orderManage'`);
    await q.query(`DROP INDEX charging_order_held_idx`);
    await q.query(`DROP TABLE charging_order_review`);
  }
}
