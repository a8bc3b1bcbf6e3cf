/**
 * Indexes of the first item of each key (`primary`) and of the later ones (`repeats`, retries of
 * an earlier item in the same batch, applied after it).
 */
export function splitRepeats<T>(
  items: T[],
  keyOf: (item: T, index: number) => string,
): { primary: number[]; repeats: number[] } {
  const seen = new Set<string>();
  const primary: number[] = [];
  const repeats: number[] = [];
  items.forEach((item, i) => {
    const key = keyOf(item, i);
    if (seen.has(key)) repeats.push(i);
    else {
      seen.add(key);
      primary.push(i);
    }
  });
  return { primary, repeats };
}

/**
 * The outcomes of a batch with its repeats applied last, as a batch of their own (after the first of
 * each key, as one call after another would be): `outcomes` holds those of the primary items already.
 */
export async function withRepeats<T, R>(
  items: T[],
  repeats: number[],
  outcomes: R[],
  write: (repeated: T[]) => Promise<R[]>,
): Promise<R[]> {
  if (!repeats.length) return outcomes;
  const again = await write(repeats.map((i) => items[i]));
  repeats.forEach((i, n) => (outcomes[i] = again[n]));
  return outcomes;
}

/**
 * A pile's date-time to the millisecond, as stored and as matched. Business keys are compared in
 * JavaScript (milliseconds, truncated) against what PostgreSQL returns; stored with finer digits,
 * PostgreSQL would round them (…00.1239996 -> …00.124) and a row could no longer be matched to its call.
 */
export function instant(timestamp: string): string {
  return new Date(timestamp).toISOString();
}

/** Business keys in one order everywhere, so that two batches holding the same rows cannot deadlock. */
export const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
