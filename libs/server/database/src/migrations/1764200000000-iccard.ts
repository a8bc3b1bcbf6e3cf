import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The IC-card buttons (menus seeded by the identity migration), granted to administrators and operators. */
const BUTTONS: [menu: string, code: string, name: string][] = [
  ['iccard:customer', 'iccard:customer:query', 'Query IC-card companies and customers'],
  ['iccard:customer', 'iccard:customer:edit', 'Add and edit IC-card companies and customers'],
  ['iccard:cardManage', 'iccard:cardManage:query', 'Query IC cards'],
  ['iccard:cardManage', 'iccard:cardManage:add', 'Register IC cards'],
  [
    'iccard:cardManage',
    'iccard:cardManage:operate',
    'Operate IC cards (make, loss, recharge, refund, log out)',
  ],
  ['iccard:recharge', 'iccard:recharge:query', 'Query recharge, refund and consumption records'],
  ['iccard:groupAccount', 'iccard:groupAccount:allocate', 'Allocate and reclaim group balances'],
];
const CODES = BUTTONS.map(([, code]) => code);

/**
 * The IC-card area (issue #25, docs/ic-cards.md): companies, customers, cards and the append-only record
 * of every card action; the ledger publishes the account balances and entries the area shows; the
 * area's buttons.
 */
export class IcCard1764200000000 implements MigrationInterface {
  name = 'IcCard1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ic_company (
        id serial PRIMARY KEY,
        organization_id integer NOT NULL,
        number varchar(32) NOT NULL CONSTRAINT ic_company_number_uq UNIQUE,
        name varchar(100) NOT NULL,
        contacts varchar(50) NOT NULL,
        contact_information varchar(100) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ic_company_organization_idx ON ic_company (organization_id)`);
    await q.query(`
      CREATE TABLE ic_customer (
        id serial PRIMARY KEY,
        organization_id integer NOT NULL,
        client_type smallint NOT NULL CHECK (client_type IN (1, 2, 3)),
        group_id integer REFERENCES ic_customer (id),
        user_name varchar(50) NOT NULL,
        certificate_type varchar(20) NOT NULL,
        certificate_number varchar(32) NOT NULL,
        customer_type varchar(20) NOT NULL,
        phone varchar(20),
        company_id integer REFERENCES ic_company (id),
        gender smallint CHECK (gender IN (0, 1)),
        nation varchar(20),
        address varchar(200),
        identity_verified boolean NOT NULL DEFAULT false,
        ledger_account_id bigint,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        -- A group external card's holder belongs to a group (its account is a sub-account of the group's).
        CONSTRAINT ic_customer_group CHECK ((client_type = 3) = (group_id IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX ic_customer_organization_idx ON ic_customer (organization_id)`);
    await q.query(`CREATE INDEX ic_customer_group_idx ON ic_customer (group_id)`);
    await q.query(`
      CREATE TABLE ic_card (
        id serial PRIMARY KEY,
        card_no varchar(32) NOT NULL CONSTRAINT ic_card_card_no_uq UNIQUE,
        chip varchar(3) NOT NULL CHECK (chip IN ('CPU', 'M1')),
        card_type smallint NOT NULL CHECK (card_type BETWEEN 0 AND 3),
        status varchar(12) NOT NULL DEFAULT 'notMade'
          CHECK (status IN ('notMade', 'normal', 'occupied', 'lost', 'cancelled', 'invalid')),
        customer_id integer NOT NULL REFERENCES ic_customer (id),
        ledger_account_id bigint NOT NULL,
        issued_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ic_card_customer_idx ON ic_card (customer_id)`);
    await q.query(`
      CREATE TABLE ic_card_action (
        id bigserial PRIMARY KEY,
        card_id integer NOT NULL REFERENCES ic_card (id),
        action varchar(20) NOT NULL,
        status_before varchar(12) NOT NULL,
        status_after varchar(12) NOT NULL,
        notes text[] NOT NULL DEFAULT '{}',
        amount_fen bigint,
        ledger_transaction_id bigint,
        operator_id bigint NOT NULL,
        occurred_at timestamptz NOT NULL DEFAULT now(),
        idempotency_key varchar(100) NOT NULL CONSTRAINT ic_card_action_idempotency_key_uq UNIQUE,
        request_hash char(64) NOT NULL
      )`);
    await q.query(`CREATE INDEX ic_card_action_card_idx ON ic_card_action (card_id, id)`);
    await q.query(`
      CREATE FUNCTION ic_card_action_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'ic_card_action is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
      END $$`);
    await q.query(`CREATE TRIGGER ic_card_action_append_only BEFORE UPDATE OR DELETE ON ic_card_action
      FOR EACH ROW EXECUTE FUNCTION ic_card_action_refuse_change()`);

    // What the ledger publishes for the IC-card screens (read only).
    await q.query(`
      CREATE VIEW ledger_account_v AS
        SELECT a.id, a.kind, a.parent_id, a.customer_id, a.name, a.balance_fen, a.frozen,
               COALESCE(-r.balance_fen, 0) AS arrears_fen
          FROM ledger_account a LEFT JOIN ledger_account r ON r.parent_id = a.id AND r.kind = 'arrears'
         WHERE a.kind IN ('personal', 'group', 'group_sub')`);
    await q.query(`
      CREATE VIEW ledger_entry_v AS
        SELECT e.transaction_id, e.account_id, e.amount_fen, e.balance_before_fen, e.balance_after_fen,
               t.kind, t.idempotency_key, t.operator_id, t.occurred_at, t.reference
          FROM ledger_entry e JOIN ledger_transaction t ON t.id = e.transaction_id`);

    await q.query(
      `INSERT INTO sys_resource (parent_id, type, code, name, sort)
       SELECT p.id, 'button', b.code, b.name, b.sort
         FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS b(menu, code, name, sort)
         JOIN sys_resource p ON p.code = b.menu`,
      [BUTTONS.map(([m]) => m), CODES, BUTTONS.map(([, , n]) => n)],
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
    await q.query(`DELETE FROM sys_resource WHERE code = ANY($1::text[])`, [CODES]);
    await q.query(`DROP VIEW ledger_entry_v`);
    await q.query(`DROP VIEW ledger_account_v`);
    await q.query(`DROP TABLE ic_card_action`);
    await q.query(`DROP FUNCTION ic_card_action_refuse_change()`);
    await q.query(`DROP TABLE ic_card`);
    await q.query(`DROP TABLE ic_customer`);
    await q.query(`DROP TABLE ic_company`);
  }
}
