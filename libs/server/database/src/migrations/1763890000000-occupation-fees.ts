import type { MigrationInterface, QueryRunner } from 'typeorm';

const BUTTONS: [parent: string, code: string, name: string, sort: number][] = [
  ['operation:occupationOrder', 'occupation_order:view', 'View occupation fee orders', 1],
  ['operation:reservation', 'reservation:view', 'View reservations', 1],
];
const GRANTED = ['operation:reservation', ...BUTTONS.map(([, code]) => code)];

/**
 * Occupation fees: the occupation consumer's record of stops and of the connector statuses that end an
 * occupation (both kept by the events' own timestamps, so their arrival order does not matter), the
 * occupation fee orders (one per pile transaction, linked to its charging order), and the
 * reservations menu (path: its code with ':' as '/'); the view buttons of both lists granted to
 * administrators and operator staff.
 */
export class OccupationFees1763890000000 implements MigrationInterface {
  name = 'OccupationFees1763890000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE occupation_stop (
        charge_point_id varchar(64) NOT NULL,
        transaction_id  integer     NOT NULL,
        connector_id    integer     NOT NULL,
        stopped_at      timestamptz NOT NULL,
        stop_reason     varchar(32) NOT NULL,
        -- Set once, when the occupation after the stop is known to have ended.
        released_at     timestamptz,
        outcome         varchar(12) CHECK (outcome IN ('charged', 'free', 'disabled', 'noStation')),
        PRIMARY KEY (charge_point_id, transaction_id)
      )`);
    await q.query(
      `CREATE INDEX occupation_stop_open_idx ON occupation_stop (charge_point_id, connector_id, stopped_at)
        WHERE outcome IS NULL`,
    );
    // Connector statuses that end an occupation (Available, Preparing, Charging, ...), by their timestamp.
    await q.query(`
      CREATE TABLE occupation_release (
        charge_point_id varchar(64) NOT NULL,
        connector_id    integer     NOT NULL,
        at              timestamptz NOT NULL,
        status          varchar(16) NOT NULL,
        PRIMARY KEY (charge_point_id, connector_id, at, status)
      )`);
    await q.query(`CREATE INDEX occupation_release_at_idx ON occupation_release (at)`);
    await q.query(`
      CREATE TABLE occupation_order (
        id                 bigserial   PRIMARY KEY,
        order_no           varchar(40) NOT NULL UNIQUE,
        charge_point_id    varchar(64) NOT NULL,
        connector_id       integer     NOT NULL,
        transaction_id     integer     NOT NULL,
        charging_order_no  varchar(40) NOT NULL,
        station_id         integer,
        organization_id    bigint,
        fee_scope          varchar(8)  NOT NULL CHECK (fee_scope IN ('internal', 'external')),
        occupied_from      timestamptz NOT NULL,
        occupied_to        timestamptz NOT NULL,
        free_minutes       integer     NOT NULL,
        interval_minutes   integer     NOT NULL,
        unit_price_fen     integer     NOT NULL,
        capped_amount_fen  integer     NOT NULL,
        billable_intervals integer     NOT NULL,
        amount_fen         bigint      NOT NULL CHECK (amount_fen >= 0),
        pay_status         smallint    NOT NULL DEFAULT 0 CHECK (pay_status IN (0, 1, 3)),
        created_at         timestamptz NOT NULL DEFAULT now(),
        UNIQUE (charge_point_id, transaction_id)
      )`);
    await q.query(`CREATE INDEX occupation_order_from_idx ON occupation_order (occupied_from DESC)`);
    await q.query(
      `CREATE INDEX occupation_order_scope_idx ON occupation_order (organization_id, occupied_from DESC)`,
    );

    await q.query(
      `INSERT INTO sys_resource (parent_id, type, code, name, path, sort)
       SELECT id, 'menu', 'operation:reservation', 'Reservations', '/operation/reservation', 94
         FROM sys_resource WHERE code = 'operation'`,
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
    const codes = BUTTONS.map(([, code]) => code);
    await q.query(`DELETE FROM sys_resource WHERE code = ANY($1::text[])`, [codes]);
    await q.query(`DELETE FROM sys_resource WHERE code = 'operation:reservation'`);
    await q.query(`DROP TABLE occupation_order`);
    await q.query(`DROP TABLE occupation_release`);
    await q.query(`DROP TABLE occupation_stop`);
  }
}
