import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Prepaid cards blocked by the ledger, at the pile (issue #25, docs/ledger.md "Card authorisation").
 *
 * - The ledger's `ledger_card_authorisation_seq` orders its `ledger.card-authorisation.changed` events
 *   (taken under the card's lock, so per card it rises in commit order).
 * - The gateway's read model of them, `id_tag_ledger_state`: one row per card, the state with the highest
 *   sequence seen; Authorize and StartTransaction answer Blocked for a card blocked there.
 */
export class CardAuthorisation1764190000100 implements MigrationInterface {
  name = 'CardAuthorisation1764190000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE ledger_card_authorisation_seq AS bigint`);
    await q.query(`
      CREATE TABLE id_tag_ledger_state (
        id_tag     text        PRIMARY KEY,
        blocked    boolean     NOT NULL,
        reason     text,
        account_id bigint,
        sequence   bigint      NOT NULL,
        changed_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE id_tag_ledger_state`);
    await q.query(`DROP SEQUENCE ledger_card_authorisation_seq`);
  }
}
