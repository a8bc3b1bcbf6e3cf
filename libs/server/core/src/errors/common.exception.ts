import { CommonErrorCode, CommonErrorCodes } from '@voltdepot/shared-contracts';
import { assertNever, DomainException } from './domain.exception';

/** The HTTP status for each shared error code; areas map their own codes the same way. */
export function commonErrorStatus(code: CommonErrorCode): number {
  switch (code) {
    case CommonErrorCodes.Validation:
      return 400;
    case CommonErrorCodes.Unauthorized:
      return 401;
    case CommonErrorCodes.Forbidden:
      return 403;
    case CommonErrorCodes.NotFound:
      return 404;
    case CommonErrorCodes.Conflict:
      return 409;
    case CommonErrorCodes.PayloadTooLarge:
      return 413;
    case CommonErrorCodes.BusinessRule:
      return 422;
    case CommonErrorCodes.Internal:
      return 500;
    case CommonErrorCodes.Unavailable:
      return 503;
    default:
      return assertNever(code);
  }
}

/** For errors that belong to no area: `throw new CommonException(CommonErrorCodes.NotFound, 'No such page')`. */
export class CommonException extends DomainException {
  constructor(code: CommonErrorCode, message: string, details?: unknown, options?: { cause?: unknown }) {
    super(code, message, commonErrorStatus(code), details, options);
  }
}
