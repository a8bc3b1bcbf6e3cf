import { assertNever, DomainException } from '@voltdepot/server-core';

export enum CommandErrorCode {
  InvalidCommand = 'OCPP_COMMAND_INVALID',
  PileOffline = 'OCPP_PILE_OFFLINE',
  Timeout = 'OCPP_COMMAND_TIMEOUT',
  PileError = 'OCPP_PILE_CALL_ERROR',
  /** The pile is connected but its registration (BootNotification answer) does not allow the command. */
  PileNotAccepted = 'OCPP_PILE_NOT_ACCEPTED',
}

/** A command could not be carried out; `details` holds the pile's CallError when there was one. */
export class CommandException extends DomainException {
  constructor(code: CommandErrorCode, message: string, details?: unknown) {
    super(code, message, CommandException.statusOf(code), details);
  }

  static statusOf(code: CommandErrorCode): number {
    switch (code) {
      case CommandErrorCode.InvalidCommand:
        return 400;
      case CommandErrorCode.PileOffline:
      case CommandErrorCode.PileNotAccepted:
        return 409;
      case CommandErrorCode.Timeout:
        return 504;
      case CommandErrorCode.PileError:
        return 502;
      default:
        return assertNever(code);
    }
  }
}
