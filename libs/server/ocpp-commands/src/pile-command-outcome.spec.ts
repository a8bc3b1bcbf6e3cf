import { answerOf } from './pile-command-outcome';
import { PileCommandErrorCode, PileCommandException } from './pile-command.exception';
import { journalStatusOf } from './pile-command.repository';
import type { ReplicaCommandOutcome } from './replica-command.sender';

describe('PileCommandException', () => {
  // The codes on the wire (also on the reply channel between replicas) and the status each answers.
  it.each([
    [PileCommandErrorCode.InvalidCommand, 'OCPP_COMMAND_INVALID', 400],
    [PileCommandErrorCode.PileOffline, 'OCPP_PILE_OFFLINE', 409],
    [PileCommandErrorCode.PileNotAccepted, 'OCPP_PILE_NOT_ACCEPTED', 409],
    [PileCommandErrorCode.Timeout, 'OCPP_COMMAND_TIMEOUT', 504],
    [PileCommandErrorCode.PileError, 'OCPP_PILE_CALL_ERROR', 502],
  ])('%s is %s, answered with %i', (code, wire, status) => {
    const error = new PileCommandException(code, 'message');
    expect([error.code, error.httpStatus]).toEqual([wire, status]);
  });

  it('has exactly those codes', () => expect(Object.values(PileCommandErrorCode)).toHaveLength(5));

  it('reads a code from the reply channel; one it does not know is the pile’s error', () => {
    expect(PileCommandException.codeOf('OCPP_COMMAND_TIMEOUT')).toBe(PileCommandErrorCode.Timeout);
    expect(PileCommandException.codeOf('OCPP_SOMETHING_NEWER')).toBe(PileCommandErrorCode.PileError);
  });

  it('keeps its own failures and reports any other as the pile’s error', () => {
    const own = new PileCommandException(PileCommandErrorCode.PileOffline, 'gone');
    expect(PileCommandException.of(own)).toBe(own);
    expect(PileCommandException.of(new Error('socket hang up'))).toMatchObject({
      code: PileCommandErrorCode.PileError,
      message: 'socket hang up',
    });
    expect(PileCommandException.of('odd')).toMatchObject({
      code: PileCommandErrorCode.PileError,
      message: 'odd',
    });
  });
});

describe('journalStatusOf', () => {
  it.each([
    [PileCommandErrorCode.PileOffline, 'offline'],
    [PileCommandErrorCode.Timeout, 'timeout'],
    [PileCommandErrorCode.InvalidCommand, 'failed'],
    [PileCommandErrorCode.PileNotAccepted, 'failed'],
    [PileCommandErrorCode.PileError, 'failed'],
  ])('%s is journalled as %s', (code, status) => expect(journalStatusOf(code)).toBe(status));
});

describe('answerOf (how a command sent through the channel ended)', () => {
  const command = { chargePointId: 'CP-1', action: 'Reset', timeoutMs: 5_000 };
  const failureOf = (outcome: ReplicaCommandOutcome) => {
    try {
      answerOf(outcome, command);
    } catch (error) {
      return error as PileCommandException;
    }
    throw new Error(`${outcome.kind} was answered`);
  };

  it('answered: the pile’s confirmation and the replica that delivered it', () => {
    expect(
      answerOf({ kind: 'answered', replicaId: 'gw-1', response: { status: 'Accepted' } }, command),
    ).toEqual({
      response: { status: 'Accepted' },
      replicaId: 'gw-1',
    });
  });

  it.each<[string, ReplicaCommandOutcome, PileCommandErrorCode, string, unknown]>([
    [
      'failed on the owning replica',
      {
        kind: 'failed',
        replicaId: 'gw-1',
        code: 'OCPP_PILE_CALL_ERROR',
        message: 'pile CP-1 answered Reset with NotImplemented: no',
        details: { errorCode: 'NotImplemented' },
      },
      PileCommandErrorCode.PileError,
      'pile CP-1 answered Reset with NotImplemented: no',
      { errorCode: 'NotImplemented' },
    ],
    [
      'refused by the owning replica',
      { kind: 'failed', replicaId: 'gw-1', code: 'OCPP_PILE_NOT_ACCEPTED', message: 'pile CP-1 is Pending' },
      PileCommandErrorCode.PileNotAccepted,
      'pile CP-1 is Pending',
      undefined,
    ],
    [
      'not connected',
      { kind: 'not-connected' },
      PileCommandErrorCode.PileOffline,
      'pile CP-1 is not connected',
      undefined,
    ],
    [
      'its replica gone',
      { kind: 'replica-gone', replicaId: 'gw-dead' },
      PileCommandErrorCode.PileOffline,
      'pile CP-1: its replica gw-dead is gone',
      undefined,
    ],
    [
      'no answer in time',
      { kind: 'timeout', replicaId: 'gw-1' },
      PileCommandErrorCode.Timeout,
      'pile CP-1 did not answer Reset within 5000 ms',
      undefined,
    ],
  ])('%s: the matching exception', (_what, outcome, code, message, details) => {
    const failure = failureOf(outcome);
    expect(failure).toBeInstanceOf(PileCommandException);
    expect([failure.code, failure.message, failure.details]).toEqual([code, message, details]);
  });
});
