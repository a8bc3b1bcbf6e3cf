import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ledger (issue #25): accounts, transactions and their entries, double-entry in integer fen, and
 * the link from a charging card (idTag) to the account it draws on. Owned by the ledger area.
 *
 * Guarantees held by the database itself:
 * - entries are append-only: UPDATE, DELETE and TRUNCATE of ledger_transaction and ledger_entry raise;
 * - the entries of a transaction sum to zero: a deferred constraint trigger checks it at commit;
 * - an entry's balance after is its balance before plus its amount;
 * - a customer account (personal, group, group_sub) never has a negative balance, and an arrears account
 *   (the receivable of one customer account) never a positive one;
 * - an idempotency key makes one transaction only.
 * The system accounts (cash, revenue) keep no cached balance: every consumption would otherwise lock the
 * one revenue row (see docs/ledger.md); their balance is the sum of their entries.
 */
export class Ledger1764190000000 implements MigrationInterface {
  name = 'Ledger1764190000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ledger_account (
        id bigserial PRIMARY KEY,
        kind varchar(16) NOT NULL
          CHECK (kind IN ('personal', 'group', 'group_sub', 'arrears', 'cash', 'revenue')),
        parent_id bigint REFERENCES ledger_account (id),
        customer_id bigint,
        company_id bigint,
        name varchar(100) NOT NULL,
        balance_fen bigint NOT NULL DEFAULT 0,
        frozen boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ledger_account_customer_not_negative
          CHECK (kind NOT IN ('personal', 'group', 'group_sub') OR balance_fen >= 0),
        CONSTRAINT ledger_account_arrears_not_positive CHECK (kind <> 'arrears' OR balance_fen <= 0),
        CONSTRAINT ledger_account_parent CHECK (
          (kind IN ('group_sub', 'arrears')) = (parent_id IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX ledger_account_parent_idx ON ledger_account (parent_id)`);
    // One arrears account per customer account; one cash and one revenue account.
    await q.query(
      `CREATE UNIQUE INDEX ledger_account_arrears_uq ON ledger_account (parent_id) WHERE kind = 'arrears'`,
    );
    await q.query(
      `CREATE UNIQUE INDEX ledger_account_system_uq ON ledger_account (kind) WHERE kind IN ('cash', 'revenue')`,
    );
    await q.query(
      `INSERT INTO ledger_account (kind, name) VALUES ('cash', 'Cash received'), ('revenue', 'Charging revenue')`,
    );

    await q.query(`
      CREATE TABLE ledger_transaction (
        id bigserial PRIMARY KEY,
        kind varchar(24) NOT NULL CHECK (kind IN ('recharge', 'refund', 'consumption', 'consumption_amendment',
          'allocation', 'reclaim', 'correction')),
        idempotency_key varchar(200) NOT NULL CONSTRAINT ledger_transaction_idempotency_key_uq UNIQUE,
        request_hash char(64) NOT NULL,
        operator_id bigint,
        occurred_at timestamptz NOT NULL DEFAULT now(),
        reference varchar(200),
        memo varchar(500)
      )`);
    await q.query(`CREATE INDEX ledger_transaction_reference_idx ON ledger_transaction (reference)`);
    await q.query(`
      CREATE TABLE ledger_entry (
        id bigserial PRIMARY KEY,
        transaction_id bigint NOT NULL REFERENCES ledger_transaction (id),
        account_id bigint NOT NULL REFERENCES ledger_account (id),
        amount_fen bigint NOT NULL CHECK (amount_fen <> 0),
        balance_before_fen bigint,
        balance_after_fen bigint,
        CONSTRAINT ledger_entry_balance_chain CHECK (
          (balance_before_fen IS NULL AND balance_after_fen IS NULL)
          OR balance_after_fen = balance_before_fen + amount_fen)
      )`);
    await q.query(`CREATE INDEX ledger_entry_transaction_idx ON ledger_entry (transaction_id)`);
    await q.query(`CREATE INDEX ledger_entry_account_idx ON ledger_entry (account_id, id)`);

    await q.query(`
      CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'restrict_violation';
      END $$`);
    for (const table of ['ledger_transaction', 'ledger_entry']) {
      await q.query(`CREATE TRIGGER ${table}_append_only BEFORE UPDATE OR DELETE ON ${table}
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change()`);
      await q.query(`CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change()`);
    }
    await q.query(`
      CREATE FUNCTION ledger_check_transaction_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE total bigint;
      BEGIN
        SELECT sum(amount_fen) INTO total FROM ledger_entry WHERE transaction_id = NEW.transaction_id;
        IF total <> 0 THEN
          RAISE EXCEPTION 'ledger transaction % does not balance (entries sum to %)', NEW.transaction_id, total
            USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE CONSTRAINT TRIGGER ledger_entry_balanced AFTER INSERT ON ledger_entry
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_transaction_balanced()`);

    await q.query(`
      CREATE TABLE ledger_card_account (
        id_tag varchar(64) PRIMARY KEY,
        account_id bigint NOT NULL REFERENCES ledger_account (id),
        linked_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ledger_card_account_account_idx ON ledger_card_account (account_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ledger_card_account`);
    await q.query(`DROP TABLE ledger_entry`);
    await q.query(`DROP TABLE ledger_transaction`);
    await q.query(`DROP TABLE ledger_account`);
    await q.query(`DROP FUNCTION ledger_check_transaction_balanced()`);
    await q.query(`DROP FUNCTION ledger_refuse_change()`);
  }
}
