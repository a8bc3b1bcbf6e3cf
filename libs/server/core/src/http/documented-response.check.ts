import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { tap, type Observable } from 'rxjs';
import type { HttpRequest } from './express-types';
import { apiDocOf } from './api-doc.decorator';

/**
 * For tests: checks every JSON answer against the schema its route documents (`ApiDoc`), as it goes over
 * the wire (after JSON serialisation), and records what differs instead of changing the answer. The test
 * fixture registers it (`app.useGlobalInterceptors(check)`) and calls `assertNone()` when it closes, so
 * every integration test of a service also checks its document.
 */
export class DocumentedResponseCheck implements NestInterceptor {
  readonly violations: string[] = [];

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const schema = apiDocOf(context.getHandler())?.response;
    if (schema === undefined || context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<HttpRequest>();
    return next.handle().pipe(
      tap((value: unknown) => {
        const wire: unknown = value === undefined ? undefined : JSON.parse(JSON.stringify(value));
        const result = schema.safeParse(wire);
        if (result.success) return;
        const issues = result.error.issues
          .slice(0, 5)
          .map((issue) => `${issue.path.join('.') || '(answer)'}: ${issue.message}`);
        this.violations.push(`${req.method} ${req.originalUrl}: ${issues.join('; ')}`);
      }),
    );
  }

  /** Throws, listing them, when an answer differed from its documented schema. */
  assertNone(): void {
    if (this.violations.length === 0) return;
    throw new Error(
      `answers that differ from their documented schema (ApiDoc):\n${[...new Set(this.violations)].join('\n')}`,
    );
  }
}
