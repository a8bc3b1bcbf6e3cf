import { IcCardQueryErrorCode, IcCardQueryException } from './iccard-query.exception';

/** One page of a list with the count of every row its filters match. */
export type ExportPager<T> = (page: number, size: number) => Promise<{ list: T[]; total: number }>;

/**
 * The rows of an IC-card export, `batch` at a time. The first batch is read before anything is sent,
 * so an export over `limit` is refused with a 422 (and the filters to narrow) rather than cut short;
 * the rest streams batch by batch, never more than the limit.
 */
export async function exportBatches<T>(
  pageOf: ExportPager<T>,
  limit: number,
  batch: number,
): Promise<AsyncIterable<T[]>> {
  const first = await pageOf(1, batch);
  if (first.total > limit)
    throw new IcCardQueryException(
      IcCardQueryErrorCode.ExportTooLarge,
      `the filters match ${first.total} rows, more than the ${limit} one export writes: narrow them`,
      { total: first.total, limit },
    );
  return (async function* () {
    let written = first.list.length;
    if (written) yield first.list;
    for (let page = 2; first.list.length === batch && written < limit; page++) {
      const { list } = await pageOf(page, batch);
      const kept = list.slice(0, limit - written);
      if (kept.length) yield kept;
      written += kept.length;
      if (list.length < batch) return;
    }
  })();
}
