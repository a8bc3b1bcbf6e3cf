import { assertNever, DomainException } from '@voltdepot/server-core';

export enum OrdersQueryErrorCode {
  NotFound = 'CHARGING_ORDER_NOT_FOUND',
  NotHeld = 'CHARGING_ORDER_NOT_HELD',
  AlreadyReviewed = 'CHARGING_ORDER_ALREADY_REVIEWED',
  NotBillable = 'CHARGING_ORDER_NOT_BILLABLE',
}

export class OrdersQueryException extends DomainException {
  constructor(code: OrdersQueryErrorCode, message: string, details?: unknown) {
    super(code, message, OrdersQueryException.statusOf(code), details);
  }

  static statusOf(code: OrdersQueryErrorCode): number {
    switch (code) {
      case OrdersQueryErrorCode.NotFound:
        return 404;
      case OrdersQueryErrorCode.NotHeld:
      case OrdersQueryErrorCode.AlreadyReviewed:
        return 409;
      case OrdersQueryErrorCode.NotBillable:
        return 422;
      default:
        return assertNever(code);
    }
  }
}
