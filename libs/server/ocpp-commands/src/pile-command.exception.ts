import { assertNever, DomainException } from '@voltdepot/server-core';

/**
 * Why a command to a pile failed: the codes the gateway answers with (also across replicas, on the reply
 * channel) and every sender reports unchanged.
 */
export enum PileCommandErrorCode {
  InvalidCommand = 'OCPP_COMMAND_INVALID',
  PileOffline = 'OCPP_PILE_OFFLINE',
  /** The pile is connected, but its registration (BootNotification answer) does not allow the command. */
  PileNotAccepted = 'OCPP_PILE_NOT_ACCEPTED',
  Timeout = 'OCPP_COMMAND_TIMEOUT',
  PileError = 'OCPP_PILE_CALL_ERROR',
}

const CODES = new Set<string>(Object.values(PileCommandErrorCode));

/** A command could not be carried out; `details` holds the pile's CallError when there was one. */
export class PileCommandException extends DomainException {
  declare readonly code: PileCommandErrorCode;

  constructor(code: PileCommandErrorCode, message: string, details?: unknown) {
    super(code, message, PileCommandException.statusOf(code), details);
  }

  static statusOf(code: PileCommandErrorCode): number {
    switch (code) {
      case PileCommandErrorCode.InvalidCommand:
        return 400;
      case PileCommandErrorCode.PileOffline:
      case PileCommandErrorCode.PileNotAccepted:
        return 409;
      case PileCommandErrorCode.Timeout:
        return 504;
      case PileCommandErrorCode.PileError:
        return 502;
      default:
        return assertNever(code);
    }
  }

  /** A code read from the reply channel; one this version does not know counts as the pile's error. */
  static codeOf(code: string): PileCommandErrorCode {
    return CODES.has(code) ? (code as PileCommandErrorCode) : PileCommandErrorCode.PileError;
  }

  /** Any failure of a command as the exception to report: ours as it is, anything else as the pile's error. */
  static of(error: unknown): PileCommandException {
    return error instanceof PileCommandException
      ? error
      : new PileCommandException(
          PileCommandErrorCode.PileError,
          error instanceof Error ? error.message : String(error),
        );
  }
}
