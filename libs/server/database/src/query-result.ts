/**
 * `DataSource.query` / `EntityManager.query` answer differently by command on PostgreSQL: TypeORM's
 * driver returns `[rows, affectedCount]` when the statement is an UPDATE or DELETE (also as the main
 * statement after WITH), and the rows alone for everything else. These read either shape.
 */
export function returnedRows<T = Record<string, unknown>>(result: unknown): T[] {
  if (isUpdateOrDeleteResult(result)) return result[0] as T[];
  if (Array.isArray(result)) return result as T[];
  throw new Error('query result is neither rows nor [rows, affectedCount]');
}

/** Rows affected by an UPDATE or DELETE (the count TypeORM returns beside its RETURNING rows). */
export function affectedRows(result: unknown): number {
  if (isUpdateOrDeleteResult(result)) return result[1];
  throw new Error('affectedRows: not the result of an UPDATE or DELETE');
}

function isUpdateOrDeleteResult(result: unknown): result is [unknown[], number] {
  return (
    Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number'
  );
}
