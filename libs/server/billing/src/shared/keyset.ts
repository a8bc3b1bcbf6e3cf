import type { DataSource } from 'typeorm';

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

/** A filtered newest-first list as SQL, for `keysetRows`. */
export type KeysetQuery = {
  /** `SELECT` and the columns `toRow` reads (a `WITH` may come first). */
  select: string;
  /** `FROM` with its joins. */
  from: string;
  /** The filters: a non-empty `WHERE ...` (billing's `scopedWhere`) and its parameters. */
  where: { sql: string; params: unknown[] };
  /** The instant (timestamptz) and the id the list is ordered by, both descending. */
  at: string;
  id: string;
  /** The id's PostgreSQL type. */
  idType: 'bigint' | 'uuid' | 'text';
};

/** `keysetBatches` of a list given as SQL: each batch is one query continuing after (at, id). */
export function keysetRows<Row>(
  db: Pick<DataSource, 'query'>,
  q: KeysetQuery,
  toRow: (raw: Record<string, unknown>) => Row,
  batchSize: number,
  limit?: number,
): AsyncGenerator<Row[]> {
  const n = q.where.params.length;
  return keysetBatches(
    (after, size): Promise<Record<string, unknown>[]> =>
      db.query(
        `${q.select}, ${q.at}::text AS keyset_at, ${q.id}::text AS keyset_id ${q.from} ${q.where.sql}
           ${after ? `AND (${q.at}, ${q.id}) < ($${n + 2}::timestamptz, $${n + 3}::${q.idType})` : ''}
          ORDER BY ${q.at} DESC, ${q.id} DESC LIMIT $${n + 1}`,
        [...q.where.params, size, ...(after ? [after.at, after.id] : [])],
      ),
    (raw) => ({ at: String(raw['keyset_at']), id: String(raw['keyset_id']) }),
    toRow,
    batchSize,
    limit,
  );
}
