import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sessions a pile never stopped, and stops a pile sent twice (issue #23).
 *
 * A transaction the gateway closes by rule (the pile rebooted, a new start on the connector, the connector
 * idle past the grace, the session too old) gets `abandoned_at` and `abandon_rule`, and `stopped_at` the
 * same instant, so that every "open transaction" read (ConcurrentTx, attribution of meter values, the
 * open-transaction indexes) forgets it without a change; `meter_stop_wh` stays NULL until the pile's real
 * StopTransaction, if it ever comes, completes the row. `connector_status.idle_since` is when the connector
 * went Available or Finishing (the gateway's clock), for the idle rule; connectors idle already are taken
 * to have been since their last status. `ocpp_stop_repeat` keeps a StopTransaction that came after the
 * transaction was stopped, once per distinct repeat.
 */
export class OcppAbandonedSessions1764140000000 implements MigrationInterface {
  name = 'OcppAbandonedSessions1764140000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE ocpp_transaction
        ADD COLUMN abandoned_at timestamptz,
        ADD COLUMN abandon_rule text CHECK (abandon_rule IN ('rebooted', 'newStart', 'connectorIdle', 'maxAge')),
        ADD CONSTRAINT ocpp_transaction_abandoned_check CHECK ((abandoned_at IS NULL) = (abandon_rule IS NULL))`);
    await q.query(`ALTER TABLE connector_status ADD COLUMN idle_since timestamptz`);
    await q.query(
      `UPDATE connector_status SET idle_since = updated_at WHERE status IN ('Available', 'Finishing')`,
    );
    await q.query(`
      CREATE TABLE ocpp_stop_repeat (
        id              bigserial   PRIMARY KEY,
        charge_point_id text        NOT NULL,
        transaction_id  integer     NOT NULL REFERENCES ocpp_transaction (transaction_id),
        meter_stop_wh   bigint      NOT NULL,
        stopped_at      timestamptz NOT NULL,
        reason          text        NOT NULL,
        id_tag          text,
        disagrees       boolean     NOT NULL,
        correlation_id  text        NOT NULL,
        payload         jsonb       NOT NULL,
        received_at     timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ocpp_stop_repeat_key UNIQUE (transaction_id, stopped_at, meter_stop_wh, reason)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ocpp_stop_repeat`);
    await q.query(`ALTER TABLE connector_status DROP COLUMN idle_since`);
    await q.query(`
      ALTER TABLE ocpp_transaction
        DROP CONSTRAINT ocpp_transaction_abandoned_check,
        DROP COLUMN abandon_rule,
        DROP COLUMN abandoned_at`);
  }
}
