import { assertNever, DomainException } from '@voltdepot/server-core';

export enum LedgerErrorCode {
  AccountNotFound = 'LEDGER_ACCOUNT_NOT_FOUND',
  /** The same idempotency key was used before with a different request. */
  IdempotencyConflict = 'LEDGER_IDEMPOTENCY_CONFLICT',
  InsufficientBalance = 'LEDGER_INSUFFICIENT_BALANCE',
  /** A refund needs a balance above 0. */
  RefundNotAllowed = 'LEDGER_REFUND_NOT_ALLOWED',
  AccountFrozen = 'LEDGER_ACCOUNT_FROZEN',
  /** Entries that do not sum to zero, a zero or fractional amount, an account twice. */
  InvalidPosting = 'LEDGER_INVALID_POSTING',
  /** Allocation between accounts that are not a group and one of its sub-accounts. */
  NotSubAccount = 'LEDGER_NOT_SUB_ACCOUNT',
}

export class LedgerException extends DomainException {
  constructor(code: LedgerErrorCode, message: string, details?: unknown) {
    super(code, message, LedgerException.statusOf(code), details);
  }

  static statusOf(code: LedgerErrorCode): number {
    switch (code) {
      case LedgerErrorCode.AccountNotFound:
        return 404;
      case LedgerErrorCode.IdempotencyConflict:
        return 409;
      case LedgerErrorCode.InsufficientBalance:
      case LedgerErrorCode.RefundNotAllowed:
      case LedgerErrorCode.AccountFrozen:
      case LedgerErrorCode.NotSubAccount:
        return 422;
      case LedgerErrorCode.InvalidPosting:
        return 400;
      default:
        return assertNever(code);
    }
  }
}
