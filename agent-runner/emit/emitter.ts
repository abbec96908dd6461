/**
 * The runner's outgoing stream (docs/architecture.md#sequence-and-snapshots): numbers each node's deltas from 1
 * without holes across channels, coalesces deltas per node, channel and call index
 * (at most `flushMs` or `maxBytes`), flushes on a timer so the last token never waits for the
 * next event, and flushes a node's deltas before any `tree_update` of that node. A live node's
 * changes (`node_update`: status, attrs, log lines) are merged per node the same way, within
 * `flushMs`, and also go out before the node's next `tree_update`.
 */
import type { LlmDelta, RunnerEnvelope, DeltaChannel, NodeChange } from '../../shared/protocol/envelopes';
import type { ExecNode } from '../../shared/protocol/nodes';
import type { LlmRecord, RunnerToHost } from '../../shared/protocol/runner';
import { RecordChain } from './record-chain';
import { mergeChanges } from '../../shared/stream/node-change';

export interface EmitterOptions {
  /** Longest a delta waits in a buffer, ms. Default 16. */
  flushMs?: number;
  /** Buffer size that forces a flush, UTF-16 code units (≈ bytes for ASCII). Default 8192. */
  maxBytes?: number;
  /**
   * Resolves when what was posted has left this process (the link's backpressure:
   * shared/process-port.node.ts `flushLink`). Default: at once.
   */
  drained?: () => Promise<void>;
  /** The host's bound for one `llm_record`, JSON length. Default 32 MiB (shared/protocol/frame-limits.ts). */
  maxRecordBytes?: number;
}

interface Buffer {
  nodeId: string;
  channel: DeltaChannel;
  index: number;
  toolCallId?: string;
  toolName?: string;
  text: string;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** Posts envelopes for one run. `post` is the runner's port. */
export class RunEmitter {
  private readonly seq = new Map<string, number>();
  private readonly buffers = new Map<string, Buffer>();
  /** Pending changes of live nodes, by node id, posted together on one timer. */
  private readonly changes = new Map<string, Omit<NodeChange, 'nodeId'>>();
  private changeTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly flushMs: number;
  private readonly maxBytes: number;
  private closed = false;

  constructor(
    readonly runId: string,
    private readonly post: (message: RunnerToHost) => void,
    options: EmitterOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 16;
    this.maxBytes = options.maxBytes ?? 8192;
    this.drainedFn = options.drained;
    this.records = new RecordChain(options.maxRecordBytes);
  }

  private readonly records: RecordChain;

  private readonly drainedFn: (() => Promise<void>) | undefined;

  /**
   * Resolves when everything posted so far has left the process. A run that posts large
   * messages back to back (a time travel playing a long run's recorded calls at once, each
   * with its whole request) waits on it, so they do not pile up in this process's memory.
   */
  drained(): Promise<void> {
    return this.drainedFn?.() ?? Promise.resolve();
  }

  /**
   * Queue a delta; it is posted within `flushMs`, or at once when its buffer is full. A
   * `tool_args` delta carries its call's id and tool name when known.
   */
  delta(nodeId: string, channel: DeltaChannel, index: number, text: string, toolCallId?: string, toolName?: string): void {
    if (this.closed || text === '') return;
    const key = `${nodeId}\u0000${channel}\u0000${index}`;
    let b = this.buffers.get(key);
    if (!b) {
      b = { nodeId, channel, index, toolCallId, text: '', timer: undefined };
      this.buffers.set(key, b);
    }
    b.text += text;
    if (toolCallId) b.toolCallId = toolCallId;
    if (toolName) b.toolName = toolName;
    if (b.text.length >= this.maxBytes) {
      this.flushBuffer(key, b);
    } else if (!b.timer) {
      const buf = b;
      b.timer = setTimeout(() => this.flushBuffer(key, buf), this.flushMs);
    }
  }

  private flushBuffer(key: string, b: Buffer): void {
    if (b.timer) clearTimeout(b.timer);
    this.buffers.delete(key);
    if (!b.text) return;
    const seq = (this.seq.get(b.nodeId) ?? 0) + 1;
    this.seq.set(b.nodeId, seq);
    const env: LlmDelta = {
      v: 1,
      type: 'llm_delta',
      runId: this.runId,
      nodeId: b.nodeId,
      channel: b.channel,
      index: b.index,
      delta: b.text,
      seq,
    };
    if (b.toolCallId) env.toolCallId = b.toolCallId;
    if (b.toolName) env.toolName = b.toolName;
    this.post(env);
  }

  /**
   * Queue a change of a live node (`node_update`); it is merged with the node's other pending
   * changes and posted within `flushMs`, or before the node's next `tree_update`.
   */
  update(nodeId: string, change: Omit<NodeChange, 'nodeId'>): void {
    if (this.closed) return;
    const pending = this.changes.get(nodeId);
    this.changes.set(nodeId, pending ? mergeChanges(pending, change) : { ...change });
    this.changeTimer ??= setTimeout(() => {
      this.changeTimer = undefined;
      this.flushChanges();
    }, this.flushMs);
  }

  private flushChanges(only?: Set<string>): void {
    for (const [nodeId, change] of [...this.changes]) {
      if (only && !only.has(nodeId)) continue;
      this.changes.delete(nodeId);
      this.post({ v: 1, type: 'node_update', runId: this.runId, nodeId, ...change });
    }
    if (this.changes.size === 0 && this.changeTimer) {
      clearTimeout(this.changeTimer);
      this.changeTimer = undefined;
    }
  }

  /** Flush every buffered delta and pending change of these nodes (all nodes when omitted). */
  flush(nodeIds?: Iterable<string>): void {
    const only = nodeIds ? new Set(nodeIds) : undefined;
    for (const [key, b] of [...this.buffers]) {
      if (!only || only.has(b.nodeId)) this.flushBuffer(key, b);
    }
    this.flushChanges(only);
  }

  /** Upsert whole nodes (open, close), after flushing their pending deltas and changes. */
  tree(nodes: ExecNode[]): void {
    if (this.closed || nodes.length === 0) return;
    this.flush(nodes.map((n) => n.id));
    this.post({ v: 1, type: 'tree_update', runId: this.runId, nodes: nodes.map((n) => ({ ...n })) });
  }

  /**
   * A model call's record, its request whole: posted as what the request adds to the last
   * record's (record-chain.ts). Flushes everything first.
   */
  record(rec: LlmRecord): void {
    this.send(this.records.next(rec));
  }

  /** Any other message (run_result, log). Flushes everything first. */
  send(message: RunnerEnvelope | RunnerToHost): void {
    if (this.closed) return;
    this.flush();
    this.post(message);
  }

  /** Stop all timers; nothing more is posted. */
  close(): void {
    this.flush();
    this.closed = true;
  }
}
