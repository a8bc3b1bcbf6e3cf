import { Injectable, NestMiddleware } from '@nestjs/common';
import { createLogger, HttpRequest, HttpResponse, NextFunction, principalOf } from '@voltdepot/server-core';
import { clientIp, userAgentOf } from '../shared/client-info';
import { LogRepository } from './log.repository';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const fallbackLogger = createLogger({ service: 'identity', level: 'warn' });

/**
 * Records every mutating request once the response is finished: who (from the guard's principal),
 * what (method, path, route template), when, from where (address, user agent) and the result
 * (status). Runs on finish so denied (401/403) and invalid (400) requests are recorded too.
 * Bodies are never stored (they may hold passwords).
 */
@Injectable()
export class OperationLogMiddleware implements NestMiddleware {
  constructor(private readonly logs: LogRepository) {}

  use(req: HttpRequest, res: HttpResponse, next: NextFunction): void {
    const method = (req.method ?? 'GET').toUpperCase();
    if (!MUTATING.has(method)) return next();
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const principal = principalOf(req);
      const route = typeof req.route?.path === 'string' ? `${req.baseUrl ?? ''}${req.route.path}` : null;
      this.logs
        .addOperation({
          userId: principal?.userId ?? null,
          username: principal?.username ?? null,
          method,
          path: (req.originalUrl ?? req.url ?? '').split('?')[0],
          route,
          status: res.statusCode,
          success: res.statusCode < 400,
          ip: clientIp(req),
          userAgent: userAgentOf(req),
          durationMs: Number((process.hrtime.bigint() - started) / 1_000_000n),
          correlationId: req.correlationId ?? null,
        })
        .catch((error: unknown) => fallbackLogger.warn({ err: error }, 'operation log write failed'));
    });
    next();
  }
}
