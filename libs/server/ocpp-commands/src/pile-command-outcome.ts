import { assertNever } from '@voltdepot/server-core';
import { PileCommandErrorCode, PileCommandException } from './pile-command.exception';
import type { ReplicaCommand, ReplicaCommandOutcome } from './replica-command.sender';

/** The pile's answer to a command, and the replica that delivered it. */
export type PileCommandAnswer = { response: unknown; replicaId: string };

/**
 * How a command sent through the command channel ended, as its sender reports it: the pile's answer, or
 * the PileCommandException for the failure (thrown).
 */
export function answerOf(
  outcome: ReplicaCommandOutcome,
  command: Pick<ReplicaCommand, 'chargePointId' | 'action' | 'timeoutMs'>,
): PileCommandAnswer {
  const { chargePointId, action, timeoutMs } = command;
  switch (outcome.kind) {
    case 'answered':
      return { response: outcome.response, replicaId: outcome.replicaId };
    case 'failed':
      throw new PileCommandException(
        PileCommandException.codeOf(outcome.code),
        outcome.message,
        outcome.details,
      );
    case 'not-connected':
      throw notConnected(chargePointId);
    case 'replica-gone':
      throw new PileCommandException(
        PileCommandErrorCode.PileOffline,
        `pile ${chargePointId}: its replica ${outcome.replicaId} is gone`,
      );
    case 'timeout':
      throw noAnswer(chargePointId, action, timeoutMs);
    default:
      return assertNever(outcome);
  }
}

/** The pile has no connection anywhere (or lost it while the command waited). */
export function notConnected(chargePointId: string): PileCommandException {
  return new PileCommandException(PileCommandErrorCode.PileOffline, `pile ${chargePointId} is not connected`);
}

/** The pile did not answer within the time it was given. */
export function noAnswer(chargePointId: string, action: string, timeoutMs: number): PileCommandException {
  return new PileCommandException(
    PileCommandErrorCode.Timeout,
    `pile ${chargePointId} did not answer ${action} within ${timeoutMs} ms`,
  );
}
