/**
 * Every page of a list in turn, `size` rows each, until a short page or until `limit` rows were read
 * (exports read their lists this way).
 */
export async function* allPages<T>(
  read: (page: number, size: number) => Promise<T[]>,
  size: number,
  limit = Number.POSITIVE_INFINITY,
): AsyncGenerator<T[]> {
  for (let page = 1; (page - 1) * size < limit; page++) {
    const rows = await read(page, size);
    if (rows.length) yield rows;
    if (rows.length < size) return;
  }
}
