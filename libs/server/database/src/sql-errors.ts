/** Errors of PostgreSQL that an area answers as its own (a duplicate as 409, a reference as 409/422), by code. */
type PgError = {
  code?: string;
  constraint?: string;
  table?: string;
  driverError?: { code?: string; constraint?: string; table?: string };
};

/** PostgreSQL unique_violation: the constraint's name, or undefined when the error is something else. */
export function uniqueViolation(error: unknown): string | undefined {
  const e = error as PgError;
  const code = e.driverError?.code ?? e.code;
  return code === '23505' ? (e.driverError?.constraint ?? e.constraint ?? '') : undefined;
}

/** PostgreSQL foreign_key_violation: the table whose rows still refer, or undefined. */
export function foreignKeyViolation(error: unknown): string | undefined {
  const e = error as PgError;
  const code = e.driverError?.code ?? e.code;
  return code === '23503' ? (e.driverError?.table ?? e.table ?? '') : undefined;
}
