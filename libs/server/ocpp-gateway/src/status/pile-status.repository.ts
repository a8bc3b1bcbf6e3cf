import type { DataSource, EntityManager } from 'typeorm';
import { addToOutbox, createEnvelope } from '@voltdepot/server-messaging';
import {
  ConnectorStatusChanged,
  PileError,
  PileErrorCleared,
  type EventEnvelope,
  type PileAlarmV1,
  type PileBootedV1,
  type PileErrorClearedV1,
  type PileErrorV1,
} from '@voltdepot/shared-events';
import type { RegistrationStatus, StatusNotificationRequest } from '@voltdepot/shared-ocpp';
import { abandonedEvents, abandonedHead, CLOSED_ROWS } from '../transactions/transaction-events';

/** A pile lifecycle event (connected, disconnected, booted); a boot also records the pile's answer. */
export type PileEventItem = { envelope: EventEnvelope; boot?: PileBootedV1 & { bootedAt: string } };

/** One StatusNotification. */
export type StatusItem = {
  chargePointId: string;
  req: StatusNotificationRequest;
  receivedAt: Date;
  correlationId: string;
};

/** What a StatusNotification came to besides the status: the transactions it closed (rule rebooted). */
export type StatusOutcome = { closed?: number[] };

/** A connector showing no session: its idle time counts for the idle rule (see the session sweep). */
const IDLE_STATUSES = new Set(['Available', 'Finishing']);

/**
 * Pile and connector state. The latest connector status is kept in `connector_status` (a late,
 * out-of-order notification does not overwrite a newer one), the answer to the pile's last
 * BootNotification in `ocpp_pile_boot` (a pile that reconnects without rebooting keeps it), and every
 * change is announced through the outbox in the same transaction. The write methods take many items at
 * once (set-based statements) and run inside the caller's transaction (see GroupCommit).
 */
export class PileStatusRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The registration status the pile was given at its last BootNotification, if it ever booted. */
  async lastRegistration(chargePointId: string): Promise<RegistrationStatus | undefined> {
    const rows: { registration_status: RegistrationStatus }[] = await this.dataSource.query(
      'SELECT registration_status FROM ocpp_pile_boot WHERE charge_point_id = $1',
      [chargePointId],
    );
    return rows[0]?.registration_status;
  }

  async recordEvents(manager: EntityManager, items: PileEventItem[]): Promise<void[]> {
    // One row per pile: the last boot in the batch wins (a pile's calls are handled in order).
    const boots = new Map<string, NonNullable<PileEventItem['boot']>>();
    for (const { boot } of items) if (boot) boots.set(boot.chargePointId, boot);
    if (boots.size) {
      const list = [...boots.values()];
      await manager.query(
        `INSERT INTO ocpp_pile_boot (charge_point_id, registration_status, vendor, model, firmware_version, serial_number, booted_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
         ON CONFLICT (charge_point_id) DO UPDATE
           SET registration_status = EXCLUDED.registration_status, vendor = EXCLUDED.vendor, model = EXCLUDED.model,
               firmware_version = EXCLUDED.firmware_version, serial_number = EXCLUDED.serial_number,
               booted_at = EXCLUDED.booted_at`,
        [
          list.map((b) => b.chargePointId),
          list.map((b) => b.registrationStatus),
          list.map((b) => b.vendor),
          list.map((b) => b.model),
          list.map((b) => b.firmwareVersion ?? null),
          list.map((b) => b.serialNumber ?? null),
          list.map((b) => b.bootedAt),
        ],
      );
    }
    await addToOutbox(
      manager,
      items.map((item) => item.envelope),
    );
    return items.map(() => undefined);
  }

  /**
   * Record StatusNotifications: the latest status per connector, ConnectorStatusChanged for every
   * notification, and the alarm flow. A PileError is raised once, when a connector's error (errorCode
   * with vendorErrorCode) changes to something other than NoError, and PileErrorCleared announces its
   * end (NoError, or a different error) with the time it began; repeats of the same error, as a pile
   * sends after every reconnect, raise nothing. The comparison is with the stored row, locked in this
   * transaction, so two batches (or replicas) writing the same connector cannot both raise its error.
   *
   * Sessions the pile lost: a connector's first report after the pile's last BootNotification, when it is
   * Available, closes the transactions on that connector recorded before that boot (rule rebooted, each
   * with its TransactionAbandoned event), in the statement that stores the status. The time a connector
   * went Available or Finishing (`idle_since`, the gateway's clock) is kept for the idle rule.
   */
  async recordStatuses(manager: EntityManager, items: StatusItem[]): Promise<StatusOutcome[]> {
    const prepared = items.map(({ chargePointId, req, receivedAt, correlationId }, index) => {
      const timestamp = new Date(req.timestamp ?? receivedAt).toISOString();
      const payload = {
        chargePointId,
        connectorId: req.connectorId,
        status: req.status,
        errorCode: req.errorCode,
        timestamp,
        ...(req.info !== undefined ? { info: req.info } : {}),
        ...(req.vendorErrorCode !== undefined ? { vendorErrorCode: req.vendorErrorCode } : {}),
      };
      return { index, chargePointId, req, timestamp, payload, correlationId, receivedAt };
    });
    type Prepared = (typeof prepared)[number];
    const byConnector = new Map<string, Prepared[]>();
    for (const item of prepared) {
      const key = connectorKey(item.chargePointId, item.req.connectorId);
      byConnector.set(key, [...(byConnector.get(key) ?? []), item]);
    }
    // Sorted, so that two transactions lock the same connectors in the same order (no deadlock).
    const keys = [...byConnector.entries()]
      .map(([key, list]) => ({
        key,
        chargePointId: list[0].chargePointId,
        connectorId: list[0].req.connectorId,
      }))
      .sort((a, b) => compare(a.chargePointId, b.chargePointId) || a.connectorId - b.connectorId);
    const keyParams = [keys.map((k) => k.chargePointId), keys.map((k) => k.connectorId)];
    // A connector seen for the first time gets a placeholder row (overwritten below, before the commit,
    // so never visible to others): then every connector of the batch has a row to lock, and a second
    // transaction inserting the same one waits for this one instead of also taking it for new.
    await manager.query(
      `INSERT INTO connector_status (charge_point_id, connector_id, status, error_code, status_at)
       SELECT cp, connector, '', 'NoError', '-infinity' FROM unnest($1::text[], $2::int[]) AS u(cp, connector)
       ON CONFLICT (charge_point_id, connector_id) DO NOTHING`,
      keyParams,
    );
    const storedRows: {
      charge_point_id: string;
      connector_id: number;
      error_code: string;
      vendor_error_code: string | null;
      status_at: string | null;
      error_since: Date | null;
      idle_since: Date | null;
      updated_at: Date;
      booted_at: Date | null;
    }[] = await manager.query(
      `SELECT s.charge_point_id, s.connector_id, s.error_code, s.vendor_error_code, s.error_since,
              CASE WHEN s.status_at = '-infinity' THEN NULL ELSE to_char(s.status_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END AS status_at,
              s.idle_since, s.updated_at, b.booted_at
         FROM connector_status s JOIN unnest($1::text[], $2::int[]) AS u(cp, connector)
           ON s.charge_point_id = u.cp AND s.connector_id = u.connector
         LEFT JOIN ocpp_pile_boot b ON b.charge_point_id = s.charge_point_id
        ORDER BY s.charge_point_id, s.connector_id
        FOR UPDATE OF s`,
      keyParams,
    );
    const stored = new Map(
      storedRows.map((row) => [connectorKey(row.charge_point_id, row.connector_id), row]),
    );

    // Per connector, the notifications in time order (arrival order on a tie) from the stored state;
    // one older than the stored status is late and changes neither the row nor the alarm state.
    const raised = new Map<number, PileErrorV1>();
    const cleared = new Map<number, PileErrorClearedV1>();
    const writes: {
      item: Prepared;
      errorSince: string | null;
      idleSince: string | null;
      /** The pile's last boot, when this is the connector's first report since and says Available. */
      closeBootedBefore: Date | null;
    }[] = [];
    for (const [key, list] of byConnector) {
      const row = stored.get(key);
      let error: ErrorState | undefined =
        row && row.error_code !== 'NoError'
          ? {
              errorCode: row.error_code,
              vendorErrorCode: row.vendor_error_code ?? undefined,
              since: new Date(row.error_since ?? row.status_at ?? 0).toISOString(),
            }
          : undefined;
      let last: Prepared | undefined;
      let idleSince = row?.idle_since ? new Date(row.idle_since).toISOString() : null;
      // Its first report since the pile's last boot comes in this batch (the placeholder: never reported).
      const bootedAt = row?.booted_at ?? null;
      let firstSinceBoot = bootedAt !== null && (row!.status_at === null || row!.updated_at < bootedAt);
      let closeBootedBefore: Date | null = null;
      const ordered = [...list].sort((a, b) => compare(a.timestamp, b.timestamp) || a.index - b.index);
      for (const item of ordered) {
        if (row?.status_at && item.timestamp < row.status_at) continue;
        last = item;
        if (firstSinceBoot && item.req.status === 'Available') closeBootedBefore = bootedAt;
        firstSinceBoot = false;
        idleSince = IDLE_STATUSES.has(item.req.status) ? (idleSince ?? item.receivedAt.toISOString()) : null;
        const { errorCode, vendorErrorCode } = item.req;
        const isError = errorCode !== 'NoError';
        if (error && isError && error.errorCode === errorCode && error.vendorErrorCode === vendorErrorCode)
          continue; // the same error again
        if (error)
          cleared.set(item.index, {
            chargePointId: item.chargePointId,
            connectorId: item.req.connectorId,
            errorCode: error.errorCode,
            ...(error.vendorErrorCode !== undefined ? { vendorErrorCode: error.vendorErrorCode } : {}),
            since: error.since,
            clearedAt: item.timestamp,
            status: item.req.status,
            currentErrorCode: errorCode,
          });
        error = isError ? { errorCode, vendorErrorCode, since: item.timestamp } : undefined;
        if (isError) raised.set(item.index, { ...item.payload });
      }
      if (last) writes.push({ item: last, errorSince: error?.since ?? null, idleSince, closeBootedBefore });
    }

    const outcomes: StatusOutcome[] = items.map(() => ({}));
    if (writes.length) {
      const closedAt = new Date().toISOString();
      const closing = writes.flatMap((w, i) => (w.closeBootedBefore ? [{ w, i }] : []));
      const closed: { i: number; transaction_id: number }[] = await manager.query(STORE_STATUSES, [
        writes.map((_, i) => i),
        writes.map((w) => w.item.chargePointId),
        writes.map((w) => w.item.req.connectorId),
        writes.map((w) => w.item.req.status),
        writes.map((w) => w.item.req.errorCode),
        writes.map((w) => w.item.req.info ?? null),
        writes.map((w) => w.item.req.vendorErrorCode ?? null),
        writes.map((w) => w.item.timestamp),
        writes.map((w) => w.errorSince),
        writes.map((w) => w.idleSince),
        writes.map((w) => w.closeBootedBefore),
        closedAt,
        ...REBOOTED_EVENTS.values(
          closing.map(({ w, i }) => ({
            i,
            key: w.item.chargePointId,
            correlationId: w.item.correlationId,
            occurredAt: closedAt,
            payload: abandonedHead(w.item.chargePointId, w.item.req.connectorId, 'rebooted', closedAt),
          })),
        ),
      ]);
      for (const row of closed) (outcomes[writes[row.i].item.index].closed ??= []).push(row.transaction_id);
    }
    await this.attachAlarms(manager, [...raised.values(), ...cleared.values()]);

    const events: EventEnvelope[] = [];
    for (const { index, chargePointId, timestamp, payload, correlationId } of prepared) {
      const meta = { correlationId, occurredAt: timestamp };
      events.push(createEnvelope(ConnectorStatusChanged, chargePointId, payload, meta));
      const end = cleared.get(index);
      if (end) events.push(createEnvelope(PileErrorCleared, chargePointId, end, meta));
      const start = raised.get(index);
      if (start) events.push(createEnvelope(PileError, chargePointId, start, meta));
    }
    await addToOutbox(manager, events);
    return outcomes;
  }

  /**
   * The alarm-code registry's entry for each error (the assets area's alarm codes of the pile's protocol:
   * the pile's protocol version, OCPP 1.6J for a pile not described there; both read through the views
   * the assets area publishes), matched on the
   * vendorErrorCode first, then on the errorCode; none matched, no `alarm`.
   */
  private async attachAlarms(
    manager: EntityManager,
    errors: { chargePointId: string; errorCode: string; vendorErrorCode?: string; alarm?: PileAlarmV1 }[],
  ): Promise<void> {
    if (!errors.length) return;
    const rows: {
      i: number;
      code: string;
      name: string;
      level: number;
      category: string;
      description: string | null;
    }[] = await manager.query(
      `SELECT u.i, a.code, a.name, a.level, a.category, a.description
         FROM unnest($1::int[], $2::text[], $3::text[], $4::text[]) AS u(i, cp, error_code, vendor_error_code)
         LEFT JOIN assets_pile_v p ON p.charge_point_id = u.cp
         CROSS JOIN LATERAL (
           SELECT a.code, a.name, a.level, a.category, a.description FROM assets_alarm_code_v a
            WHERE a.protocol_type = coalesce(p.protocol_version, $5) AND a.code IN (u.vendor_error_code, u.error_code)
            ORDER BY a.code = u.vendor_error_code DESC NULLS LAST LIMIT 1) a`,
      [
        errors.map((_, i) => i),
        errors.map((e) => e.chargePointId),
        errors.map((e) => e.errorCode),
        errors.map((e) => e.vendorErrorCode ?? null),
        OCPP_PROTOCOL,
      ],
    );
    for (const row of rows)
      errors[row.i].alarm = {
        code: row.code,
        name: row.name,
        level: row.level,
        category: row.category,
        ...(row.description ? { description: row.description } : {}),
      };
  }
}

/** TransactionAbandoned of each transaction a pile's report after its boot closes ($13-$16). */
const REBOOTED_EVENTS = abandonedEvents(13, { perCall: 'many' });

/**
 * Store the latest status of each connector ($1-$11: the write's index, pile, connector, status, error
 * code, info, vendor error code, status time, error since, idle since, and the pile's boot when this is
 * the connector's first report since and it is Available), and close the transactions of those connectors
 * recorded before that boot, at $12 (rule rebooted), each with its TransactionAbandoned event
 * ($13-$16, REBOOTED_EVENTS). Returns the transactions closed, with the write's index.
 */
const STORE_STATUSES = `
  WITH u AS (
    SELECT * FROM unnest($1::int[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[],
                         $8::timestamptz[], $9::timestamptz[], $10::timestamptz[], $11::timestamptz[])
      AS u(i, cp, connector, status, error_code, info, vendor_error_code, status_at, error_since, idle_since, booted_at)
  ), updated AS (
    UPDATE connector_status s
       SET status = u.status, error_code = u.error_code, info = u.info, vendor_error_code = u.vendor_error_code,
           status_at = u.status_at, error_since = u.error_since, idle_since = u.idle_since, updated_at = now()
      FROM u
     WHERE s.charge_point_id = u.cp AND s.connector_id = u.connector
  ), closed AS (
    UPDATE ocpp_transaction t
       SET stopped_at = $12::timestamptz, abandoned_at = $12::timestamptz, abandon_rule = 'rebooted'
      FROM u
     WHERE u.booted_at IS NOT NULL AND t.charge_point_id = u.cp AND t.connector_id = u.connector
       AND t.stopped_at IS NULL AND t.created_at < u.booted_at
    RETURNING u.i, t.transaction_id, t.id_tag, t.meter_start_wh, t.started_at
  ), ${CLOSED_ROWS}, ${REBOOTED_EVENTS.ctes}
  SELECT i, transaction_id FROM closed`;

/** The protocol type (the `protocol_type` dictionary's value) of piles this gateway speaks to. */
const OCPP_PROTOCOL = 'ocpp1.6';

type ErrorState = { errorCode: string; vendorErrorCode: string | undefined; since: string };

const connectorKey = (chargePointId: string, connectorId: number) => `${chargePointId}\u0000${connectorId}`;
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
