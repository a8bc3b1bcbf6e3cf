import { assertNever, DomainException } from '@voltdepot/server-core';

export enum DiscountPlansErrorCode {
  NotFound = 'DISCOUNT_PLAN_NOT_FOUND',
  DuplicateName = 'DISCOUNT_PLAN_DUPLICATE_NAME',
}

export class DiscountPlansException extends DomainException {
  constructor(code: DiscountPlansErrorCode, message: string, details?: unknown) {
    super(code, message, DiscountPlansException.statusOf(code), details);
  }

  static statusOf(code: DiscountPlansErrorCode): number {
    switch (code) {
      case DiscountPlansErrorCode.NotFound:
        return 404;
      case DiscountPlansErrorCode.DuplicateName:
        return 409;
      default:
        return assertNever(code);
    }
  }
}
