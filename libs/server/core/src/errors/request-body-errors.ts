import { CommonErrorCodes } from '@voltdepot/shared-contracts';
import type { ErrorMiddleware } from '../http/express-types';
import { DomainException } from './domain.exception';

/** The shape of errors from body-parser / raw-body (the `http-errors` package). */
type BodyParserError = Error & {
  type?: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
  limit?: number;
  length?: number;
  encoding?: string;
  charset?: string;
  maxDepth?: number;
};

/**
 * Turns a body-parser failure into a DomainException with a precise message, or returns
 * undefined for any other error. Nest would otherwise reduce malformed JSON to a bare 400.
 */
export function requestBodyException(error: unknown): DomainException | undefined {
  if (!(error instanceof Error)) return undefined;
  const e = error as BodyParserError;
  const status = e.status ?? e.statusCode;
  if (typeof status !== 'number' || status < 400 || status > 499 || e.expose !== true) return undefined;

  switch (e.type) {
    case 'entity.parse.failed':
      return new DomainException(
        CommonErrorCodes.Validation,
        `Malformed JSON in request body: ${e.message}`,
        400,
      );
    case 'entity.too.large':
      return new DomainException(
        CommonErrorCodes.PayloadTooLarge,
        `Request body is too large: the limit is ${e.limit ?? '?'} bytes`,
        413,
        { limitBytes: e.limit, lengthBytes: e.length },
      );
    case 'entity.too.deep':
      return new DomainException(CommonErrorCodes.Validation, e.message, 400, { maxDepth: e.maxDepth });
    case 'parameters.too.many':
      return new DomainException(
        CommonErrorCodes.PayloadTooLarge,
        'Request body has too many parameters',
        413,
      );
    case 'encoding.unsupported':
      return new DomainException(
        CommonErrorCodes.Validation,
        `Unsupported content encoding "${e.encoding ?? ''}"`,
        415,
      );
    case 'charset.unsupported':
      return new DomainException(
        CommonErrorCodes.Validation,
        `Unsupported charset "${e.charset ?? ''}"`,
        415,
      );
    case 'request.aborted':
      return new DomainException(CommonErrorCodes.Validation, 'Request body was aborted by the client', 400);
    case 'request.size.invalid':
      return new DomainException(
        CommonErrorCodes.Validation,
        'Request body size does not match Content-Length',
        400,
      );
    default:
      // Other client errors from http-errors: exposable by definition (`expose` is true).
      return new DomainException(
        status === 413 ? CommonErrorCodes.PayloadTooLarge : CommonErrorCodes.Validation,
        e.message,
        status,
      );
  }
}

/**
 * Registered right after the body parsers: it rewrites their errors before Nest's own
 * error handler sees them (which would turn a JSON SyntaxError into a generic BadRequestException).
 */
export const requestBodyErrorTranslator: ErrorMiddleware = (error, _req, _res, next) => {
  next(requestBodyException(error) ?? error);
};
