import { assertNever, DomainException } from '@voltdepot/server-core';

export enum OccupationOrdersErrorCode {
  NotFound = 'OCCUPATION_ORDER_NOT_FOUND',
}

export class OccupationOrdersException extends DomainException {
  constructor(code: OccupationOrdersErrorCode, message: string, details?: unknown) {
    super(code, message, OccupationOrdersException.statusOf(code), details);
  }

  static statusOf(code: OccupationOrdersErrorCode): number {
    switch (code) {
      case OccupationOrdersErrorCode.NotFound:
        return 404;
      default:
        return assertNever(code);
    }
  }
}
