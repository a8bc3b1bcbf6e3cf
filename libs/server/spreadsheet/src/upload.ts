import {
  type CallHandler,
  type ExecutionContext,
  mixin,
  type NestInterceptor,
  PayloadTooLargeException,
  type Type,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import type { Observable } from 'rxjs';
import { CommonErrorCodes } from '@voltdepot/shared-contracts';
import { CommonException, ValidationException } from '@voltdepot/server-core';

/** What multer hands over for one uploaded file (memory storage). */
export type UploadedSpreadsheet = { originalname: string; size: number; buffer: Buffer; mimetype?: string };

/** The workbook formats an import reads, told apart by their first bytes. */
export type SpreadsheetKind = 'xlsx' | 'xls';

/** 2 MiB unless an import says otherwise. */
export const DEFAULT_IMPORT_MAX_BYTES = 2 * 1024 * 1024;
/** business-areas §5: "Import: a file must be chosen first, only xlsx or xls." */
export const IMPORT_NO_FILE_MESSAGE = 'A file must be chosen first';
export const IMPORT_TYPE_MESSAGE = 'Only xlsx or xls files can be imported';

/** Office Open XML workbooks are ZIP archives. */
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** Excel 97-2003 workbooks are OLE2 compound files. */
const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** The kind of workbook the bytes are, by their signature; null when they are neither. */
export function sniffSpreadsheet(buffer: Buffer): SpreadsheetKind | null {
  if (buffer.length >= ZIP_MAGIC.length && buffer.subarray(0, ZIP_MAGIC.length).equals(ZIP_MAGIC)) {
    return 'xlsx';
  }
  if (buffer.length >= OLE_MAGIC.length && buffer.subarray(0, OLE_MAGIC.length).equals(OLE_MAGIC)) {
    return 'xls';
  }
  return null;
}

/**
 * Checks an uploaded import file: present and not empty (400), within `maxBytes` (413), named .xlsx or
 * .xls and starting with the signature of a workbook (400). The name alone proves nothing, so the
 * returned kind comes from the bytes: a renamed .xlsx saved as .xls is still read as what it is.
 */
export function checkSpreadsheetUpload(
  file: UploadedSpreadsheet | undefined,
  maxBytes: number = DEFAULT_IMPORT_MAX_BYTES,
): SpreadsheetKind {
  if (file === undefined || file.size === 0 || file.buffer.length === 0) {
    throw new ValidationException([{ field: 'file', message: IMPORT_NO_FILE_MESSAGE }]);
  }
  if (file.size > maxBytes || file.buffer.length > maxBytes) throw fileTooLarge(maxBytes);
  const named = /\.(xlsx|xls)$/i.test(file.originalname);
  const kind = sniffSpreadsheet(file.buffer);
  if (!named || kind === null) {
    throw new ValidationException([{ field: 'file', message: IMPORT_TYPE_MESSAGE }]);
  }
  return kind;
}

/** 413: the upload is over the route's limit, saying what the limit is. */
export function fileTooLarge(maxBytes: number): CommonException {
  return new CommonException(
    CommonErrorCodes.PayloadTooLarge,
    `The file is larger than ${formatBytes(maxBytes)}`,
    { maxBytes },
  );
}

/**
 * The interceptor of a route taking one multipart file `field` of at most `maxBytes` (memory storage).
 * Multer stops reading a larger file; its bare "File too large" becomes `tooLarge()`, the route's own
 * answer (e.g. a field message the spec words). Every upload route takes its file through this.
 */
export function LimitedFileInterceptor(
  field: string,
  maxBytes: number,
  tooLarge: () => Error = () => fileTooLarge(maxBytes),
): Type<NestInterceptor> {
  const Multer = FileInterceptor(field, { limits: { fileSize: maxBytes, files: 1 } });
  class LimitedFile implements NestInterceptor {
    private readonly multer = new Multer();

    async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
      try {
        return await this.multer.intercept(context, next);
      } catch (error) {
        throw error instanceof PayloadTooLargeException ? tooLarge() : error;
      }
    }
  }
  return mixin(LimitedFile);
}

/** The interceptor of an import route: one multipart field `file`, refused beyond `maxBytes` (413). */
export function SpreadsheetFileInterceptor(
  maxBytes: number = DEFAULT_IMPORT_MAX_BYTES,
): Type<NestInterceptor> {
  return LimitedFileInterceptor('file', maxBytes);
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes} bytes`;
}
