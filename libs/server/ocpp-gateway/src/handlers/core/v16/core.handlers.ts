import type { Logger } from 'pino';
import type { OcppHandler } from '../../../router/ocpp-handler';
import type { PileRegistryCache } from '../../../connection/pile-registry.cache';
import type { PileStatusWriter } from '../../../status/pile-status.writer';
import type { RegistrationStatus } from '@voltdepot/shared-ocpp';
import type { PileState } from '../../../connection/pile-registry.repository';

export type CoreHandlerDeps = {
  registry: PileRegistryCache;
  status: PileStatusWriter;
  logger: Logger;
  /** Heartbeat interval given to accepted piles (s). */
  heartbeatIntervalS: number;
  /** Retry interval given to pending and rejected piles (s). */
  bootRetryIntervalS: number;
  /** Called after a commit that added outbox rows, so the relay publishes at once. */
  afterCommit: () => void;
  now?: () => Date;
};

const REGISTRATION_BY_STATE: Record<PileState, RegistrationStatus> = {
  active: 'Accepted',
  pending: 'Pending',
  disabled: 'Rejected',
};

/**
 * BootNotification: the registry decides (active -> Accepted, pending -> Pending, disabled -> Rejected).
 * The answer is kept durably: it governs what the pile may send on this and later connections.
 */
export function bootNotificationHandler(deps: CoreHandlerDeps): OcppHandler<'BootNotification'> {
  return async (req, ctx) => {
    const pile = await deps.registry.get(ctx.chargePointId);
    const status = pile ? REGISTRATION_BY_STATE[pile.state] : 'Rejected';
    await deps.status.booted(
      {
        chargePointId: ctx.chargePointId,
        vendor: req.chargePointVendor,
        model: req.chargePointModel,
        ...(req.firmwareVersion !== undefined ? { firmwareVersion: req.firmwareVersion } : {}),
        ...(req.chargePointSerialNumber !== undefined ? { serialNumber: req.chargePointSerialNumber } : {}),
        registrationStatus: status,
      },
      ctx.correlationId,
      ctx.receivedAt,
    );
    // Only now: what the pile may send next depends on this answer (see registration-gate.ts).
    ctx.session.registrationStatus = status;
    ctx.session.lastBoot = status;
    ctx.session.triggered?.clear();
    deps.afterCommit();
    deps.logger.info(
      {
        chargePointId: ctx.chargePointId,
        status,
        vendor: req.chargePointVendor,
        model: req.chargePointModel,
      },
      'pile booted',
    );
    return {
      status,
      currentTime: (deps.now?.() ?? new Date()).toISOString(),
      interval: status === 'Accepted' ? deps.heartbeatIntervalS : deps.bootRetryIntervalS,
    };
  };
}

export function heartbeatHandler(deps: Pick<CoreHandlerDeps, 'now'>): OcppHandler<'Heartbeat'> {
  return async () => ({ currentTime: (deps.now?.() ?? new Date()).toISOString() });
}

/**
 * StatusNotification (connector 0 is the pile itself): latest status kept, ConnectorStatusChanged
 * announced; PileError when the connector's error changes to one, PileErrorCleared when it ends; a
 * connector's first report after a reboot, Available, closes the sessions the pile lost there (see
 * PileStatusRepository.recordStatuses).
 */
export function statusNotificationHandler(
  deps: Pick<CoreHandlerDeps, 'status' | 'afterCommit'> & {
    /** Transactions a notification closed (committed), for the in-memory open transactions. */
    sessionsClosed?: (transactionIds: number[]) => void;
  },
): OcppHandler<'StatusNotification'> {
  return async (req, ctx) => {
    const { closed } = await deps.status.statusChanged(
      ctx.chargePointId,
      req,
      ctx.receivedAt,
      ctx.correlationId,
    );
    if (closed) deps.sessionsClosed?.(closed);
    deps.afterCommit();
    return {};
  };
}

/** DataTransfer: no vendor extensions are implemented yet; the pile is told so (OCPP: UnknownVendorId). */
export function dataTransferHandler(deps: Pick<CoreHandlerDeps, 'logger'>): OcppHandler<'DataTransfer'> {
  return async (req, ctx) => {
    deps.logger.info(
      { chargePointId: ctx.chargePointId, vendorId: req.vendorId, messageId: req.messageId },
      'data transfer from pile',
    );
    return { status: 'UnknownVendorId' };
  };
}
