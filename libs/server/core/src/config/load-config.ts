import { z } from 'zod';
import { ConfigError, ConfigProblem } from './config.error';

type Env = Record<string, string | undefined>;

/**
 * Validates the environment against `schema` and returns the typed, defaulted result.
 * Call it once at boot; everything else receives the returned object.
 *
 * Empty strings count as unset (compose files often pass `VAR=`), so defaults apply and
 * required variables are reported as "required".
 *
 * Values are echoed in messages only where they cannot be secrets (numbers, enum choices);
 * URL and free-text problems never repeat the value, which may hold a password.
 */
export function loadConfig<S extends z.ZodTypeAny>(schema: S, env: Env = process.env): z.output<S> {
  const input = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ConfigError(result.error.issues.map(describeIssue));
}

/**
 * Like `loadConfig`, but for a process entry point: on invalid configuration it prints the
 * problem list to stderr and exits with code 1, before anything else starts.
 */
export function loadConfigOrExit<S extends z.ZodTypeAny>(schema: S, env: Env = process.env): z.output<S> {
  try {
    return loadConfig(schema, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

function describeIssue(issue: z.ZodIssue): ConfigProblem {
  const variable = issue.path.length > 0 ? issue.path.join('.') : '(environment)';
  return { variable, reason: reasonFor(issue) };
}

function reasonFor(issue: z.ZodIssue): string {
  switch (issue.code) {
    case z.ZodIssueCode.invalid_type:
      return issue.received === z.ZodParsedType.undefined
        ? 'required'
        : `expected ${issue.expected}, got ${issue.received}`;
    case z.ZodIssueCode.invalid_enum_value:
      return `expected one of ${issue.options.map((o) => `'${String(o)}'`).join(', ')}, got '${String(issue.received)}'`;
    default:
      return issue.message;
  }
}
