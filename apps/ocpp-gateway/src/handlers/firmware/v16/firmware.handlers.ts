import type { Logger } from 'pino';
import type { OcppHandler } from '../../../router/ocpp-handler';

/** Diagnostics and firmware progress are logged for now (no upload/update workflow exists yet). */
export function diagnosticsStatusNotificationHandler(deps: {
  logger: Logger;
}): OcppHandler<'DiagnosticsStatusNotification'> {
  return async (req, ctx) => {
    deps.logger.info({ chargePointId: ctx.chargePointId, status: req.status }, 'diagnostics status');
    return {};
  };
}

export function firmwareStatusNotificationHandler(deps: {
  logger: Logger;
}): OcppHandler<'FirmwareStatusNotification'> {
  return async (req, ctx) => {
    deps.logger.info({ chargePointId: ctx.chargePointId, status: req.status }, 'firmware status');
    return {};
  };
}
