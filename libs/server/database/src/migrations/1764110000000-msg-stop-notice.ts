import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What msg-center knows of a stopped transaction for its realtime stop notice: the notice pushed when the
 * stop came and the order's amount once it was settled. The two events arrive in either order; whichever
 * is recorded second finds the other in this row and pushes the amount (a row per transaction, kept for
 * a week by msg-center's retention job).
 */
export class MsgStopNotice1764110000000 implements MigrationInterface {
  name = 'MsgStopNotice1764110000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE msg_stop_notice (
        charge_point_id varchar(64) NOT NULL,
        transaction_id bigint NOT NULL,
        notice jsonb,
        order_no varchar(64),
        total_fen bigint,
        order_held boolean,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (charge_point_id, transaction_id)
      )`);
    await q.query(`CREATE INDEX msg_stop_notice_updated_at_idx ON msg_stop_notice (updated_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE msg_stop_notice`);
  }
}
