import { assertNever, DomainException } from '@voltdepot/server-core';

export enum AssetsErrorCode {
  NotFound = 'ASSET_NOT_FOUND',
  ReferenceNotFound = 'ASSET_REFERENCE_NOT_FOUND',
  OutOfDataScope = 'ASSET_OUT_OF_DATA_SCOPE',
  Duplicate = 'ASSET_DUPLICATE',
  InUse = 'ASSET_IN_USE',
  /** The row changed between reading and writing it (a concurrent action). */
  Conflict = 'ASSET_CHANGED',
  RuleViolated = 'ASSET_RULE_VIOLATED',
  UnknownPileNotFound = 'UNKNOWN_PILE_NOT_FOUND',
  PictureRejected = 'STATION_PICTURE_REJECTED',
}

/** Errors of the charging-assets area; the status of each code is chosen here, exhaustively. */
export class AssetsException extends DomainException {
  constructor(code: AssetsErrorCode, message: string, details?: unknown) {
    super(code, message, AssetsException.statusOf(code), details);
  }

  static statusOf(code: AssetsErrorCode): number {
    switch (code) {
      case AssetsErrorCode.NotFound:
      case AssetsErrorCode.ReferenceNotFound:
      case AssetsErrorCode.UnknownPileNotFound:
        return 404;
      case AssetsErrorCode.OutOfDataScope:
        return 403;
      case AssetsErrorCode.Duplicate:
      case AssetsErrorCode.InUse:
      case AssetsErrorCode.Conflict:
        return 409;
      case AssetsErrorCode.RuleViolated:
      case AssetsErrorCode.PictureRejected:
        return 422;
      default:
        return assertNever(code);
    }
  }
}
