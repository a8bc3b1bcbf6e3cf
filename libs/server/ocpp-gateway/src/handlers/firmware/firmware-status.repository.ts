import type { DataSource, EntityManager } from 'typeorm';
import { addToOutbox, createEnvelope } from '@voltdepot/server-messaging';
import { DiagnosticsStatusChanged, FirmwareStatusChanged } from '@voltdepot/shared-events';

/** Which progress a notification reports: a GetDiagnostics upload or an UpdateFirmware. */
export type FirmwareProgressKind = 'diagnostics' | 'firmware';

/** One DiagnosticsStatusNotification or FirmwareStatusNotification. */
export type FirmwareProgressItem = {
  chargePointId: string;
  kind: FirmwareProgressKind;
  status: string;
  receivedAt: Date;
  correlationId: string;
};

export type FirmwareProgressRecord = { kind: FirmwareProgressKind; status: string; statusAt: string };

/**
 * The latest diagnostics and firmware status of each pile (`ocpp_pile_firmware_status`, one row per
 * pile and kind; an older notification never overwrites a newer one), announced through the outbox in
 * the same transaction so that a GetDiagnostics or UpdateFirmware command can be followed.
 */
export class FirmwareStatusRepository {
  constructor(private readonly dataSource: Pick<DataSource, 'query'>) {}

  /** Set-based, inside the caller's transaction (see GroupCommit). */
  async recordBatch(manager: EntityManager, items: FirmwareProgressItem[]): Promise<void[]> {
    // One row per pile and kind per statement: the last of the batch (a pile's calls come in order).
    const latest = new Map<string, FirmwareProgressItem>();
    for (const item of items) latest.set(`${item.chargePointId}\u0000${item.kind}`, item);
    const rows = [...latest.values()];
    await manager.query(
      `INSERT INTO ocpp_pile_firmware_status (charge_point_id, kind, status, status_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[])
       ON CONFLICT (charge_point_id, kind) DO UPDATE
         SET status = EXCLUDED.status, status_at = EXCLUDED.status_at, updated_at = now()
       WHERE ocpp_pile_firmware_status.status_at <= EXCLUDED.status_at`,
      [
        rows.map((r) => r.chargePointId),
        rows.map((r) => r.kind),
        rows.map((r) => r.status),
        rows.map((r) => r.receivedAt.toISOString()),
      ],
    );
    await addToOutbox(
      manager,
      items.map(({ chargePointId, kind, status, receivedAt, correlationId }) => {
        const timestamp = receivedAt.toISOString();
        const meta = { correlationId, occurredAt: timestamp };
        const payload = { chargePointId, status, timestamp };
        return kind === 'firmware'
          ? createEnvelope(FirmwareStatusChanged, chargePointId, payload, meta)
          : createEnvelope(DiagnosticsStatusChanged, chargePointId, payload, meta);
      }),
    );
    return items.map(() => undefined);
  }

  /** The pile's latest statuses (none before its first notification). */
  async latest(chargePointId: string): Promise<FirmwareProgressRecord[]> {
    const rows: { kind: FirmwareProgressKind; status: string; status_at: Date }[] =
      await this.dataSource.query(
        `SELECT kind, status, status_at FROM ocpp_pile_firmware_status WHERE charge_point_id = $1 ORDER BY kind`,
        [chargePointId],
      );
    return rows.map((r) => ({ kind: r.kind, status: r.status, statusAt: r.status_at.toISOString() }));
  }
}
