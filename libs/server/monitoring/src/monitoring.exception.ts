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
