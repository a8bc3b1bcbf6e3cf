import { assertNever, DomainException } from '@voltdepot/server-core';
import { MsgErrorCode, MsgErrorCodes } from '@voltdepot/shared-contracts';

/** Errors of the message centre; the status of each code is chosen by an exhaustive switch. */
export class MsgException extends DomainException {
  constructor(code: MsgErrorCode, message: string, details?: unknown) {
    super(code, message, MsgException.statusOf(code), details);
  }

  static statusOf(code: MsgErrorCode): number {
    switch (code) {
      case MsgErrorCodes.ConfigNotFound:
      case MsgErrorCodes.TemplateNotFound:
      case MsgErrorCodes.GroupNotFound:
      case MsgErrorCodes.EventNotFound:
      case MsgErrorCodes.AlertNotFound:
        return 404;
      case MsgErrorCodes.ConfigInUse:
      case MsgErrorCodes.ConfigNameTaken:
      case MsgErrorCodes.TemplateNotEditable:
      case MsgErrorCodes.TemplateInUse:
      case MsgErrorCodes.GroupNameTaken:
      case MsgErrorCodes.GroupInUse:
        return 409;
      case MsgErrorCodes.TemplateVariableMissing:
        return 422;
      default:
        return assertNever(code);
    }
  }
}
