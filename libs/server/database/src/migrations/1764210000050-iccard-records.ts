import type { MigrationInterface, QueryRunner } from 'typeorm';

const ACCOUNT_V = `
  SELECT a.id, a.kind, a.parent_id, a.customer_id, a.name, a.balance_fen, a.frozen,
         COALESCE(-r.balance_fen, 0) AS arrears_fen`;
const FROM = `
    FROM ledger_account a LEFT JOIN ledger_account r ON r.parent_id = a.id AND r.kind = 'arrears'
   WHERE a.kind IN ('personal', 'group', 'group_sub')`;

/**
 * The IC-card records (issue #25, docs/ic-cards.md "API"):
 * - the ledger publishes the id of each customer account's arrears account: a consumption the balance
 *   cannot cover, and a recharge that settles arrears, post part of their amount there, so an account's
 *   records and its cumulative consumption and recharges read the entries of both (`ledger_entry_v`).
 *   A column added at the end: the view's readers are unchanged;
 * - a record finds the card action that made it by its ledger transaction.
 */
export class IcCardRecords1764210000050 implements MigrationInterface {
  name = 'IcCardRecords1764210000050';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE OR REPLACE VIEW ledger_account_v AS ${ACCOUNT_V}, r.id AS arrears_account_id ${FROM}`,
    );
    await q.query(
      `CREATE INDEX ic_card_action_ledger_transaction_idx ON ic_card_action (ledger_transaction_id)
        WHERE ledger_transaction_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ic_card_action_ledger_transaction_idx`);
    await q.query(`DROP VIEW ledger_account_v`);
    await q.query(`CREATE VIEW ledger_account_v AS ${ACCOUNT_V} ${FROM}`);
  }
}
