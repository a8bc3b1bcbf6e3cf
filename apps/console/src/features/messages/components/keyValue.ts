/** Spec §3: a key-value pair of the template's parameters. */
export type KeyValuePair = { key: string; value: string };

/** Spec §5 messages of the key-value editor (keys of messages.keyValue). */
export type KeyValueError = 'keyEmpty' | 'keyDuplicated';

/** Whether `key` may be added to `pairs`: it must not be empty or already there. */
export function checkNewKey(pairs: readonly KeyValuePair[], key: string): KeyValueError | null {
  const trimmed = key.trim();
  if (trimmed === '') return 'keyEmpty';
  if (pairs.some((pair) => pair.key.trim() === trimmed)) return 'keyDuplicated';
  return null;
}

/** Indexes of the pairs whose key repeats an earlier one (empty keys are dropped, so never duplicates). */
export function duplicatedIndexes(pairs: readonly KeyValuePair[]): number[] {
  const seen = new Set<string>();
  const duplicated: number[] = [];
  pairs.forEach((pair, index) => {
    const key = pair.key.trim();
    if (key === '') return;
    if (seen.has(key)) duplicated.push(index);
    seen.add(key);
  });
  return duplicated;
}

/** The list is validated before save (spec §5): keys must not repeat. */
export function validatePairs(pairs: readonly KeyValuePair[] | undefined): KeyValueError | null {
  return duplicatedIndexes(pairs ?? []).length > 0 ? 'keyDuplicated' : null;
}

/** The map sent to the server; empty keys are dropped (spec §5). */
export function pairsToMap(pairs: readonly KeyValuePair[] | undefined): Record<string, string> {
  const map: Record<string, string> = {};
  for (const pair of pairs ?? []) {
    const key = pair.key.trim();
    if (key !== '') map[key] = pair.value;
  }
  return map;
}

export function mapToPairs(map: Record<string, unknown> | null | undefined): KeyValuePair[] {
  return Object.entries(map ?? {}).map(([key, value]) => ({
    key,
    value: value === null || value === undefined ? '' : String(value),
  }));
}
