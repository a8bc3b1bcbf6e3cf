/** FNV-1a 32-bit: a stable, fast key hash so a key always lands on the same partition. */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function partitionOf(key: string, partitions: number): number {
  return fnv1a32(key) % partitions;
}

/** The smallest stream id strictly greater than `id` (ids are `ms-seq`). */
export function nextStreamId(id: string): string {
  const [ms, seq] = id.split('-');
  return `${ms}-${BigInt(seq ?? '0') + 1n}`;
}

export function compareStreamIds(a: string, b: string): number {
  const [am, as] = a.split('-').map(BigInt);
  const [bm, bs] = b.split('-').map(BigInt);
  if (am !== bm) return am < bm ? -1 : 1;
  if (as !== bs) return as < bs ? -1 : 1;
  return 0;
}

/**
 * Deterministic partition assignment: partition slots are dealt round-robin over the sorted live
 * members, so every member computes the same plan without talking to the others.
 */
export function assignPartitions<T>(slots: T[], members: string[], me: string): T[] {
  const sorted = [...members].sort();
  const index = sorted.indexOf(me);
  if (index < 0) return [];
  return slots.filter((_, i) => i % sorted.length === index);
}
