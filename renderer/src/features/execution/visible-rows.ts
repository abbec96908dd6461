/**
 * The execution tree's visible rows: the nodes of a {@link RunStructure} in display order
 * (depth first, children in arrival order), skipping the descendants of collapsed nodes.
 * Kept incrementally: a node that arrives is spliced in after its parent's subtree, collapsing
 * removes the node's block of rows and expanding inserts its subtree, so neither walks the
 * whole tree. Only a rebuilt structure (a node moved) or a large burst of arrivals re-walks it.
 */
import type { RunStructure } from '../../state/run-structure';
import { walkDepthFirst } from '../../../../shared/depth-first';

/** Above this many unseen arrivals one walk of the tree is cheaper than splicing each in. */
const REWALK_FROM = 512;

/** Visible rows of one run's tree, with the collapsed set. Mutable; {@link version} counts changes. */
export class VisibleRows {
  /** Node ids in display order, and the aria-level of each row (1 for a root). */
  private ids: string[] = [];
  private levels: number[] = [];
  private readonly collapsed = new Set<string>();
  private structure: RunStructure | undefined;
  /** How much of `structure.order` and which rebuild the rows reflect. */
  private seen = 0;
  private seenRebuilds = -1;
  private shot: { version: number; ids: readonly string[] } | undefined;
  /** Bumped whenever the rows or the collapsed set change. */
  version = 0;

  /** Catches up with the structure (attaching to it on first call). Cheap when nothing changed. */
  sync(structure: RunStructure | undefined): void {
    if (!structure) return;
    if (structure !== this.structure || structure.rebuilds !== this.seenRebuilds || structure.order.length - this.seen > REWALK_FROM) {
      this.structure = structure;
      this.rewalk();
      return;
    }
    if (this.seen === structure.order.length) return;
    for (; this.seen < structure.order.length; this.seen++) this.arrive(structure.order[this.seen]);
    this.version++;
  }

  get length(): number {
    return this.ids.length;
  }

  /** Node id of row `i` (0-based). */
  id(i: number): string {
    return this.ids[i];
  }

  /** aria-level of row `i` (1 for a root). */
  levelAt(i: number): number {
    return this.levels[i];
  }

  /**
   * Whether the node has a row: it is in the rows so far, a root leads to it, and no ancestor
   * is collapsed. O(1) while nothing is collapsed, else O(depth).
   */
  isVisible(id: string): boolean {
    const s = this.structure;
    if (!s || s.depth(id) < 0) return false;
    const at = s.arrival(id);
    if (at < 0 || at >= this.seen) return false;
    if (this.collapsed.size === 0) return true;
    for (let a = s.parentOf(id); a !== undefined; a = s.parentOf(a)) if (this.collapsed.has(a)) return false;
    return true;
  }

  /** Row index of a node; -1 when it is not visible. O(rows). */
  indexOf(id: string): number {
    return this.isVisible(id) ? this.ids.indexOf(id) : -1;
  }

  isCollapsed(id: string): boolean {
    return this.collapsed.has(id);
  }

  /** Node ids in display order: a copy (do not change it), the same array until the rows change. */
  snapshot(): readonly string[] {
    if (this.shot?.version !== this.version) this.shot = { version: this.version, ids: this.ids.slice() };
    return this.shot.ids;
  }

  /** Hides the node's descendants. False when it was already collapsed. */
  collapse(id: string): boolean {
    this.sync(this.structure);
    if (this.collapsed.has(id)) return false;
    this.collapsed.add(id);
    const i = this.indexOf(id);
    if (i >= 0) {
      const level = this.levels[i];
      let end = i + 1;
      while (end < this.levels.length && this.levels[end] > level) end++;
      this.ids.splice(i + 1, end - i - 1);
      this.levels.splice(i + 1, end - i - 1);
    }
    this.version++;
    return true;
  }

  /** Shows the node's children (and their subtrees, as far as they are expanded). False when it was not collapsed. */
  expand(id: string): boolean {
    this.sync(this.structure);
    if (!this.collapsed.delete(id)) return false;
    const i = this.indexOf(id);
    if (i >= 0 && this.structure) {
      const ids: string[] = [];
      const levels: number[] = [];
      this.walk(this.structure.children(id), this.levels[i] + 1, ids, levels);
      this.ids = this.ids.slice(0, i + 1).concat(ids, this.ids.slice(i + 1));
      this.levels = this.levels.slice(0, i + 1).concat(levels, this.levels.slice(i + 1));
    }
    this.version++;
    return true;
  }

  /** Collapses an expanded node, expands a collapsed one. */
  toggle(id: string): void {
    if (!this.expand(id)) this.collapse(id);
  }

  /** A node that arrived last among its siblings: visible when its parent is shown and expanded. */
  private arrive(id: string): void {
    const s = this.structure!;
    const parent = s.parentOf(id);
    // The newest root comes after every other root's subtree.
    let at = this.ids.length;
    if (parent !== undefined) {
      if (s.depth(id) < 0 || !this.isVisible(parent) || this.collapsed.has(parent)) return;
      at = this.afterSubtree(parent);
    }
    if (at === this.ids.length) {
      this.ids.push(id);
      this.levels.push(s.depth(id) + 1);
    } else {
      this.ids.splice(at, 0, id);
      this.levels.splice(at, 0, s.depth(id) + 1);
    }
  }

  /**
   * Row index just past the visible subtree of `id`: the row of the first shown node that
   * follows it, i.e. the next shown sibling of it or of its nearest ancestor that has one.
   */
  private afterSubtree(id: string): number {
    const s = this.structure!;
    // Most arrivals land at the end (a run grows at its newest node): when the last row is `id`
    // or below it, its subtree ends the rows. Found by walking up from the last row only as far
    // as `id`'s depth, so a chain growing at its tip costs O(1) a node, not O(depth).
    const d = s.depth(id);
    let a: string | undefined = this.ids[this.ids.length - 1];
    while (a !== undefined && a !== id && s.depth(a) > d) a = s.parentOf(a);
    if (a === id) return this.ids.length;
    for (let up: string | undefined = id; up !== undefined; up = s.parentOf(up)) {
      const sibs = s.siblings(up);
      // Its siblings are visible (it is), so the first one already in the rows is the next row.
      for (let k = s.position(up) + 1; k < sibs.length; k++) if (s.arrival(sibs[k]) < this.seen) return this.ids.indexOf(sibs[k]);
    }
    return this.ids.length;
  }

  /** Rebuilds the rows from the whole structure. */
  private rewalk(): void {
    const s = this.structure!;
    this.ids = [];
    this.levels = [];
    this.walk(s.roots, 1, this.ids, this.levels);
    this.seen = s.order.length;
    this.seenRebuilds = s.rebuilds;
    this.version++;
  }

  /** Appends `ids` and their expanded descendants, depth first, to `out` (iterative: any depth). */
  private walk(ids: readonly string[], level: number, out: string[], outLevels: number[]): void {
    const s = this.structure!;
    walkDepthFirst(ids, (id) => (this.collapsed.has(id) ? undefined : s.children(id)), (id, l) => {
      out.push(id);
      outLevels.push(level + l - 1);
    });
  }
}
