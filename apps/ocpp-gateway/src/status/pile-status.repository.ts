import type { DataSource } from 'typeorm';
import { addToOutbox, createEnvelope } from '@voltdepot/server-messaging';
import {
  ConnectorStatusChanged,
  PileBooted,
  PileConnected,
  PileDisconnected,
  PileError,
  type EventEnvelope,
  type PileBootedV1,
  type PileConnectedV1,
  type PileDisconnectedV1,
} from '@voltdepot/shared-events';
import type { StatusNotificationRequest } from '@voltdepot/shared-ocpp';

/**
 * Pile and connector state. The latest connector status is kept in `connector_status` (a late,
 * out-of-order notification does not overwrite a newer one) and every change is announced through
 * the outbox in the same transaction.
 */
export class PileStatusRepository {
  constructor(private readonly dataSource: DataSource) {}

  async connected(payload: PileConnectedV1, correlationId: string): Promise<void> {
    await this.publish(createEnvelope(PileConnected, payload.chargePointId, payload, { correlationId }));
  }

  async disconnected(payload: PileDisconnectedV1, correlationId: string): Promise<void> {
    await this.publish(createEnvelope(PileDisconnected, payload.chargePointId, payload, { correlationId }));
  }

  async booted(payload: PileBootedV1, correlationId: string): Promise<void> {
    await this.publish(createEnvelope(PileBooted, payload.chargePointId, payload, { correlationId }));
  }

  async statusChanged(
    chargePointId: string,
    req: StatusNotificationRequest,
    receivedAt: Date,
    correlationId: string,
  ): Promise<void> {
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
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO connector_status (charge_point_id, connector_id, status, error_code, info, vendor_error_code, status_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (charge_point_id, connector_id) DO UPDATE
           SET status = EXCLUDED.status, error_code = EXCLUDED.error_code, info = EXCLUDED.info,
               vendor_error_code = EXCLUDED.vendor_error_code, status_at = EXCLUDED.status_at, updated_at = now()
         WHERE connector_status.status_at <= EXCLUDED.status_at`,
        [
          chargePointId,
          req.connectorId,
          req.status,
          req.errorCode,
          req.info ?? null,
          req.vendorErrorCode ?? null,
          timestamp,
        ],
      );
      const events: EventEnvelope[] = [
        createEnvelope(ConnectorStatusChanged, chargePointId, payload, {
          correlationId,
          occurredAt: timestamp,
        }),
      ];
      if (req.errorCode !== 'NoError') {
        events.push(
          createEnvelope(PileError, chargePointId, payload, { correlationId, occurredAt: timestamp }),
        );
      }
      await addToOutbox(manager, events);
    });
  }

  private async publish(envelope: EventEnvelope): Promise<void> {
    await addToOutbox(this.dataSource.manager, envelope);
  }
}
