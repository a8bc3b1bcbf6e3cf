import type { Logger } from 'pino';
import type { OcppHandler } from '../../../router/ocpp-handler';
import type { FirmwareProgressItem } from '../firmware-status.repository';

export type FirmwareHandlerDeps = {
  /** Writes the latest status and its event in one transaction (a group commit). */
  progress: { submit(item: FirmwareProgressItem): Promise<void> };
  logger: Logger;
  /** Nudges the outbox relay once the event is committed. */
  afterCommit: () => void;
};

/**
 * DiagnosticsStatusNotification: the progress of a GetDiagnostics upload. The latest status is kept
 * per pile and announced (`diagnostics.status-changed`); the pile is answered once both are committed.
 */
export function diagnosticsStatusNotificationHandler(
  deps: FirmwareHandlerDeps,
): OcppHandler<'DiagnosticsStatusNotification'> {
  return async (req, ctx) => {
    deps.logger.info({ chargePointId: ctx.chargePointId, status: req.status }, 'diagnostics status');
    await deps.progress.submit({
      chargePointId: ctx.chargePointId,
      kind: 'diagnostics',
      status: req.status,
      receivedAt: ctx.receivedAt,
      correlationId: ctx.correlationId,
    });
    deps.afterCommit();
    return {};
  };
}

/** FirmwareStatusNotification: the progress of an UpdateFirmware, kept and announced (`firmware.status-changed`). */
export function firmwareStatusNotificationHandler(
  deps: FirmwareHandlerDeps,
): OcppHandler<'FirmwareStatusNotification'> {
  return async (req, ctx) => {
    deps.logger.info({ chargePointId: ctx.chargePointId, status: req.status }, 'firmware status');
    await deps.progress.submit({
      chargePointId: ctx.chargePointId,
      kind: 'firmware',
      status: req.status,
      receivedAt: ctx.receivedAt,
      correlationId: ctx.correlationId,
    });
    deps.afterCommit();
    return {};
  };
}
