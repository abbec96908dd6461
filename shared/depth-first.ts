/**
 * A depth-first walk of a tree given by its roots and a children function, with a stack of
 * sibling lists instead of recursion, so a tree nested any number of levels walks (a chain of
 * 100,000 nested nodes overflowed the call stack of a recursive walk; docs/architecture.md#the-execution-tree).
 */

/**
 * Calls `visit` for each node in depth-first order (a node, then its children's subtrees in
 * order) with its level (1 for a root), its 0-based position and its siblings. `children`
 * returning undefined or an empty list stops the walk there (a leaf, or a folded node).
 */
export function walkDepthFirst<T>(roots: readonly T[], children: (node: T) => readonly T[] | undefined, visit: (node: T, level: number, index: number, siblings: readonly T[]) => void): void {
  const stack: { list: readonly T[]; i: number }[] = [{ list: roots, i: 0 }];
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (top.i >= top.list.length) {
      stack.pop();
      continue;
    }
    const index = top.i++;
    const node = top.list[index];
    visit(node, stack.length, index, top.list);
    const below = children(node);
    if (below?.length) stack.push({ list: below, i: 0 });
  }
}
