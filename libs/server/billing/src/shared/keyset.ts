/** Where the previous batch ended: its last row's instant (PostgreSQL's own text, microseconds) and id. */
export type KeysetPosition = { at: string; id: string };

/**
 * Every row of a newest-first list, in batches of `batchSize` up to `limit`, by keyset on
 * (instant, id) instead of OFFSET: each batch starts where the previous one ended, so a long export
 * costs the same per batch, and rows arriving meanwhile (newer than the first batch) neither shift
 * nor repeat the rest. `read` returns up to `size` raw rows after `after` (all from the start when
 * undefined), ordered by the instant and id, both descending; `positionOf` gives a raw row's key.
 */
export async function* keysetBatches<Raw, Row>(
  read: (after: KeysetPosition | undefined, size: number) => Promise<Raw[]>,
  positionOf: (raw: Raw) => KeysetPosition,
  toRow: (raw: Raw) => Row,
  batchSize: number,
  limit = Number.POSITIVE_INFINITY,
): AsyncGenerator<Row[]> {
  let after: KeysetPosition | undefined;
  for (let read_ = 0; read_ < limit;) {
    const raw = await read(after, Math.min(batchSize, limit - read_));
    if (!raw.length) return;
    yield raw.map(toRow);
    read_ += raw.length;
    after = positionOf(raw[raw.length - 1]);
    if (raw.length < batchSize) return;
  }
}
