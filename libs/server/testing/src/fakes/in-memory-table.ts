/**
 * A table in memory for the fakes of repositories in service unit tests: rows with generated ids,
 * named unique constraints that fail the way PostgreSQL does (`code` 23505 and the constraint's name,
 * what `isUniqueViolation` reads), and transactions that undo every write of a failed unit of work.
 * A fake keeps its tables and answers the repository's methods from them; rules stay in the service.
 */
export class InMemoryTable<Row extends { id: number }> {
  private rows = new Map<number, Row>();
  private nextId = 1;

  /** `unique`: constraint name -> the key a row must not share with another (null/undefined: no key). */
  constructor(private readonly unique: Record<string, (row: Row) => unknown> = {}) {}

  /** Adds a row; its id is the next one unless given. Copies in and out, so callers never share rows. */
  insert(row: Omit<Row, 'id'> & { id?: number }): Row {
    const id = row.id ?? this.nextId;
    const stored = { ...row, id } as Row;
    this.assertUnique(stored);
    this.rows.set(id, stored);
    this.nextId = Math.max(this.nextId, id + 1);
    return { ...stored };
  }

  get(id: number): Row | undefined {
    const row = this.rows.get(id);
    return row && { ...row };
  }

  /** Rows matching `where` (all rows without it), in id order. */
  filter(where: (row: Row) => boolean = () => true): Row[] {
    return [...this.rows.values()]
      .filter(where)
      .sort((a, b) => a.id - b.id)
      .map((row) => ({ ...row }));
  }

  find(where: (row: Row) => boolean): Row | undefined {
    return this.filter(where)[0];
  }

  /** Changes a row; undefined when there is none. */
  update(id: number, changes: Partial<Omit<Row, 'id'>>): Row | undefined {
    const row = this.rows.get(id);
    if (!row) return undefined;
    const updated = { ...row, ...changes, id } as Row;
    this.assertUnique(updated);
    this.rows.set(id, updated);
    return { ...updated };
  }

  delete(id: number): boolean {
    return this.rows.delete(id);
  }

  get size(): number {
    return this.rows.size;
  }

  /** The table's state, to restore when a transaction fails. */
  snapshot(): () => void {
    const rows = new Map([...this.rows].map(([id, row]) => [id, { ...row }]));
    const nextId = this.nextId;
    return () => {
      this.rows = rows;
      this.nextId = nextId;
    };
  }

  private assertUnique(row: Row): void {
    for (const [constraint, keyOf] of Object.entries(this.unique)) {
      const key = keyOf(row);
      if (key === null || key === undefined) continue;
      const taken = [...this.rows.values()].some(
        (other) => other.id !== row.id && JSON.stringify(keyOf(other)) === JSON.stringify(key),
      );
      if (taken) throw uniqueViolation(constraint);
    }
  }
}

/** The error PostgreSQL (through the driver) raises for a unique constraint. */
export function uniqueViolation(constraint: string): Error {
  return Object.assign(new Error(`duplicate key value violates unique constraint "${constraint}"`), {
    code: '23505',
    constraint,
  });
}

/**
 * Runs `work` as one transaction over these tables: when it throws, every table is as it was before.
 * `manager` stands for the EntityManager a repository method takes (the fakes ignore it).
 */
export async function inMemoryTransaction<T>(
  tables: Pick<InMemoryTable<{ id: number }>, 'snapshot'>[],
  work: (manager: never) => Promise<T>,
): Promise<T> {
  const restores = tables.map((table) => table.snapshot());
  try {
    return await work(undefined as never);
  } catch (error) {
    restores.forEach((restore) => restore());
    throw error;
  }
}
