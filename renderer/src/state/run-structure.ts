/**
 * The structure of one run's execution tree (docs/architecture.md#the-execution-tree): which
 * node is whose child, in arrival order. Kept incrementally so that a node arriving while a
 * run streams costs O(1), not a rebuild of the whole tree: a new node is appended to its
 * parent's children and to {@link RunStructure.order}. Only a node that moves (its parent
 * changes) or the arrival of a parent that earlier nodes were waiting for rebuilds it, and
 * {@link RunStructure.rebuilds} says so, so incremental readers start over. A batch of nodes
 * ({@link RunStructure.noteAll}) rebuilds at most once, however many of its nodes need it: a
 * chain whose children came before their parents rebuilt once per parent (O(n²)).
 */
import type { NodeKind } from '../../../shared/protocol/nodes';

/** What the tree shows of a node without reading its live state. */
export interface NodeMeta {
  id: string;
  parentId?: string;
  kind: NodeKind;
  name: string;
}

const NONE: readonly string[] = [];

/**
 * One run's tree, mutated in place by the stream store. A node whose parent is not (yet) known
 * is a root; it moves under its parent once that arrives. Children keep arrival order.
 */
export class RunStructure {
  private readonly metas = new Map<string, NodeMeta>();
  private readonly kids = new Map<string, string[]>();
  private readonly rootIds: string[] = [];
  /** 0-based position of each node among its siblings. */
  private readonly pos = new Map<string, number>();
  /** Distance from its root (0 for a root); none for a node no root leads to (a cycle). */
  private readonly depths = new Map<string, number>();
  /** Index of each node in {@link order}. */
  private readonly arrivals = new Map<string, number>();
  /** Parent ids named by nodes that arrived before them. */
  private waiting = new Set<string>();
  /** Every node id, first arrival first (append-only). */
  readonly order: string[] = [];
  /** How many times the tree was rebuilt (a node moved, or a waited-for parent arrived). */
  rebuilds = 0;

  constructor(readonly runId: string) {}

  /** Set while {@link noteAll} runs: a rebuild is owed, done once at the end of the batch. */
  private deferred: boolean | undefined;

  /** Records a batch of nodes (one `tree_update`'s, in order), rebuilding at most once; true when the tree changed. */
  noteAll(nodes: Iterable<NodeMeta>): boolean {
    this.deferred = false;
    let changed = false;
    try {
      for (const n of nodes) if (this.note(n)) changed = true;
    } finally {
      const owed = this.deferred;
      this.deferred = undefined;
      if (owed) this.rebuild();
    }
    return changed;
  }

  /** Records a node; true when the tree changed (a new node, a move, a new name or kind). */
  note(n: NodeMeta): boolean {
    const old = this.metas.get(n.id);
    const m: NodeMeta = { id: n.id, parentId: n.parentId, kind: n.kind, name: n.name };
    if (old) {
      if (old.parentId === n.parentId && old.name === n.name && old.kind === n.kind) return false;
      this.metas.set(n.id, m);
      if (old.parentId !== n.parentId) this.rebuild();
      return true;
    }
    this.metas.set(n.id, m);
    this.arrivals.set(n.id, this.order.length);
    this.order.push(n.id);
    if (this.waiting.has(n.id)) {
      this.rebuild();
      return true;
    }
    if (this.deferred) return true; // the rebuild owed at the batch's end attaches it
    const parent = this.parentOf(n.id);
    if (n.parentId && parent === undefined) this.waiting.add(n.parentId);
    this.attach(n.id, parent);
    return true;
  }

  meta(id: string): NodeMeta | undefined {
    return this.metas.get(id);
  }

  /** The node's parent in the tree: its `parentId` when that node is known, else none (a root). */
  parentOf(id: string): string | undefined {
    const p = this.metas.get(id)?.parentId;
    return p && this.metas.has(p) ? p : undefined;
  }

  /** Children in arrival order (empty for a leaf or an unknown id). */
  children(id: string): readonly string[] {
    return this.kids.get(id) ?? NONE;
  }

  /** Nodes without a known parent (normally just the run node), in arrival order. */
  get roots(): readonly string[] {
    return this.rootIds;
  }

  /** The node and its siblings (the roots for a root). */
  siblings(id: string): readonly string[] {
    const p = this.parentOf(id);
    return p === undefined ? this.rootIds : this.children(p);
  }

  /** 0-based position among its siblings; -1 for an unknown id. */
  position(id: string): number {
    return this.pos.get(id) ?? -1;
  }

  /**
   * Distance from its root: 0 for a root; -1 for an unknown id or a node no root leads to
   * (parents that form a cycle, which only hostile input makes).
   */
  depth(id: string): number {
    return this.depths.get(id) ?? -1;
  }

  /** Index of the node in {@link order}; -1 for an unknown id. */
  arrival(id: string): number {
    return this.arrivals.get(id) ?? -1;
  }

  get size(): number {
    return this.metas.size;
  }

  private attach(id: string, parent: string | undefined): void {
    let list = this.rootIds;
    if (parent !== undefined) {
      list = this.kids.get(parent) ?? [];
      this.kids.set(parent, list);
    }
    this.pos.set(id, list.length);
    const up = parent === undefined ? -1 : this.depths.get(parent);
    if (up !== undefined) this.depths.set(id, up + 1);
    list.push(id);
  }

  /** Recomputes children, roots and positions from every node's parent, in arrival order. */
  private rebuild(): void {
    if (this.deferred !== undefined) {
      // Inside a batch: later nodes of it only need the metas (attach is skipped once owed).
      this.deferred = true;
      return;
    }
    this.rebuilds++;
    this.kids.clear();
    this.pos.clear();
    this.rootIds.length = 0;
    this.waiting = new Set();
    for (const m of this.metas.values()) {
      const parent = this.parentOf(m.id);
      if (m.parentId && parent === undefined) this.waiting.add(m.parentId);
      this.attach(m.id, parent);
    }
    // A parent may have arrived after its children: depths follow the tree from its roots.
    this.depths.clear();
    const stack: [string, number][] = this.rootIds.map((id) => [id, 0]);
    for (let top = stack.pop(); top; top = stack.pop()) {
      this.depths.set(top[0], top[1]);
      for (const c of this.children(top[0])) stack.push([c, top[1] + 1]);
    }
  }
}
