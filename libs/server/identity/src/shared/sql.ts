import { foreignKeyViolation, uniqueViolation } from '@voltdepot/server-database';

/** PostgreSQL unique_violation, optionally of one named constraint or index (server-database reads the error). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const name = uniqueViolation(error);
  return name !== undefined && (constraint === undefined || name === constraint);
}

/** PostgreSQL foreign_key_violation. */
export function isForeignKeyViolation(error: unknown): boolean {
  return foreignKeyViolation(error) !== undefined;
}

export function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** Builds a tree from rows with id/parentId (orphans become roots), children sorted by `sort` then id. */
export function buildTree<T extends { id: number; parentId: number | null; sort: number }>(
  rows: T[],
): (T & { children: (T & { children: unknown[] })[] })[] {
  type Node = T & { children: Node[] };
  const nodes = new Map<number, Node>(rows.map((r) => [r.id, { ...r, children: [] }]));
  const roots: Node[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    if (parent === undefined) roots.push(node);
    else parent.children.push(node);
  }
  const order = (list: Node[]) => {
    list.sort((a, b) => a.sort - b.sort || a.id - b.id);
    list.forEach((n) => order(n.children));
  };
  order(roots);
  return roots;
}
