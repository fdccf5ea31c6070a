// The call tree laid out as an icicle: the outermost calls in the top row, each callee
// under its caller, every box as wide as its share of all samples. Pure, so the layout
// is tested without a browser; Icicle.svelte draws it.

import type { CallNode, StageProfile } from '../../../core/profile/profile.ts';

export interface IcicleBox {
  fn: number;
  depth: number;
  /** Left edge and width, as fractions of the whole width. */
  x: number;
  width: number;
  /** Share of all samples with this call path on the stack, and on top of it. */
  totalPercent: number;
  selfPercent: number;
}

/**
 * The boxes of `profile`'s call tree, down to `maxDepth` rows, each row left to right;
 * a box under `least` of the width (and all under it) is left out, too thin to see.
 */
export function icicleBoxes(profile: StageProfile, maxDepth = 10, least = 0.01): IcicleBox[] {
  const all = profile.tree.totalSamples;
  const boxes: IcicleBox[] = [];
  if (all === 0) return boxes;
  const place = (node: CallNode, depth: number, x: number) => {
    let left = x;
    for (const child of node.children) {
      const width = child.totalSamples / all;
      if (width < least) {
        left += width;
        continue;
      }
      boxes.push({
        fn: child.fn,
        depth,
        x: left,
        width,
        totalPercent: (100 * child.totalSamples) / all,
        selfPercent: (100 * child.selfSamples) / all,
      });
      if (depth + 1 < maxDepth) place(child, depth + 1, left);
      left += width;
    }
  };
  place(profile.tree, 0, 0);
  return boxes;
}

/** The path the most samples went down: the outermost call first. */
export function widestPath(profile: StageProfile): CallNode[] {
  const path: CallNode[] = [];
  for (let node = profile.tree; node.children.length > 0; ) {
    node = node.children.reduce((a, b) => (b.totalSamples > a.totalSamples ? b : a));
    path.push(node);
  }
  return path;
}
