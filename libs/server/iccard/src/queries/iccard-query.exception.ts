import { assertNever, DomainException } from '@voltdepot/server-core';

export enum IcCardQueryErrorCode {
  /** No group customer (client type 2) of this id in the caller's data scope. */
  GroupNotFound = 'ICCARD_GROUP_NOT_FOUND',
  /** The filters match more rows than one export writes: narrow them. */
  ExportTooLarge = 'ICCARD_EXPORT_TOO_LARGE',
}

export class IcCardQueryException extends DomainException {
  constructor(code: IcCardQueryErrorCode, message: string, details?: unknown) {
    super(code, message, IcCardQueryException.statusOf(code), details);
  }

  static statusOf(code: IcCardQueryErrorCode): number {
    switch (code) {
      case IcCardQueryErrorCode.GroupNotFound:
        return 404;
      case IcCardQueryErrorCode.ExportTooLarge:
        return 422;
      default:
        return assertNever(code);
    }
  }
}
