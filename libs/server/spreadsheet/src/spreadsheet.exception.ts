import { assertNever, DomainException } from '@voltdepot/server-core';

/** Error codes of spreadsheet imports (the HTTP status of each is chosen below). */
export const SpreadsheetErrorCodes = {
  /** 422: the file was read but its content cannot be imported (missing columns, no rows, row errors). */
  ImportRejected: 'SPREADSHEET_IMPORT_REJECTED',
  /** 422: the file claims to be a workbook but cannot be read. */
  Unreadable: 'SPREADSHEET_UNREADABLE',
} as const;
export type SpreadsheetErrorCode = (typeof SpreadsheetErrorCodes)[keyof typeof SpreadsheetErrorCodes];

export class SpreadsheetException extends DomainException {
  constructor(code: SpreadsheetErrorCode, message: string, details?: unknown) {
    super(code, message, SpreadsheetException.statusOf(code), details);
  }

  static statusOf(code: SpreadsheetErrorCode): number {
    switch (code) {
      case SpreadsheetErrorCodes.ImportRejected:
      case SpreadsheetErrorCodes.Unreadable:
        return 422;
      default:
        return assertNever(code);
    }
  }
}
