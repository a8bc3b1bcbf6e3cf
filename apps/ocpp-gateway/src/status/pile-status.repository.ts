import type { DataSource, EntityManager } from 'typeorm';
import { addToOutbox, createEnvelope } from '@voltdepot/server-messaging';
import {
  ConnectorStatusChanged,
  PileError,
  type EventEnvelope,
  type PileBootedV1,
} from '@voltdepot/shared-events';
import type { RegistrationStatus, StatusNotificationRequest } from '@voltdepot/shared-ocpp';

/** A pile lifecycle event (connected, disconnected, booted); a boot also records the pile's answer. */
export type PileEventItem = { envelope: EventEnvelope; boot?: PileBootedV1 & { bootedAt: string } };

/** One StatusNotification. */
export type StatusItem = {
  chargePointId: string;
  req: StatusNotificationRequest;
  receivedAt: Date;
  correlationId: string;
};

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

  async recordStatuses(manager: EntityManager, items: StatusItem[]): Promise<void[]> {
    const prepared = items.map(({ chargePointId, req, receivedAt, correlationId }) => {
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
      return { chargePointId, req, timestamp, payload, correlationId };
    });
    // One row per connector and statement: the newest notification of the batch (the later one on a
    // tie, as when applied one after another); the WHERE keeps a newer stored status.
    const latest = new Map<string, (typeof prepared)[number]>();
    for (const item of prepared) {
      const key = `${item.chargePointId}\u0000${item.req.connectorId}`;
      const seen = latest.get(key);
      if (!seen || seen.timestamp <= item.timestamp) latest.set(key, item);
    }
    const rows = [...latest.values()];
    await manager.query(
      `INSERT INTO connector_status (charge_point_id, connector_id, status, error_code, info, vendor_error_code, status_at)
       SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
       ON CONFLICT (charge_point_id, connector_id) DO UPDATE
         SET status = EXCLUDED.status, error_code = EXCLUDED.error_code, info = EXCLUDED.info,
             vendor_error_code = EXCLUDED.vendor_error_code, status_at = EXCLUDED.status_at, updated_at = now()
       WHERE connector_status.status_at <= EXCLUDED.status_at`,
      [
        rows.map((r) => r.chargePointId),
        rows.map((r) => r.req.connectorId),
        rows.map((r) => r.req.status),
        rows.map((r) => r.req.errorCode),
        rows.map((r) => r.req.info ?? null),
        rows.map((r) => r.req.vendorErrorCode ?? null),
        rows.map((r) => r.timestamp),
      ],
    );
    const events: EventEnvelope[] = [];
    for (const { chargePointId, req, timestamp, payload, correlationId } of prepared) {
      const meta = { correlationId, occurredAt: timestamp };
      events.push(createEnvelope(ConnectorStatusChanged, chargePointId, payload, meta));
      if (req.errorCode !== 'NoError') events.push(createEnvelope(PileError, chargePointId, payload, meta));
    }
    await addToOutbox(manager, events);
    return items.map(() => undefined);
  }
}
