import type { Logger } from 'pino';
import { createRPCError } from 'ocpp-rpc';
import type { OcppHandler } from '../../../router/ocpp-handler';
import { decideIdTag, type IdTagCache } from '../../../authorization/id-tag.cache';
import type { MeterOutcome, MeterValuesItem } from '../../../transactions/meter-values.writer';
import type { StartItem, StartOutcome } from '../../../transactions/start-transaction.writer';
import type { StopItem, StopOutcome } from '../../../transactions/stop-transaction.writer';

/** Something that writes an item durably and resolves once it is committed (see GroupCommit). */
type Writer<I, R> = { submit(item: I): Promise<R> };

export type TransactionHandlerDeps = {
  starts: Writer<StartItem, StartOutcome>;
  stops: Writer<StopItem, StopOutcome>;
  meterValues: Writer<MeterValuesItem, MeterOutcome>;
  idTags: IdTagCache;
  logger: Logger;
  /** Called after a commit that added outbox rows, so the relay publishes at once. */
  afterCommit: () => void;
};

/*
 * Transaction messages are acknowledged only once their rows and events are committed. Calls arriving
 * within a few milliseconds share one database transaction (group commit), each type with its own
 * connections, so a stream of meter values never holds up a start or a stop. A retried call finds
 * the rows its first attempt made and has no second effect.
 */

/**
 * StartTransaction: the pile has already started, so the transaction is always recorded; idTagInfo
 * tells it whether to go on. A retry with the same business key returns the first attempt's
 * transactionId and status.
 */
export function startTransactionHandler(deps: TransactionHandlerDeps): OcppHandler<'StartTransaction'> {
  return async (req, ctx) => {
    // The schema allows any integer; a transaction runs on a real connector (0 is the pile itself).
    if (req.connectorId < 1)
      throw createRPCError('PropertyConstraintViolation', 'connectorId must be 1 or more', {});
    const tagInfo = decideIdTag(await deps.idTags.find(req.idTag), new Date());
    const outcome = await deps.starts.submit({
      chargePointId: ctx.chargePointId,
      req,
      correlationId: ctx.correlationId,
      tagInfo,
    });
    if (outcome.created) deps.afterCommit();
    return { transactionId: outcome.transactionId, idTagInfo: outcome.idTagInfo };
  };
}

export function meterValuesHandler(deps: TransactionHandlerDeps): OcppHandler<'MeterValues'> {
  return async (req, ctx) => {
    const outcome = await deps.meterValues.submit({
      chargePointId: ctx.chargePointId,
      req,
      correlationId: ctx.correlationId,
    });
    if (outcome.inserted) deps.afterCommit();
    return {};
  };
}

/**
 * StopTransaction: never answered with an error; unknown transactions go to quarantine, a repeated stop
 * of a stopped transaction is recorded and answered as the first was.
 */
export function stopTransactionHandler(deps: TransactionHandlerDeps): OcppHandler<'StopTransaction'> {
  return async (req, ctx) => {
    const { outcome } = await deps.stops.submit({
      chargePointId: ctx.chargePointId,
      req,
      correlationId: ctx.correlationId,
    });
    if (outcome === 'stopped' || outcome === 'quarantined' || outcome === 'repeated') deps.afterCommit();
    if (outcome === 'quarantined') {
      deps.logger.warn(
        { chargePointId: ctx.chargePointId, transactionId: req.transactionId },
        'stop for unknown transaction quarantined',
      );
    }
    if (outcome === 'repeated') {
      deps.logger.warn(
        { chargePointId: ctx.chargePointId, transactionId: req.transactionId, meterStop: req.meterStop },
        'repeated stop of a stopped transaction recorded; the first stop stands',
      );
    }
    if (!req.idTag) return {};
    const record = await deps.idTags.find(req.idTag);
    return { idTagInfo: decideIdTag(record, new Date()) };
  };
}
