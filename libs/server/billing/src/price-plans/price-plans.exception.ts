import { assertNever, DomainException } from '@voltdepot/server-core';

export enum PricePlansErrorCode {
  NotFound = 'PRICE_PLAN_NOT_FOUND',
  StationNotFound = 'PRICE_PLAN_STATION_NOT_FOUND',
  InvalidStages = 'PRICE_PLAN_INVALID_STAGES',
  DuplicateName = 'PRICE_PLAN_DUPLICATE_NAME',
  InUse = 'PRICE_PLAN_IN_USE',
}

export class PricePlansException extends DomainException {
  constructor(code: PricePlansErrorCode, message: string, details?: unknown) {
    super(code, message, PricePlansException.statusOf(code), details);
  }

  static statusOf(code: PricePlansErrorCode): number {
    switch (code) {
      case PricePlansErrorCode.NotFound:
      case PricePlansErrorCode.StationNotFound:
        return 404;
      case PricePlansErrorCode.InvalidStages:
        return 422;
      case PricePlansErrorCode.DuplicateName:
      case PricePlansErrorCode.InUse:
        return 409;
      default:
        return assertNever(code);
    }
  }
}
