import type { EntityManager } from 'typeorm';

type Row = Record<string, unknown>;

/**
 * The row of `table` with the given natural key, inserted (key plus `values()`) when missing; `created`
 * tells which, so writes that go with a new record (labels, the gateway's rows) happen once.
 */
export async function ensure(
  m: EntityManager,
  table: string,
  key: Row,
  values: () => Row | Promise<Row> = () => ({}),
): Promise<{ id: number; created: boolean }> {
  const keys = Object.keys(key);
  const find = async () =>
    (await m.query(
      `SELECT id FROM ${table} WHERE ${keys.map((k, i) => `${k} = $${i + 1}`).join(' AND ')} ORDER BY id LIMIT 1`,
      Object.values(key),
    )) as { id: number }[];
  const [found] = await find();
  if (found) return { id: Number(found.id), created: false };
  const row = { ...key, ...(await values()) };
  const columns = Object.keys(row);
  const [inserted] = (await m.query(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})
     ON CONFLICT DO NOTHING RETURNING id`,
    Object.values(row),
  )) as { id: number }[];
  if (inserted) return { id: Number(inserted.id), created: true };
  const [raced] = await find();
  if (!raced) throw new Error(`demo ${table} ${JSON.stringify(key)} clashes with another existing record`);
  return { id: Number(raced.id), created: false };
}
