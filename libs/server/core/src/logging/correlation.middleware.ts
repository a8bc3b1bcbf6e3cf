import { Logger } from 'pino';
import type { HttpRequest, HttpResponse, Middleware, NextFunction } from '../http/express-types';
import {
  CORRELATION_ID_HEADER,
  isValidCorrelationId,
  newCorrelationId,
  runWithCorrelation,
} from './correlation-context';

/** Status logged for a request whose client went away before the response was sent (as nginx does). */
export const CLIENT_CLOSED_REQUEST = 499;

export type CorrelationMiddlewareOptions = {
  logger: Logger;
  /** Paths polled by machines (health probes, scrapers); their request lines are logged at debug. */
  quietPaths?: readonly string[];
};

/**
 * First middleware of every service. It
 * - takes the caller's `x-correlation-id` when it is plain (≤ 128 chars of `[A-Za-z0-9._-]`),
 *   otherwise makes a UUID, and echoes it on the response;
 * - runs the rest of the request inside that correlation context, so every log line carries it;
 * - logs one line per request when the response is done: method, path, status, durationMs.
 */
export function correlationMiddleware(options: CorrelationMiddlewareOptions): Middleware {
  const { logger } = options;
  const quietPaths = new Set(options.quietPaths ?? ['/health', '/metrics']);

  return function correlation(req: HttpRequest, res: HttpResponse, next: NextFunction): void {
    const supplied = req.headers[CORRELATION_ID_HEADER];
    const correlationId = isValidCorrelationId(supplied) ? supplied : newCorrelationId();
    req.correlationId = correlationId;
    res.setHeader(CORRELATION_ID_HEADER, correlationId);

    const startedAt = process.hrtime.bigint();
    // The query string may carry tokens, so only the path is logged.
    const path = (req.originalUrl ?? req.url ?? '/').split('?')[0];
    res.once('close', () => {
      const durationMs = Number(process.hrtime.bigint() - startedAt) / 1e6;
      const status = res.writableFinished ? res.statusCode : CLIENT_CLOSED_REQUEST;
      const level = quietPaths.has(path) ? 'debug' : 'info';
      runWithCorrelation(correlationId, () =>
        logger[level](
          { method: req.method, path, status, durationMs: Math.round(durationMs * 100) / 100 },
          'http request',
        ),
      );
    });

    runWithCorrelation(correlationId, () => next());
  };
}

/** The correlation id `correlationMiddleware` gave this request, if it ran. */
export function requestCorrelationId(req: unknown): string | undefined {
  const id = (req as HttpRequest | undefined)?.correlationId;
  return typeof id === 'string' ? id : undefined;
}
