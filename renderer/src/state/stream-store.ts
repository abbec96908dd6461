/**
 * The renderer's live execution-tree state (docs/architecture.md#renderer). Pushes feed a {@link StreamConsumer}
 * (the shared protocol logic: seq, gaps, snapshots, terminal rule) whose per-node buffers take
 * every frame at once. Atoms are set at most once per animation frame per dirty node, so only
 * rows whose node changed re-render. Tool arguments are parsed incrementally as their deltas
 * arrive; their partial value is built at that time (at most once per frame per call). Tree
 * structure (kind, name, parent links) lives in per-run atoms that change only when a
 * `tree_update` adds, renames or moves a node; the structure itself is kept incrementally
 * ({@link RunStructure}), so a growing tree costs O(new nodes) per frame.
 */
import { atom, type PrimitiveAtom } from 'jotai';
import { atomFamily, type AtomFamily } from 'jotai-family';
import { isTerminal } from '../../../shared/protocol/status';
import { StreamConsumer, type LiveNode } from '../../../shared/stream/consumer';
import type { ExecNode, NodeStatus } from '../../../shared/protocol/nodes';
import type { HostPush, RunRecord } from '../../../shared/protocol/host-api';
import type { StreamEnvelope } from '../../../shared/protocol/envelopes';
import type { RunMode } from '../../../shared/thread/schema';
import { nextFrame, type FrameScheduler } from '../host/frame';
import { ToolArgsParse, type ArgsWork } from './tool-args-parse';
import { RunStructure } from './run-structure';

/** What one execution-tree row shows. A new object per frame in which the node changed. */
export interface NodeView {
  nodeId: string;
  node?: ExecNode;
  status: NodeStatus;
  text: string;
  thinking: string;
  /** Raw argument text per tool-call index. */
  toolArgs: Record<number, string>;
  /** The raw arguments parsed as (partial) JSON; undefined where nothing parses yet. */
  args: Record<number, unknown>;
  /** A snapshot request is in flight (a gap was seen). */
  syncing: boolean;
}

/**
 * What a run's tree atom holds: the run's structure (its node ids, parents, kinds and names —
 * no output, that is in the node atoms), changed in place only when a frame is published (read
 * it at render time), and a version that changes with every structural change, so subscribers
 * re-render. Not the runner's `RunTree` (agent-runner/loop/tree.ts), which builds the nodes.
 */
export interface RunTreeState {
  runId: string;
  version: number;
  structure: RunStructure;
}

/** A run the execution panel lists (not the bridge's `RunInfo`, a live run's identity). */
export interface ListedRun {
  runId: string;
  threadId?: string;
  mode?: RunMode;
  status: NodeStatus;
  /** Loaded from a stored record (read-only), not streaming. */
  stored?: boolean;
}

/** The Jotai store surface this module needs (`createStore()` satisfies it). */
export interface AtomStore {
  get<V>(a: PrimitiveAtom<V>): V;
  set<V>(a: PrimitiveAtom<V>, v: V): void;
}

export interface StreamStoreOptions {
  /** Ask the host for a node snapshot (`stream.snapshot`). A rejection ends syncing. */
  requestSnapshot(runId: string, nodeId: string): Promise<unknown> | void;
  schedule?: FrameScheduler;
  /** Stream time in ms (default `performance.now`); benchmarks that simulate time pass theirs. */
  clock?: () => number;
}

/** Live stream state for one window. */
export class StreamStore {
  readonly nodeAtom: AtomFamily<string, PrimitiveAtom<NodeView | undefined>> = atomFamily((_id: string) =>
    atom<NodeView | undefined>(undefined),
  );
  readonly runTreeAtom: AtomFamily<string, PrimitiveAtom<RunTreeState | undefined>> = atomFamily((_runId: string) =>
    atom<RunTreeState | undefined>(undefined),
  );
  readonly runsAtom: PrimitiveAtom<ListedRun[]> = atom<ListedRun[]>([]);

  private readonly consumer: StreamConsumer;
  private readonly dirty = new Set<string>();
  /** Nodes of `tree_update`s per run, taken into the run's structure at the next frame. */
  private readonly pendingTrees = new Map<string, ExecNode[]>();
  private readonly trees = new Map<string, RunStructure>();
  private readonly nodeRun = new Map<string, string>();
  /** Parse state of each node's tool-call arguments, by node id then call index. */
  private readonly parses = new Map<string, Map<number, ToolArgsParse>>();
  private scheduled = false;
  /** Frames flushed so far (tests). */
  flushes = 0;

  private readonly clock: () => number;

  constructor(
    private readonly store: AtomStore,
    private readonly opts: StreamStoreOptions,
  ) {
    this.clock = opts.clock ?? (() => performance.now());
    this.consumer = new StreamConsumer({
      changed: (nodeId) => this.markDirty(nodeId),
      requestSnapshot: (nodeId, runId) => {
        let res: Promise<unknown> | void;
        try {
          res = this.opts.requestSnapshot(runId, nodeId);
        } catch (err) {
          res = Promise.reject(err);
        }
        // When the request itself fails no snapshot will come: end syncing (docs/architecture.md#sequence-and-snapshots: never a loop).
        Promise.resolve(res).catch(() => this.apply({ v: 1, type: 'node_snapshot', runId, nodeId, available: false }));
      },
      toolArgsAppended: (nodeId, index, delta) => this.argsParse(nodeId, index).append(delta),
      toolArgsReplaced: (nodeId) => this.parses.get(nodeId)?.forEach((p) => p.replaced()),
    });
  }

  /** The consumer's buffer for a node (tests, detail panel). */
  live(nodeId: string): LiveNode | undefined {
    return this.consumer.get(nodeId);
  }

  /** Feed one push. Envelopes other than stream ones and non-run events are ignored here. */
  apply(push: HostPush): void {
    switch (push.type) {
      case 'tree_update':
        this.noteStructure(push.runId, push.nodes);
        this.consumer.apply(push);
        for (const n of push.nodes) if (n.kind === 'run' && !n.parentId) this.setRun({ runId: push.runId, status: n.status });
        return;
      case 'node_update': {
        // Only what changed in a live node; the root's live status is the run's.
        if (!this.consumer.apply(push) || !push.status) return;
        // The structure takes a frame's tree_updates at the flush: look in the pending ones too.
        const meta = this.trees.get(push.runId)?.meta(push.nodeId) ?? this.pendingTrees.get(push.runId)?.find((n) => n.id === push.nodeId);
        if (meta?.kind === 'run' && !meta.parentId) this.setRun({ runId: push.runId, status: push.status });
        return;
      }
      case 'llm_delta':
      case 'node_snapshot':
        if (!this.nodeRun.has(push.nodeId)) this.nodeRun.set(push.nodeId, push.runId);
        this.consumer.apply(push as StreamEnvelope);
        return;
      case 'run_started':
        this.setRun({ runId: push.runId, threadId: push.threadId, mode: push.mode, status: 'running' });
        return;
      case 'run_ended':
        this.setRun({ runId: push.runId, threadId: push.threadId, status: push.status });
        return;
      default:
        return;
    }
  }

  /** Show a stored run (read-only) through the same rows as live ones. */
  loadRecord(record: RunRecord): void {
    if (record.nodes.length > 0) this.apply({ v: 1, type: 'tree_update', runId: record.runId, nodes: record.nodes });
    this.setRun({ runId: record.runId, threadId: record.threadId, mode: record.mode, status: record.status, stored: true });
  }

  /** Forget a run: its buffers, its node atoms (`atomFamily.remove`) and its tree atom. */
  releaseRun(runId: string): void {
    for (const [nodeId, r] of this.nodeRun) {
      if (r !== runId) continue;
      this.consumer.release(nodeId);
      this.parses.delete(nodeId);
      this.dirty.delete(nodeId);
      this.nodeRun.delete(nodeId);
      this.nodeAtom.remove(nodeId);
    }
    this.trees.delete(runId);
    this.pendingTrees.delete(runId);
    this.runTreeAtom.remove(runId);
    this.store.set(this.runsAtom, this.store.get(this.runsAtom).filter((r) => r.runId !== runId));
  }

  /** Runs currently held, newest last. */
  runs(): ListedRun[] {
    return this.store.get(this.runsAtom);
  }

  private setRun(info: ListedRun): void {
    const runs = this.store.get(this.runsAtom);
    const i = runs.findIndex((r) => r.runId === info.runId);
    if (i < 0) {
      this.store.set(this.runsAtom, [...runs, info]);
      return;
    }
    const prev = runs[i];
    const merged: ListedRun = { ...prev, ...Object.fromEntries(Object.entries(info).filter(([, v]) => v !== undefined)) };
    if (merged.status === prev.status && merged.threadId === prev.threadId && merged.mode === prev.mode && merged.stored === prev.stored) return;
    const next = runs.slice();
    next[i] = merged;
    this.store.set(this.runsAtom, next);
  }

  private noteStructure(runId: string, nodes: ExecNode[]): void {
    for (const n of nodes) this.nodeRun.set(n.id, runId);
    // The structure changes only when the frame is published, so a render between two frames
    // never sees a tree ahead of its atoms.
    const pending = this.pendingTrees.get(runId);
    if (pending) for (const n of nodes) pending.push(n);
    else this.pendingTrees.set(runId, nodes.slice());
    this.schedule();
  }

  private markDirty(nodeId: string): void {
    this.dirty.add(nodeId);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    (this.opts.schedule ?? nextFrame)(() => this.flush());
  }

  /** Publish dirty nodes and trees to their atoms (once per frame; callable directly in tests). */
  flush(): void {
    this.scheduled = false;
    this.flushes++;
    for (const [runId, nodes] of this.pendingTrees) {
      let t = this.trees.get(runId);
      if (!t) this.trees.set(runId, (t = new RunStructure(runId)));
      if (t.noteAll(nodes)) this.store.set(this.runTreeAtom(runId), { runId, version: (this.store.get(this.runTreeAtom(runId))?.version ?? 0) + 1, structure: t });
    }
    this.pendingTrees.clear();
    for (const nodeId of this.dirty) {
      const live = this.consumer.get(nodeId);
      if (live) this.store.set(this.nodeAtom(nodeId), this.view(live));
    }
    this.dirty.clear();
  }

  /** Parsing work done for tool arguments so far (see {@link ToolArgsParse.work}; tests, benchmarks). */
  get argsWork(): ArgsWork {
    const w = { read: 0, built: 0 };
    for (const calls of this.parses.values()) {
      for (const p of calls.values()) {
        w.read += p.work.read;
        w.built += p.work.built;
      }
    }
    return w;
  }

  private argsParse(nodeId: string, index: number): ToolArgsParse {
    let calls = this.parses.get(nodeId);
    if (!calls) this.parses.set(nodeId, (calls = new Map()));
    let p = calls.get(index);
    if (!p) calls.set(index, (p = new ToolArgsParse()));
    return p;
  }

  private view(live: LiveNode): NodeView {
    const args: Record<number, unknown> = {};
    const final = isTerminal(live.status);
    const now = this.clock();
    // Read at most once per frame per call; each delta was already parsed on arrival.
    for (const [k, raw] of Object.entries(live.toolArgs)) args[Number(k)] = this.argsParse(live.nodeId, Number(k)).read(raw, now, final);
    return {
      nodeId: live.nodeId,
      node: live.node,
      status: live.status,
      text: live.text,
      thinking: live.thinking,
      toolArgs: { ...live.toolArgs },
      args,
      syncing: live.syncing,
    };
  }
}
