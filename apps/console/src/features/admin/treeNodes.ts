import { flatten } from '../../app/grid/treeRows';

// Helpers over the id/children trees of organisations, resources and dictionaries (role authorisation).

/** Parent id of every node, by id. */
export function parentsOf<T extends { id: number; children: T[] }>(
  nodes: readonly T[],
  parent: number | null = null,
  into = new Map<number, number | null>(),
): Map<number, number | null> {
  for (const node of nodes) {
    into.set(node.id, parent);
    parentsOf(node.children, node.id, into);
  }
  return into;
}

/** Ids of a node's descendants. */
export function descendantsOf<T extends { id: number; children: T[] }>(node: T): number[] {
  return node.children.flatMap((c) => [c.id, ...descendantsOf(c)]);
}

/** Ids of a node's ancestors, nearest first. */
export function ancestorsOf(id: number, parents: Map<number, number | null>): number[] {
  const result: number[] = [];
  for (let p = parents.get(id) ?? null; p !== null; p = parents.get(p) ?? null) result.push(p);
  return result;
}

/**
 * Menu authorisation ticks exactly what a role holds (a menu grants itself, not its subtree). Ticking
 * a node also ticks its ancestors (a granted page keeps its menu group); unticking one unticks its
 * descendants (nothing granted below a menu the role no longer has).
 */
export function toggleGrant<T extends { id: number; children: T[] }>(
  tree: readonly T[],
  checked: ReadonlySet<number>,
  id: number,
  on: boolean,
): Set<number> {
  const next = new Set(checked);
  const node = flatten(tree).find((n) => n.id === id);
  if (node === undefined) return next;
  if (on) {
    next.add(id);
    for (const a of ancestorsOf(id, parentsOf(tree))) next.add(a);
  } else {
    next.delete(id);
    for (const d of descendantsOf(node)) next.delete(d);
  }
  return next;
}
