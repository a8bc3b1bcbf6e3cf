import { assertNever, DomainException } from '@voltdepot/server-core';
import type { IcCardMessageCode } from '@voltdepot/shared-contracts';

export enum IcCardErrorCode {
  CompanyNotFound = 'ICCARD_COMPANY_NOT_FOUND',
  CustomerNotFound = 'ICCARD_CUSTOMER_NOT_FOUND',
  CardNotFound = 'ICCARD_CARD_NOT_FOUND',
  /** Company number already used. */
  CompanyNumberRepeated = 'ICCARD_COMPANY_NUMBER_REPEATED',
  /** Card self number already used (§5 `selfNumberRepeated`). */
  CardNumberRepeated = 'ICCARD_CARD_NUMBER_REPEATED',
  /** The organisation does not exist or lies outside the caller's data scope. */
  OrganizationNotVisible = 'ICCARD_ORGANIZATION_NOT_VISIBLE',
  /** A customer's client type or group cannot change once its account is opened. */
  ClientTypeFixed = 'ICCARD_CLIENT_TYPE_FIXED',
  /** A group external card's group is not a group customer; an allocation to another group's user. */
  NotGroupMember = 'ICCARD_NOT_GROUP_MEMBER',
  /** The card state machine or a money rule refused the action: `details.messageCode` says why. */
  ActionRefused = 'ICCARD_ACTION_REFUSED',
  /** The request id was used before for another request. */
  IdempotencyConflict = 'ICCARD_IDEMPOTENCY_CONFLICT',
}

export class IcCardException extends DomainException {
  constructor(code: IcCardErrorCode, message: string, details?: unknown) {
    super(code, message, IcCardException.statusOf(code), details);
  }

  /** A refusal with the area's message code (labels in both languages: IC_CARD_MESSAGE_LABELS). */
  static refused(messageCode: IcCardMessageCode, message: string): IcCardException {
    return new IcCardException(IcCardErrorCode.ActionRefused, message, { messageCode });
  }

  static statusOf(code: IcCardErrorCode): number {
    switch (code) {
      case IcCardErrorCode.CompanyNotFound:
      case IcCardErrorCode.CustomerNotFound:
      case IcCardErrorCode.CardNotFound:
        return 404;
      case IcCardErrorCode.CompanyNumberRepeated:
      case IcCardErrorCode.CardNumberRepeated:
      case IcCardErrorCode.IdempotencyConflict:
        return 409;
      case IcCardErrorCode.OrganizationNotVisible:
      case IcCardErrorCode.ClientTypeFixed:
      case IcCardErrorCode.NotGroupMember:
      case IcCardErrorCode.ActionRefused:
        return 422;
      default:
        return assertNever(code);
    }
  }
}
