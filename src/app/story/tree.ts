// Layout of the BLAKE3 tree over `chunkCount` chunks, for the intro's diagram. The shape
// follows the spec: a parent's left subtree is complete and as large as possible (the
// largest power of two of chunks that is less than the total), the right gets the rest.

export interface TreeNode {
  /** Horizontal position in chunk widths: chunk i sits at i, a parent midway over its children. */
  x: number;
  /** 0 for chunks, 1 + the higher child for parents. */
  level: number;
  kind: 'chunk' | 'parent';
  root: boolean;
  /** Index into `nodes` of the two children (parents only). */
  children?: [number, number];
}

export interface Tree {
  nodes: TreeNode[];
  /** Compressions of parent nodes: always one fewer than the chunks. */
  parents: number;
  /** Levels above the chunks (0 for a single chunk). */
  height: number;
}

export function layoutTree(chunkCount: number): Tree {
  if (!Number.isInteger(chunkCount) || chunkCount < 1) {
    throw new RangeError(`a tree needs a whole number of chunks, at least 1 (got ${chunkCount})`);
  }
  const nodes: TreeNode[] = [];

  // Builds the subtree over chunks [first, first + count); returns its node's index.
  function build(first: number, count: number): number {
    if (count === 1) {
      nodes.push({ x: first, level: 0, kind: 'chunk', root: false });
      return nodes.length - 1;
    }
    let left = 1;
    while (left * 2 < count) left *= 2;
    const a = build(first, left);
    const b = build(first + left, count - left);
    const level = 1 + Math.max(nodes[a].level, nodes[b].level);
    nodes.push({ x: (nodes[a].x + nodes[b].x) / 2, level, kind: 'parent', root: false, children: [a, b] });
    return nodes.length - 1;
  }

  const root = build(0, chunkCount);
  nodes[root].root = true;
  return { nodes, parents: chunkCount - 1, height: nodes[root].level };
}
