/**
 * The runner's outgoing stream (docs/architecture.md#sequence-and-snapshots): numbers each node's deltas from 1
 * without holes across channels, coalesces deltas per node, channel and call index
 * (at most `flushMs` or `maxBytes`), flushes on a timer so the last token never waits for the
 * next event, and flushes a node's deltas before any `tree_update` of that node.
 */
import type { LlmDelta, RunnerEnvelope, DeltaChannel } from '../../shared/protocol/envelopes';
import type { ExecNode } from '../../shared/protocol/nodes';
import type { RunnerToHost } from '../../shared/protocol/runner';

export interface EmitterOptions {
  /** Longest a delta waits in a buffer, ms. Default 16. */
  flushMs?: number;
  /** Buffer size that forces a flush, UTF-16 code units (≈ bytes for ASCII). Default 8192. */
  maxBytes?: number;
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

  /** Flush every buffered delta of these nodes (all nodes when omitted). */
  flush(nodeIds?: Iterable<string>): void {
    const only = nodeIds ? new Set(nodeIds) : undefined;
    for (const [key, b] of [...this.buffers]) {
      if (!only || only.has(b.nodeId)) this.flushBuffer(key, b);
    }
  }

  /** Upsert nodes, after flushing their pending deltas. */
  tree(nodes: ExecNode[]): void {
    if (this.closed || nodes.length === 0) return;
    this.flush(nodes.map((n) => n.id));
    this.post({ v: 1, type: 'tree_update', runId: this.runId, nodes: nodes.map((n) => ({ ...n })) });
  }

  /** Any other message (run_result, llm_record, log). Flushes everything first. */
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
