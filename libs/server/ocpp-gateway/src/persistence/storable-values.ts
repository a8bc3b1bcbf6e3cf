const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** Whether `value` fits a PostgreSQL `integer` (as the transaction ids we assign do). */
export function isInt32(value: number): boolean {
  return Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX;
}
/**
 * Fields stored in 64 bits: energy register readings (Wh), and the transactionId a pile sends, which is
 * ours (32 bits) when known, but a pile that lost its state may send any integer: such a stop is
 * quarantined, never refused (an error makes piles discard billing data).
 */
const WIDE_INTEGERS = new Set(['meterStart', 'meterStop', 'transactionId']);

/**
 * What is wrong with one leaf value (in a field called `key`, at `trail`: render it with `pathOf` for
 * the message), or undefined. The path is only spelt out for a problem: most calls have none.
 */
type LeafCheck = (value: string | number, key: string, trail: Trail) => string | undefined;
type Trail = (string | number)[];

/**
 * The first value of a schema-valid pile call that the gateway cannot store, described for the pile,
 * or undefined. The OCPP 1.6J schemas allow integers of any size, any character in a string and any
 * RFC 3339 date-time; PostgreSQL keeps integers in 32 bits (energy registers and claimed transaction ids in 64), text and jsonb without NUL characters and
 * timestamps from year 1 on, and JavaScript dates have no leap second. Checked once in the router, so
 * that such a call is answered with PropertyConstraintViolation instead of failing in a handler with
 * an InternalError. Every date-time a pile sends is in a field named `timestamp`.
 */
export function findUnstorableValue(value: unknown): string | undefined {
  return firstProblem(value, (leaf, key, trail) => {
    if (typeof leaf === 'number') {
      if (!Number.isInteger(leaf)) return undefined;
      // Energy registers are stored in 64 bits (a pile's lifetime Wh outgrow 32), and so are the
      // transaction ids piles claim; JSON gives them exactly up to 2^53.
      if (WIDE_INTEGERS.has(key))
        return Number.isSafeInteger(leaf)
          ? undefined
          : `${pathOf(trail)} is beyond the exactly representable range`;
      return isInt32(leaf) ? undefined : `${pathOf(trail)} is outside the 32-bit integer range`;
    }
    const text = textProblem(leaf);
    if (text) return `${pathOf(trail)} ${text}`;
    if (key === 'timestamp' && !isStorableTimestamp(leaf))
      return `${pathOf(trail)} is not a date-time that can be stored (from year 1 on, no leap second)`;
    return undefined;
  });
}

/**
 * The first string that no text or jsonb column takes (a NUL character, or an unpaired UTF-16 surrogate,
 * which JSON can escape but PostgreSQL refuses), or undefined.
 */
export function findUnstorableText(value: unknown): string | undefined {
  return firstProblem(value, (leaf, _key, trail) => {
    const text = typeof leaf === 'string' ? textProblem(leaf) : undefined;
    return text && `${pathOf(trail)} ${text}`;
  });
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'contains a NUL character';
  if (LONE_SURROGATE.test(text)) return 'contains an unpaired UTF-16 surrogate';
  return undefined;
}

/**
 * Text a pile chose that we keep but do not judge (message ids, and the correlation ids made of them),
 * made storable: NUL removed and an unpaired UTF-16 surrogate replaced by U+FFFD, as UTF-8 text would
 * have it. PostgreSQL refuses both in JSON, and one such value would fail a whole batch, the calls of
 * every other pile in it included.
 */
export function storableText(text: string): string {
  const clean = withoutNul(text);
  return LONE_SURROGATE.test(clean) ? clean.replace(LONE_SURROGATES, '\uFFFD') : clean;
}

/** PostgreSQL's text (and its JSON) cannot hold NUL: what a pile sent, without it (a raw frame, say). */
export function withoutNul(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
}

/** `a.b[0].c`, or `(root)` for the value itself. */
function pathOf(trail: Trail): string {
  if (!trail.length) return '(root)';
  let path = '';
  for (const step of trail) path += typeof step === 'number' ? `[${step}]` : path ? `.${step}` : step;
  return path;
}

function firstProblem(value: unknown, check: LeafCheck, trail: Trail = [], key = ''): string | undefined {
  if (typeof value === 'number' || typeof value === 'string') return check(value, key, trail);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      trail.push(i);
      const found = firstProblem(value[i], check, trail, key);
      trail.pop();
      if (found) return found;
    }
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const name in record) {
      trail.push(name);
      const found = firstProblem(record[name], check, trail, name);
      trail.pop();
      if (found) return found;
    }
  }
  return undefined;
}

function isStorableTimestamp(value: string): boolean {
  const time = Date.parse(value);
  return !Number.isNaN(time) && new Date(time).getUTCFullYear() >= 1 && !value.startsWith('0000');
}
