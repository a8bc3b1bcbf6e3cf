import { AuthErrorCode, AuthErrorCodes } from '@voltdepot/shared-contracts';
import { assertNever, DomainException } from '../errors/domain.exception';

/** Errors of the auth guard and of sign-in; status chosen by an exhaustive switch. */
export class AuthException extends DomainException {
  constructor(code: AuthErrorCode, message: string, details?: unknown) {
    super(code, message, AuthException.statusOf(code), details);
  }

  static statusOf(code: AuthErrorCode): number {
    switch (code) {
      case AuthErrorCodes.TokenMissing:
      case AuthErrorCodes.TokenInvalid:
      case AuthErrorCodes.TokenExpired:
      case AuthErrorCodes.TokenRevoked:
      case AuthErrorCodes.RefreshInvalid:
      case AuthErrorCodes.RefreshReused:
        return 401;
      case AuthErrorCodes.PermissionDenied:
        return 403;
      case AuthErrorCodes.CaptchaInvalid:
        return 400;
      case AuthErrorCodes.InvalidCredentials:
      case AuthErrorCodes.AccountDisabled:
      case AuthErrorCodes.WrongPassword:
      case AuthErrorCodes.TotpRequired:
      case AuthErrorCodes.TotpInvalid:
      case AuthErrorCodes.TotpState:
      case AuthErrorCodes.TotpEnrolmentRequired:
      case AuthErrorCodes.TotpEnrolmentInvalid:
        return 422;
      case AuthErrorCodes.AccountLocked:
      case AuthErrorCodes.AddressThrottled:
      case AuthErrorCodes.CaptchaThrottled:
        return 429;
      default:
        return assertNever(code);
    }
  }
}
