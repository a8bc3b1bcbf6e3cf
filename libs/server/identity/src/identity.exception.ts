import { assertNever, DomainException } from '@voltdepot/server-core';
import { IdentityErrorCode, IdentityErrorCodes as C } from '@voltdepot/shared-contracts';

/** Errors of the administration area; the status of each code is chosen here, exhaustively. */
export class IdentityException extends DomainException {
  constructor(code: IdentityErrorCode, message: string, details?: unknown) {
    super(code, message, IdentityException.statusOf(code), details);
  }

  static statusOf(code: IdentityErrorCode): number {
    switch (code) {
      case C.UserNotFound:
      case C.RoleNotFound:
      case C.OrganizationNotFound:
      case C.ResourceNotFound:
      case C.DictNotFound:
      case C.ConfigNotFound:
      case C.FavoriteNotFound:
        return 404;
      case C.UsernameTaken:
      case C.RoleCodeTaken:
      case C.RoleInUse:
      case C.OrganizationCodeTaken:
      case C.OrganizationNotEmpty:
      case C.ResourceCodeTaken:
      case C.ResourceHasChildren:
      case C.DictCodeTaken:
      case C.DictHasChildren:
      case C.ConfigKeyTaken:
      case C.FavoriteExists:
        return 409;
      case C.OutOfDataScope:
        return 403;
      case C.CannotModifySelf:
      case C.RoleBuiltin:
      case C.OrganizationCycle:
      case C.ResourceCycle:
      case C.ResourceBadParent:
      case C.DictBadParent:
      case C.ConfigBuiltin:
      case C.ConfigValueInvalid:
        return 422;
      default:
        return assertNever(code);
    }
  }
}
