import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import { CommonErrorCodes, ErrorBody } from '@voltdepot/shared-contracts';
import { Logger } from 'pino';
import type { HttpRequest, HttpResponse } from '../http/express-types';
import {
  CORRELATION_ID_HEADER,
  currentCorrelationId,
  newCorrelationId,
} from '../logging/correlation-context';
import { requestCorrelationId } from '../logging/correlation.middleware';
import { DomainException } from './domain.exception';
import { requestBodyException } from './request-body-errors';
import { ValidationException } from './validation.exception';
import { isZodError } from './zod-issues';

/** The status and body an error is answered with (the correlation id is added last). */
export type ErrorReply = { status: number; body: Omit<ErrorBody, 'correlationId'> };

const GENERIC_MESSAGE: Record<number, string> = {
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
};

/** Nest's built-in HttpExceptions by status; any other 4xx keeps its status and counts as bad input. */
function codeForStatus(status: number): string {
  switch (status) {
    case 400:
      return CommonErrorCodes.Validation;
    case 401:
      return CommonErrorCodes.Unauthorized;
    case 403:
      return CommonErrorCodes.Forbidden;
    case 404:
      return CommonErrorCodes.NotFound;
    case 409:
      return CommonErrorCodes.Conflict;
    case 413:
      return CommonErrorCodes.PayloadTooLarge;
    case 422:
      return CommonErrorCodes.BusinessRule;
    case 502:
    case 503:
    case 504:
      return CommonErrorCodes.Unavailable;
    default:
      return status >= 500 ? CommonErrorCodes.Internal : CommonErrorCodes.Validation;
  }
}

/**
 * Decides status and body for any thrown value. Pure, so the mapping is testable as a table.
 * Only 4xx messages and DomainException messages reach the client; a 5xx from anything else
 * gets a generic message (the filter logs the real error).
 */
export function toErrorReply(error: unknown): ErrorReply {
  if (error instanceof DomainException) {
    return {
      status: error.httpStatus,
      body: withDetails({ code: error.code, message: error.message }, error.details),
    };
  }
  if (isZodError(error)) return toErrorReply(ValidationException.fromZod(error));

  const bodyError = requestBodyException(error);
  if (bodyError !== undefined) return toErrorReply(bodyError);

  if (error instanceof HttpException) {
    const status = error.getStatus();
    const code = codeForStatus(status);
    if (status >= 500)
      return { status, body: { code, message: GENERIC_MESSAGE[status] ?? GENERIC_MESSAGE[500] } };
    const { message, details } = describeHttpExceptionResponse(error);
    return { status, body: withDetails({ code, message }, details) };
  }

  return { status: 500, body: { code: CommonErrorCodes.Internal, message: GENERIC_MESSAGE[500] } };
}

/** Nest's responses look like `{ statusCode, message: string | string[], error }` or a plain string. */
function describeHttpExceptionResponse(error: HttpException): { message: string; details?: unknown } {
  const response = error.getResponse();
  if (typeof response === 'string') return { message: response };
  const message = (response as { message?: unknown }).message;
  if (typeof message === 'string') return { message };
  if (Array.isArray(message) && message.every((m) => typeof m === 'string')) {
    return { message: message.join('; '), details: message };
  }
  return { message: error.message };
}

function withDetails(body: { code: string; message: string }, details: unknown): ErrorReply['body'] {
  return details === undefined ? body : { ...body, details };
}

/**
 * The one global exception filter: every error leaves as `{ code, message, details?, correlationId }`.
 * 5xx are logged with their stack at error level; client errors at debug (the request line
 * already records their status).
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') {
      // Only HTTP is served through Nest for now; other transports answer errors themselves.
      this.logger.error({ err: exception, contextType: host.getType() }, 'unhandled error outside HTTP');
      return;
    }
    const http = host.switchToHttp();
    const req = http.getRequest<HttpRequest>();
    const res = http.getResponse<HttpResponse>();

    const { status, body } = toErrorReply(exception);
    const correlationId = this.correlationIdFor(req, res);
    if (status >= 500) {
      this.logger.error(
        { err: exception, correlationId, method: req.method, path: pathOf(req), status },
        'request failed',
      );
    } else {
      this.logger.debug({ code: body.code, correlationId, status }, body.message);
    }

    if (res.headersSent) {
      // Too late for a body; end what was started so the client is not left waiting.
      if (!res.writableEnded) res.end();
      return;
    }
    const payload: ErrorBody = { ...body, correlationId };
    res.statusCode = status;
    const retryAfter = retryAfterSecondsOf(status, payload.details);
    if (retryAfter !== undefined) res.setHeader('retry-after', String(retryAfter));
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.end(JSON.stringify(payload));
  }

  private correlationIdFor(req: HttpRequest, res: HttpResponse): string {
    const fromContext = currentCorrelationId() ?? requestCorrelationId(req);
    const fromHeader = res.getHeader(CORRELATION_ID_HEADER);
    const id = fromContext ?? (typeof fromHeader === 'string' ? fromHeader : undefined);
    if (id !== undefined) return id;
    const generated = newCorrelationId();
    if (!res.headersSent) res.setHeader(CORRELATION_ID_HEADER, generated);
    return generated;
  }
}

/** A throttled (429) or unavailable (503) answer's `details.retryAfterSeconds`, for its Retry-After header. */
function retryAfterSecondsOf(status: number, details: unknown): number | undefined {
  if (status !== 429 && status !== 503) return undefined;
  const seconds = (details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0
    ? Math.ceil(seconds)
    : undefined;
}

function pathOf(req: HttpRequest): string {
  return (req.originalUrl ?? req.url ?? '').split('?')[0];
}
