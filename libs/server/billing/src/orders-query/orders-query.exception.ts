import { assertNever, DomainException } from '@voltdepot/server-core';

export enum OrdersQueryErrorCode {
  NotFound = 'CHARGING_ORDER_NOT_FOUND',
}

export class OrdersQueryException extends DomainException {
  constructor(code: OrdersQueryErrorCode, message: string, details?: unknown) {
    super(code, message, OrdersQueryException.statusOf(code), details);
  }

  static statusOf(code: OrdersQueryErrorCode): number {
    switch (code) {
      case OrdersQueryErrorCode.NotFound:
        return 404;
      default:
        return assertNever(code);
    }
  }
}
