import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The reason sentences settlement wrote on held orders, each as the code that replaces it
 * (`ABNORMAL_REASON_CODES` in libs/shared/contracts). Orders held before decimal registers were accepted
 * for a decimal value get `meterFractional`, or `meterNegative` when one of their readings is negative.
 */
const REASON_CODES: [pattern: string, code: string][] = [
  ['unknown transaction', 'unknownTransaction'],
  ['the start of the transaction did not arrive', 'startMissing'],
  ['stop time is before start time', 'stopBeforeStart'],
  ['implausible meter values', 'meterFlagged'],
  ['meter register decreased', 'meterDecreased'],
  ['energy beyond battery capacity', 'beyondCapacity'],
  ['start and end SOC error', 'socFalling'],
  ['vehicle match failure', 'noVehicle'],
  ['SoC out of range', 'socOutOfRange'],
  ['no price plan in force', 'noPricePlan'],
];
const FRACTIONAL = 'negative or fractional meter value';

/**
 * Issue #23, billing side:
 * - held orders' reasons become codes (the console labels them; nothing parses sentences any more);
 * - order versions: `charging_order.version` (1 as settled) and `charging_order_version`, one row per later
 *   version (a review that bills a held order, an operator's amendment, a lost stop completed by its real
 *   StopTransaction) with the figures before and after, the difference, who and why, and the request key
 *   that makes a retried amendment find the version it made; a lost stop is completed once;
 * - `charging_order.abandon_rule`: the gateway rule that closed a session its pile never stopped;
 * - `billing_repeat_stop`: second StopTransactions of a transaction (the first one is billed), kept once each;
 * - the `charging_order:amend` button, granted to whoever may review held orders.
 */
export class OrderVersions1764130000000 implements MigrationInterface {
  name = 'OrderVersions1764130000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE charging_order
        ADD COLUMN version integer NOT NULL DEFAULT 1,
        ADD COLUMN abandon_rule varchar(16)`);
    await q.query(`
      CREATE TABLE charging_order_version (
        order_id              bigint       NOT NULL REFERENCES charging_order (id) ON DELETE CASCADE,
        version               integer      NOT NULL CHECK (version > 1),
        kind                  varchar(12)  NOT NULL CHECK (kind IN ('approved', 'amended', 'completed')),
        reason                varchar(200) NOT NULL,
        actor_id              bigint,
        actor_name            varchar(64)  NOT NULL,
        request_key           varchar(100) NOT NULL,
        before                jsonb        NOT NULL,
        after                 jsonb        NOT NULL,
        energy_delta_wh       bigint       NOT NULL,
        electricity_delta_fen bigint       NOT NULL,
        service_delta_fen     bigint       NOT NULL,
        total_delta_fen       bigint       NOT NULL,
        created_at            timestamptz  NOT NULL DEFAULT now(),
        PRIMARY KEY (order_id, version),
        CONSTRAINT charging_order_version_request_uq UNIQUE (order_id, request_key)
      )`);
    // A lost stop is completed by its real StopTransaction once, however often that stop is delivered.
    await q.query(
      `CREATE UNIQUE INDEX charging_order_version_completed_uq ON charging_order_version (order_id)
        WHERE kind = 'completed'`,
    );
    await q.query(
      `CREATE INDEX charging_order_version_created_idx ON charging_order_version (created_at DESC)`,
    );
    await q.query(`
      CREATE TABLE billing_repeat_stop (
        charge_point_id     varchar(64) NOT NULL,
        transaction_id      integer     NOT NULL,
        stopped_at          timestamptz NOT NULL,
        meter_stop_wh       bigint      NOT NULL,
        reason              varchar(32) NOT NULL,
        first_stopped_at    timestamptz NOT NULL,
        first_meter_stop_wh bigint      NOT NULL,
        first_reason        varchar(32) NOT NULL,
        disagrees           boolean     NOT NULL,
        received_at         timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (charge_point_id, transaction_id, stopped_at, meter_stop_wh, reason)
      )`);
    await q.query(`CREATE INDEX billing_repeat_stop_received_idx ON billing_repeat_stop (received_at DESC)`);

    // Reasons as codes: each known sentence, then the decimal ones, then anything left is refused.
    for (const [pattern, code] of REASON_CODES) {
      await q.query(
        `UPDATE charging_order
            SET abnormal_reasons = ARRAY(SELECT CASE WHEN strpos(r, $1) > 0 THEN $2 ELSE r END
                                           FROM unnest(abnormal_reasons) WITH ORDINALITY AS u(r, n) ORDER BY n)
          WHERE EXISTS (SELECT 1 FROM unnest(abnormal_reasons) r WHERE strpos(r, $1) > 0)`,
        [pattern, code],
      );
    }
    await q.query(
      `UPDATE charging_order o SET abnormal_reasons = ARRAY(
         SELECT CASE WHEN strpos(r, $1) = 0 THEN r
                     WHEN EXISTS (SELECT 1 FROM billing_reading b
                                   WHERE b.charge_point_id = o.charge_point_id AND b.transaction_id = o.transaction_id
                                     AND b.measurand = 'Energy.Active.Import.Register' AND b.value < 0)
                          OR o.meter_stop_wh < 0 THEN 'meterNegative'
                     ELSE 'meterFractional' END
           FROM unnest(o.abnormal_reasons) WITH ORDINALITY AS u(r, n) ORDER BY n)
        WHERE EXISTS (SELECT 1 FROM unnest(o.abnormal_reasons) r WHERE strpos(r, $1) > 0)`,
      [FRACTIONAL],
    );
    const codes = [...REASON_CODES.map(([, code]) => code), 'meterNegative', 'meterFractional'];
    const unknown: { reason: string }[] = await q.query(
      `SELECT DISTINCT r AS reason FROM charging_order, unnest(abnormal_reasons) r WHERE r <> ALL($1::text[])`,
      [codes],
    );
    if (unknown.length)
      throw new Error(
        `held orders carry reasons no code stands for (settlement never wrote these): ${unknown
          .map((u) => JSON.stringify(u.reason))
          .join(', ')}`,
      );

    await q.query(
      `INSERT INTO sys_resource (parent_id, type, code, name, sort)
       SELECT id, 'button', 'charging_order:amend', 'Amend charging orders', 2
         FROM sys_resource WHERE code = 'operation:orderManage:abnormalOrder'`,
    );
    await q.query(
      `INSERT INTO sys_role_resource (role_id, resource_id)
       SELECT rr.role_id, s.id
         FROM sys_role_resource rr
         JOIN sys_resource held ON held.id = rr.resource_id AND held.code = 'charging_order:review'
         JOIN sys_resource s ON s.code = 'charging_order:amend'
       ON CONFLICT DO NOTHING`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM sys_resource WHERE code = 'charging_order:amend' AND type = 'button'`);
    await q.query(`DROP TABLE billing_repeat_stop`);
    await q.query(`DROP TABLE charging_order_version`);
    await q.query(`ALTER TABLE charging_order DROP COLUMN version, DROP COLUMN abandon_rule`);
    // The codes stay: the sentences they replaced carried figures that are gone.
  }
}
