const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
/**
 * Fields stored in 64 bits: energy register readings (Wh), and the transactionId a pile sends, which is
 * ours (32 bits) when known, but a pile that lost its state may send any integer: such a stop is
 * quarantined, never refused (an error makes piles discard billing data).
 */
const WIDE_INTEGERS = new Set(['meterStart', 'meterStop', 'transactionId']);

/** What is wrong with one leaf value (named by `path`, in a field called `key`), or undefined. */
type LeafCheck = (value: string | number, path: string, key: string) => string | undefined;

/**
 * The first value of a schema-valid pile call that the gateway cannot store, described for the pile,
 * or undefined. The OCPP 1.6J schemas allow integers of any size, any character in a string and any
 * RFC 3339 date-time; PostgreSQL keeps integers in 32 bits (energy registers and claimed transaction ids in 64), text and jsonb without NUL characters and
 * timestamps from year 1 on, and JavaScript dates have no leap second. Checked once in the router, so
 * that such a call is answered with PropertyConstraintViolation instead of failing in a handler with
 * an InternalError. Every date-time a pile sends is in a field named `timestamp`.
 */
export function findUnstorableValue(value: unknown): string | undefined {
  return firstProblem(value, (leaf, path, key) => {
    if (typeof leaf === 'number') {
      if (!Number.isInteger(leaf)) return undefined;
      // Energy registers are stored in 64 bits (a pile's lifetime Wh outgrow 32), and so are the
      // transaction ids piles claim; JSON gives them exactly up to 2^53.
      if (WIDE_INTEGERS.has(key))
        return Number.isSafeInteger(leaf) ? undefined : `${path} is beyond the exactly representable range`;
      return leaf < INT32_MIN || leaf > INT32_MAX ? `${path} is outside the 32-bit integer range` : undefined;
    }
    if (leaf.includes('\u0000')) return `${path} contains a NUL character`;
    if (key === 'timestamp' && !isStorableTimestamp(leaf))
      return `${path} is not a date-time that can be stored (from year 1 on, no leap second)`;
    return undefined;
  });
}

/** The first string holding a NUL character (which no text or jsonb column takes), or undefined. */
export function findNulCharacter(value: unknown): string | undefined {
  return firstProblem(value, (leaf, path) =>
    typeof leaf === 'string' && leaf.includes('\u0000') ? `${path} contains a NUL character` : undefined,
  );
}

function firstProblem(value: unknown, check: LeafCheck, path = '', key = ''): string | undefined {
  if (typeof value === 'number' || typeof value === 'string') return check(value, path || '(root)', key);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = firstProblem(value[i], check, `${path}[${i}]`, key);
      if (found) return found;
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const [name, field] of Object.entries(value)) {
      const found = firstProblem(field, check, path ? `${path}.${name}` : name, name);
      if (found) return found;
    }
  }
  return undefined;
}

function isStorableTimestamp(value: string): boolean {
  const time = Date.parse(value);
  return !Number.isNaN(time) && new Date(time).getUTCFullYear() >= 1 && !value.startsWith('0000');
}
