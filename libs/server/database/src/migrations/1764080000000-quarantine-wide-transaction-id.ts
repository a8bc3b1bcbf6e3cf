import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A pile that lost its state may stop a transaction id we never gave, beyond 32 bits. Such a stop is
 * accepted and quarantined for reconciliation like any unknown one, never refused (an error makes piles
 * discard billing data): the quarantine keeps the claimed id in 64 bits.
 */
export class QuarantineWideTransactionId1764080000000 implements MigrationInterface {
  name = 'QuarantineWideTransactionId1764080000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ocpp_stop_quarantine ALTER COLUMN transaction_id TYPE bigint`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DELETE FROM ocpp_stop_quarantine WHERE transaction_id NOT BETWEEN -2147483648 AND 2147483647`,
    );
    await q.query(`ALTER TABLE ocpp_stop_quarantine ALTER COLUMN transaction_id TYPE integer`);
  }
}
