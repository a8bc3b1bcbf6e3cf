import type { MigrationInterface, QueryRunner } from 'typeorm';

const BUTTON = 'iccard:bill:query';

/**
 * IC-card bills (docs/ic-cards.md, Bills): what the ledger publishes for a customer's monthly statement
 * and the button that opens the bills (menu `iccard:bill`, seeded by the identity migration), granted to
 * administrators and operators as the other IC-card buttons.
 *
 * `ledger_statement_entry_v`: every entry on a customer account **and on its arrears account**, under
 * the customer account (`holder_account_id`): a statement shows the customer's net position (balance
 * minus arrears), so a consumption the balance could not cover and the recharge that settles it later
 * read as what they were, not as the part that happened to touch the balance.
 */
export class IcCardBills1764210000100 implements MigrationInterface {
  name = 'IcCardBills1764210000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE VIEW ledger_statement_entry_v AS
        SELECT CASE WHEN a.kind = 'arrears' THEN a.parent_id ELSE a.id END AS holder_account_id,
               e.id AS entry_id, e.transaction_id, e.account_id, e.amount_fen,
               t.kind, t.reference, t.occurred_at
          FROM ledger_entry e
          JOIN ledger_account a ON a.id = e.account_id
          JOIN ledger_transaction t ON t.id = e.transaction_id
         WHERE a.kind IN ('personal', 'group', 'group_sub', 'arrears')`);
    await q.query(
      `INSERT INTO sys_resource (parent_id, type, code, name, sort)
       SELECT p.id, 'button', $1, 'Query IC-card monthly bills', 1 FROM sys_resource p WHERE p.code = 'iccard:bill'
       ON CONFLICT DO NOTHING`,
      [BUTTON],
    );
    await q.query(
      `INSERT INTO sys_role_resource (role_id, resource_id)
       SELECT r.id, s.id FROM sys_role r, sys_resource s
        WHERE r.code IN ('admin', 'operator') AND s.code = $1
       ON CONFLICT DO NOTHING`,
      [BUTTON],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM sys_resource WHERE code = $1`, [BUTTON]);
    await q.query(`DROP VIEW ledger_statement_entry_v`);
  }
}
