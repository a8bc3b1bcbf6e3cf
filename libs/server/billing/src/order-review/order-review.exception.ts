import { assertNever, DomainException } from '@voltdepot/server-core';

export enum OrderReviewErrorCode {
  NotFound = 'CHARGING_ORDER_NOT_FOUND',
  NotHeld = 'CHARGING_ORDER_NOT_HELD',
  AlreadyReviewed = 'CHARGING_ORDER_ALREADY_REVIEWED',
  NotBillable = 'CHARGING_ORDER_NOT_BILLABLE',
  /** A billed (flagged) order is not rejected: it is amended. */
  Billed = 'CHARGING_ORDER_BILLED',
  NothingToAmend = 'CHARGING_ORDER_AMENDMENT_EMPTY',
  NotAmendable = 'CHARGING_ORDER_NOT_AMENDABLE',
  /** A request key that made another change of the order. */
  RequestReused = 'CHARGING_ORDER_REQUEST_REUSED',
}

export class OrderReviewException extends DomainException {
  constructor(code: OrderReviewErrorCode, message: string, details?: unknown) {
    super(code, message, OrderReviewException.statusOf(code), details);
  }

  static statusOf(code: OrderReviewErrorCode): number {
    switch (code) {
      case OrderReviewErrorCode.NotFound:
        return 404;
      case OrderReviewErrorCode.NotHeld:
      case OrderReviewErrorCode.AlreadyReviewed:
      case OrderReviewErrorCode.Billed:
      case OrderReviewErrorCode.RequestReused:
        return 409;
      case OrderReviewErrorCode.NotBillable:
      case OrderReviewErrorCode.NothingToAmend:
      case OrderReviewErrorCode.NotAmendable:
        return 422;
      default:
        return assertNever(code);
    }
  }
}
