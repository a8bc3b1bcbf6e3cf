/** The id/children trees some grids show (organisations, resources, dictionaries). */
export type TreeNode = { id: number; children: TreeNode[] };

export function flatten<T extends { id: number; children: T[] }>(nodes: readonly T[]): T[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children)]);
}

/** The nodes that match, with their ancestors (a filtered tree). */
export function filterTree<T extends { id: number; children: T[] }>(
  nodes: readonly T[],
  matches: (node: T) => boolean,
): T[] {
  return nodes.flatMap((node) => {
    const children = filterTree(node.children, matches);
    return matches(node) || children.length > 0 ? [{ ...node, children }] : [];
  });
}

/** Leaves without a `children` array, so a table shows no expand button on them. */
export function withoutEmptyChildren<T extends { id: number; children: T[] }>(nodes: readonly T[]): T[] {
  return nodes.map((n) =>
    n.children.length === 0
      ? ({ ...n, children: undefined } as unknown as T)
      : { ...n, children: withoutEmptyChildren(n.children) },
  );
}
