import { CommonErrorCodes, FieldError } from '@voltdepot/shared-contracts';
import type { ZodError } from 'zod';
import { DomainException } from './domain.exception';
import { validationMessage, zodFieldErrors } from './zod-issues';

/** 400 with every failing field in `details` (`FieldError[]`). */
export class ValidationException extends DomainException {
  constructor(readonly fields: FieldError[]) {
    super(CommonErrorCodes.Validation, validationMessage(fields), 400, fields);
  }

  static fromZod(error: ZodError): ValidationException {
    return new ValidationException(zodFieldErrors(error.issues));
  }
}
