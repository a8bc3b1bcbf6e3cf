import { assertNever, DomainException } from '@voltdepot/server-core';

export enum MonitoringErrorCode {
  StationNotFound = 'MONITOR_STATION_NOT_FOUND',
  PileNotFound = 'MONITOR_PILE_NOT_FOUND',
}

/** Errors of live monitoring; a station or pile outside the caller's data scope looks non-existent. */
export class MonitoringException extends DomainException {
  constructor(code: MonitoringErrorCode, message: string, details?: unknown) {
    super(code, message, MonitoringException.statusOf(code), details);
  }

  static statusOf(code: MonitoringErrorCode): number {
    switch (code) {
      case MonitoringErrorCode.StationNotFound:
      case MonitoringErrorCode.PileNotFound:
        return 404;
      default:
        return assertNever(code);
    }
  }
}

/** The codes the OCPP gateway answers a command with; the api forwards them unchanged. */
export enum PileCommandErrorCode {
  InvalidCommand = 'OCPP_COMMAND_INVALID',
  PileOffline = 'OCPP_PILE_OFFLINE',
  /** The pile has not booted, or its BootNotification was not Accepted (Pending allows some commands). */
  PileNotAccepted = 'OCPP_PILE_NOT_ACCEPTED',
  Timeout = 'OCPP_COMMAND_TIMEOUT',
  PileError = 'OCPP_PILE_CALL_ERROR',
}

export class PileCommandException extends DomainException {
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
}
