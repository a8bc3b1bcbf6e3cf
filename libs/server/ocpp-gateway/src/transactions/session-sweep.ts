import type { DataSource } from 'typeorm';
import { PreparedStatement } from '@voltdepot/server-database';
import type { AbandonRule } from '@voltdepot/shared-events';
import { abandonedEvents, abandonedHead, CLOSED_ROWS } from './transaction-events';

export type SessionSweepOptions = {
  /** A session whose connector has been Available or Finishing this long (s) since it began is closed. */
  idleGraceS: number;
  /** A session recorded this long ago (s) and still open is closed. */
  maxAgeS: number;
  /** How often the sweep runs by itself (ms); 0: never (runOnce only). */
  everyMs: number;
  /** Most sessions closed per statement; a sweep runs statements until fewer are due. */
  batch?: number;
  /** Sessions this sweep closed (committed, with their events). */
  onClosed?: (closed: ClosedSession[]) => void;
  onError?: (error: unknown) => void;
  now?: () => Date;
};

export type ClosedSession = { transactionId: number; chargePointId: string; rule: AbandonRule };

/**
 * The time-based rules for sessions a pile never stopped: `connectorIdle` (the connector has reported
 * Available or Finishing, since the session was recorded, for longer than the grace) and `maxAge` (the
 * session was recorded longer ago than the maximum age). A session whose connector reports anything else
 * (Charging, or SuspendedEV / SuspendedEVSE at 0 kW for hours) is closed only by its age.
 *
 * Every gateway replica sweeps every `everyMs`: one read of the sessions due (the open transactions, a
 * few thousand at most, each with its connector's row), then one statement that closes them with their
 * TransactionAbandoned events. That statement locks what it closes (FOR UPDATE SKIP LOCKED) and checks
 * each rule again on the locked row, so a session is closed once even when two replicas sweep at the same
 * moment, or a stop or another rule got there between the read and the close; a sweep that finds its
 * rows locked leaves them to the one that holds them.
 */
export class SessionSweep {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: SessionSweepOptions,
  ) {}

  start(): void {
    if (this.options.everyMs <= 0) return;
    this.timer = setInterval(() => {
      this.running ??= this.runOnce()
        .catch((error) => this.options.onError?.(error))
        .finally(() => (this.running = undefined));
    }, this.options.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Close every session due at `now`; resolves with those this call closed. */
  async runOnce(now: Date = this.options.now?.() ?? new Date()): Promise<ClosedSession[]> {
    const closedAt = now.toISOString();
    const batch = this.options.batch ?? 500;
    const limits = [closedAt, this.options.idleGraceS, this.options.maxAgeS];
    const all: ClosedSession[] = [];
    for (;;) {
      const due = await FIND_DUE.run(this.dataSource.manager, [...limits, batch]);
      if (!due.length) break;
      const rows = await CLOSE_DUE.run(this.dataSource.manager, [
        due.map((_, i) => i),
        due.map((d) => d.transaction_id),
        due.map((d) => d.rule),
        ...limits,
        ...SWEPT_EVENTS.values(
          due.map((d, i) => ({
            i,
            key: d.charge_point_id,
            correlationId: `session-sweep:${closedAt}`,
            occurredAt: closedAt,
            payload: abandonedHead(d.charge_point_id, d.connector_id, d.rule, closedAt),
          })),
        ),
      ]);
      const closed = rows.map(({ i }) => ({
        transactionId: due[i].transaction_id,
        chargePointId: due[i].charge_point_id,
        rule: due[i].rule,
      }));
      if (closed.length) this.options.onClosed?.(closed);
      all.push(...closed);
      // Fewer than a batch due, or all of it held by another sweep: nothing more for this one.
      if (due.length < batch || !closed.length) break;
    }
    return all;
  }
}

/**
 * The rules over an open transaction `t` and its connector's row `s` (LEFT JOINed), at the parameter
 * `now`, with the grace and the maximum age (parameters, seconds). Both count from when the gateway
 * recorded the start (`created_at`) and the connector went idle (`idle_since`), the gateway's own clock:
 * a pile's clock may be off, and a start replayed hours late is not old.
 */
const idle = (now: string, graceS: string) => `(s.idle_since IS NOT NULL AND s.idle_since >= t.created_at
      AND s.idle_since <= ${now}::timestamptz - make_interval(secs => ${graceS}::int))`;
const aged = (now: string, maxAgeS: string) =>
  `t.created_at <= ${now}::timestamptz - make_interval(secs => ${maxAgeS}::int)`;

/** The open sessions due at $1 (grace $2, maximum age $3), at most $4, each with the rule that closes it. */
const FIND_DUE = new PreparedStatement<{
  transaction_id: number;
  charge_point_id: string;
  connector_id: number;
  rule: AbandonRule;
}>(
  'ocpp.sessions-due',
  `
  SELECT t.transaction_id, t.charge_point_id, t.connector_id,
         CASE WHEN ${idle('$1', '$2')} THEN 'connectorIdle' ELSE 'maxAge' END AS rule
    FROM ocpp_transaction t
    LEFT JOIN connector_status s ON s.charge_point_id = t.charge_point_id AND s.connector_id = t.connector_id
   WHERE t.stopped_at IS NULL AND (${idle('$1', '$2')} OR ${aged('$1', '$3')})
   ORDER BY t.transaction_id
   LIMIT $4::int`,
);

/** TransactionAbandoned of each session the sweep closes ($7-$10). */
const SWEPT_EVENTS = abandonedEvents(7);

/**
 * Close the sessions $2 by the rules $3 ($1 their indexes) at $4, with the grace $5 and the maximum age
 * $6 (as in FIND_DUE): each locked (skipped when another transaction holds it) and its rule checked again
 * on the locked row, then closed with its TransactionAbandoned event ($7-$10, SWEPT_EVENTS). Returns the
 * indexes closed.
 */
const CLOSE_DUE = new PreparedStatement<{ i: number }>(
  'ocpp.close-due-sessions',
  `
  WITH u AS (
    SELECT * FROM unnest($1::int[], $2::int[], $3::text[]) AS u(i, tx, rule)
  ), due AS (
    SELECT u.i, u.rule, t.transaction_id
      FROM u
      JOIN ocpp_transaction t ON t.transaction_id = u.tx
      LEFT JOIN connector_status s ON s.charge_point_id = t.charge_point_id AND s.connector_id = t.connector_id
     WHERE t.stopped_at IS NULL
       AND CASE u.rule WHEN 'connectorIdle' THEN ${idle('$4', '$5')} ELSE ${aged('$4', '$6')} END
       FOR UPDATE OF t SKIP LOCKED
  ), closed AS (
    UPDATE ocpp_transaction t
       SET stopped_at = $4::timestamptz, abandoned_at = $4::timestamptz, abandon_rule = due.rule
      FROM due
     WHERE t.transaction_id = due.transaction_id
    RETURNING due.i, t.transaction_id, t.id_tag, t.meter_start_wh, t.started_at
  ), ${CLOSED_ROWS}, ${SWEPT_EVENTS.ctes}
  SELECT i FROM closed`,
);
