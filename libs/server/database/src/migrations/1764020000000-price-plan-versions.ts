import type { MigrationInterface, QueryRunner } from 'typeorm';

const MENU = [
  'operation:orderManage:operationLog',
  'Order operation log',
  '/operation/orderManage/operationLog',
  4,
];
const BUTTONS: [code: string, name: string, sort: number][] = [
  ['order_operation:view', 'View order operations', 1],
  ['order_operation:export', 'Export order operations', 2],
];
const GRANTED = [MENU[0] as string, ...BUTTONS.map(([code]) => code)];

/**
 * Price plan versions: editing a plan's stages adds a version effective from a given instant, and a
 * session is priced with the version in force at its start, so an edit never re-prices history. Every
 * plan's current stages become its first version, in force since always ('-infinity').
 *
 * And the order operation log (Orders menu, spec §2): its menu and buttons, for the roles that see
 * the order screens (admin and operator).
 */
export class PricePlanVersions1764020000000 implements MigrationInterface {
  name = 'PricePlanVersions1764020000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE price_plan_version (
        id             serial      PRIMARY KEY,
        plan_id        integer     NOT NULL REFERENCES price_plan (id) ON DELETE CASCADE,
        effective_from timestamptz NOT NULL,
        stages         jsonb       NOT NULL CHECK (jsonb_typeof(stages) = 'array' AND jsonb_array_length(stages) > 0),
        created_at     timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT price_plan_version_uq UNIQUE (plan_id, effective_from)
      )`);
    await q.query(`
      INSERT INTO price_plan_version (plan_id, effective_from, stages)
      SELECT s.plan_id, '-infinity',
             jsonb_agg(jsonb_build_object('stageType', s.stage_type, 'startMinute', s.start_minute,
                                          'endMinute', s.end_minute, 'electricityPrice', s.electricity_price,
                                          'serviceFee', s.service_fee) ORDER BY s.seq)
        FROM price_plan_stage s GROUP BY s.plan_id`);
    // The plan history of a station, newest first.
    await q.query(`ALTER TABLE station_price_plan ADD COLUMN created_at timestamptz NOT NULL DEFAULT now()`);
    await q.query(`ALTER TABLE station_price_plan ADD COLUMN created_by varchar(64)`);

    // The order operation log, newest action first.
    await q.query(`CREATE INDEX charging_order_review_at_idx ON charging_order_review (reviewed_at DESC)`);
    await q.query(
      `INSERT INTO sys_resource (parent_id, type, code, name, path, sort)
       SELECT id, 'menu', $1, $2, $3, $4 FROM sys_resource WHERE code = 'operation:orderManage'`,
      MENU,
    );
    for (const [code, name, sort] of BUTTONS) {
      await q.query(
        `INSERT INTO sys_resource (parent_id, type, code, name, sort)
         SELECT id, 'button', $2, $3, $4 FROM sys_resource WHERE code = $1`,
        [MENU[0], code, name, sort],
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
    await q.query(`DELETE FROM sys_resource WHERE code = ANY($1::text[]) AND type = 'button'`, [
      BUTTONS.map(([code]) => code),
    ]);
    await q.query(`DELETE FROM sys_resource WHERE code = $1`, [MENU[0]]);
    await q.query(`DROP INDEX charging_order_review_at_idx`);
    await q.query(`ALTER TABLE station_price_plan DROP COLUMN created_by`);
    await q.query(`ALTER TABLE station_price_plan DROP COLUMN created_at`);
    await q.query(`DROP TABLE price_plan_version`);
  }
}
