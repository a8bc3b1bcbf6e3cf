import type { OcppHandler } from '../../../router/ocpp-handler';
import { decideIdTag, type IdTagCache } from '../../../authorization/id-tag.cache';
import type { IdTagRepository } from '../../../authorization/id-tag.repository';
import type { TransactionRepository } from '../../../transactions/transaction.repository';
import type { Logger } from 'pino';

export type TransactionHandlerDeps = {
  transactions: TransactionRepository;
  idTags: IdTagCache;
  idTagRepository: IdTagRepository;
  logger: Logger;
  /** Called after a commit that added outbox rows, so the relay publishes at once. */
  afterCommit: () => void;
};

/**
 * StartTransaction: the pile has already started, so the transaction is always recorded; idTagInfo
 * tells it whether to go on. Answered only once the row and its event are committed. A retry with the
 * same business key returns the first attempt's transactionId and status.
 */
export function startTransactionHandler(deps: TransactionHandlerDeps): OcppHandler<'StartTransaction'> {
  return async (req, ctx) => {
    const existing = await deps.transactions.findByStartKey(ctx.chargePointId, req);
    if (existing)
      return { transactionId: existing.transactionId, idTagInfo: { status: existing.idTagStatus } };
    const idTagInfo = await deps.idTags.authorize(req.idTag, () =>
      deps.idTagRepository.hasOpenTransaction(req.idTag),
    );
    const outcome = await deps.transactions.start(ctx.chargePointId, req, idTagInfo, ctx.correlationId);
    if (outcome.created) deps.afterCommit();
    return {
      transactionId: outcome.transactionId,
      idTagInfo: outcome.created ? idTagInfo : { status: outcome.idTagStatus },
    };
  };
}

export function meterValuesHandler(deps: TransactionHandlerDeps): OcppHandler<'MeterValues'> {
  return async (req, ctx) => {
    const outcome = await deps.transactions.recordMeterValues(ctx.chargePointId, req, ctx.correlationId);
    if (outcome.inserted) deps.afterCommit();
    return {};
  };
}

/** StopTransaction: never answered with an error; unknown transactions go to quarantine. */
export function stopTransactionHandler(deps: TransactionHandlerDeps): OcppHandler<'StopTransaction'> {
  return async (req, ctx) => {
    const { outcome } = await deps.transactions.stop(ctx.chargePointId, req, ctx.correlationId);
    if (outcome === 'stopped' || outcome === 'quarantined') deps.afterCommit();
    if (outcome === 'quarantined') {
      deps.logger.warn(
        { chargePointId: ctx.chargePointId, transactionId: req.transactionId },
        'stop for unknown transaction quarantined',
      );
    }
    if (!req.idTag) return {};
    const record = await deps.idTags.find(req.idTag);
    return { idTagInfo: decideIdTag(record, new Date()) };
  };
}
