import type { FieldError } from '@voltdepot/shared-contracts';
import type { ZodError, ZodIssue } from 'zod';

/** Recognises a ZodError even if it came from another copy of zod. */
export function isZodError(error: unknown): error is ZodError {
  return (
    error instanceof Error &&
    error.name === 'ZodError' &&
    Array.isArray((error as { issues?: unknown }).issues)
  );
}

/** One entry per failing field, named by its dotted path (`items.0.quantity`); `(root)` for the value itself. */
export function zodFieldErrors(issues: readonly ZodIssue[]): FieldError[] {
  return issues.flatMap((issue) => {
    // A union that failed every branch: report the branches' own field errors.
    if (issue.code === 'invalid_union' && issue.unionErrors.length > 0) {
      const nested = zodFieldErrors(issue.unionErrors.flatMap((e) => e.issues));
      if (nested.length > 0) return dedupe(nested);
    }
    return [{ field: issue.path.length > 0 ? issue.path.join('.') : '(root)', message: issue.message }];
  });
}

/** `Validation failed: name: Required; port: Expected number, received string` */
export function validationMessage(fields: readonly FieldError[]): string {
  return `Validation failed: ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}`;
}

function dedupe(fields: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return fields.filter((f) => {
    const key = `${f.field}\u0000${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
