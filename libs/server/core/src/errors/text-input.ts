import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FieldError } from '@voltdepot/shared-contracts';
import type { Observable } from 'rxjs';
import { ValidationException } from './validation.exception';

/** The answer to a string that holds a NUL character (PostgreSQL's text and jsonb refuse it). */
export const NUL_CHARACTER_MESSAGE = 'must not contain a NUL character';
/** The answer to a string with half of a UTF-16 surrogate pair (jsonb refuses the `\ud800` escape). */
export const LONE_SURROGATE_MESSAGE = 'must not contain an unpaired UTF-16 surrogate';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why no text or jsonb column would take `text`, or undefined when any would. */
export function unstorableTextProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return NUL_CHARACTER_MESSAGE;
  if (LONE_SURROGATE.test(text)) return LONE_SURROGATE_MESSAGE;
  return undefined;
}

/**
 * One field error for every string of a request part (query, path parameters, a JSON body) that
 * PostgreSQL would refuse, keys of objects included, named by their dotted path as the zod pipes name
 * fields. Walks with its own stack: a body nested thousands deep must not overflow the call stack.
 */
export function unstorableTextFields(value: unknown): FieldError[] {
  const fields: FieldError[] = [];
  // [value, its path, what is wrong with its key]; popped in document order.
  const pending: [unknown, string, string | undefined][] = [[value, '', undefined]];
  while (pending.length > 0) {
    const [current, path, keyProblem] = pending.pop()!;
    if (keyProblem !== undefined) {
      fields.push({ field: path, message: `the key ${keyProblem}` });
    } else if (typeof current === 'string') {
      const problem = unstorableTextProblem(current);
      if (problem) fields.push({ field: path || '(root)', message: problem });
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--)
        pending.push([current[i], join(path, String(i)), undefined]);
    } else if (typeof current === 'object' && current !== null) {
      const entries = Object.entries(current as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i];
        const problem = unstorableTextProblem(key);
        // A key is named escaped: the field of an error must itself be storable and readable.
        pending.push([item, join(path, problem ? JSON.stringify(key).slice(1, -1) : key), problem]);
      }
    }
  }
  return fields;
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** The parts of a request the server reads input from. */
type RequestParts = { params?: unknown; query?: unknown; body?: unknown };

/** `unstorableTextFields` over the path parameters, the query and the body of a request, in that order. */
export function unstorableRequestFields(req: RequestParts): FieldError[] {
  return [
    ...unstorableTextFields(req.params ?? {}),
    ...unstorableTextFields(req.query ?? {}),
    ...(Buffer.isBuffer(req.body) ? [] : unstorableTextFields(req.body ?? {})),
  ];
}

/**
 * The rule for every string the server accepts: a request with text PostgreSQL would refuse anywhere in
 * its path parameters, query or JSON body is a 400 naming each such field, before any route's pipe
 * reads it (so whichever part a route validates first, the answer names the text) and whether or not a
 * schema checks that part. Registered globally by `createServiceApp`; after the guards, so an anonymous
 * caller still gets the 401.
 */
@Injectable()
export class UnstorableTextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'http') {
      const fields = unstorableRequestFields(context.switchToHttp().getRequest<RequestParts>());
      if (fields.length > 0) throw new ValidationException(fields);
    }
    return next.handle();
  }
}
