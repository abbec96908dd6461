/**
 * The consumer side of the stream protocol (docs/architecture.md#sequence-and-snapshots): assembles each node's
 * live text, thinking and tool arguments from envelopes, detects gaps and asks for snapshots.
 * Used by every consumer of envelopes: the renderer store, the CLI and the bridge replica.
 * It is mutable on purpose: one delta costs one string append, never a copy of the node.
 */
import type { ExecNode } from '../protocol/nodes';
import { isTerminal, type NodeStatus } from '../protocol/status';
import type { NodeUpdate, StreamEnvelope } from '../protocol/envelopes';
import { applyNodeChange } from './node-change';

/** What a consumer shows for one node. */
export interface LiveNode {
  nodeId: string;
  /** Latest node metadata from tree_update (absent until the first one arrives). */
  node?: ExecNode;
  text: string;
  thinking: string;
  /** Raw tool-argument text per tool-call index. */
  toolArgs: Record<number, string>;
  status: NodeStatus;
  /** Last applied delta seq. */
  seq: number;
  /** A snapshot request is in flight. */
  syncing: boolean;
  snapshotRequests: number;
  /** After `available: false`: take the next delta as the new baseline whatever its seq. */
  rebase: boolean;
}

export interface ConsumerHooks {
  /** Ask the bridge for one node's snapshot; called at most once per gap. */
  requestSnapshot?(nodeId: string, runId: string): void;
  /** A node's shown state changed. */
  changed?(nodeId: string): void;
  /** Tool call `index`'s argument text grew by `delta` (appended), for incremental parsers. */
  toolArgsAppended?(nodeId: string, index: number, delta: string): void;
  /** A node's argument texts were replaced (snapshot, final output), not appended to. */
  toolArgsReplaced?(nodeId: string): void;
}

function textOf(output: unknown): { text?: string; thinking?: string } {
  if (!output || typeof output !== 'object') return {};
  const o = output as { text?: unknown; thinking?: unknown };
  return {
    text: typeof o.text === 'string' ? o.text : undefined,
    thinking: typeof o.thinking === 'string' ? o.thinking : undefined,
  };
}

/** Assembles live node state from envelopes. */
export class StreamConsumer {
  readonly nodes = new Map<string, LiveNode>();
  constructor(private readonly hooks: ConsumerHooks = {}) {}

  get(nodeId: string): LiveNode | undefined {
    return this.nodes.get(nodeId);
  }

  /** Forget a node (a finished run's live buffers are released). */
  release(nodeId: string): void {
    this.nodes.delete(nodeId);
  }

  private entry(nodeId: string, status: NodeStatus = 'running'): LiveNode {
    let n = this.nodes.get(nodeId);
    if (!n) {
      n = { nodeId, text: '', thinking: '', toolArgs: {}, status, seq: 0, syncing: false, snapshotRequests: 0, rebase: false };
      this.nodes.set(nodeId, n);
    }
    return n;
  }

  /** Apply one envelope. Returns true if any shown state changed. */
  apply(env: StreamEnvelope): boolean {
    switch (env.type) {
      case 'tree_update': {
        let changed = false;
        for (const node of env.nodes) changed = this.applyNode(node) || changed;
        return changed;
      }
      case 'node_update':
        return this.applyUpdate(env);
      case 'llm_delta':
        return this.applyDelta(env.nodeId, env.runId, env.channel, env.index, env.delta, env.seq);
      case 'node_snapshot':
        return this.applySnapshot(env);
    }
  }

  private applyNode(node: ExecNode): boolean {
    const n = this.entry(node.id, node.status);
    if (isTerminal(n.status) && n.node) return false; // a terminal node never reopens
    if (isTerminal(n.status) && !isTerminal(node.status)) return false;
    n.node = node;
    n.status = node.status;
    if (isTerminal(node.status)) {
      const out = textOf(node.output);
      if (out.text !== undefined) n.text = out.text;
      if (out.thinking !== undefined) n.thinking = out.thinking;
      const calls = (node.output as { toolCalls?: { arguments?: unknown; rawArguments?: string }[] } | undefined)?.toolCalls;
      if (Array.isArray(calls)) {
        calls.forEach((c, i) => {
          n.toolArgs[i] = c.rawArguments ?? JSON.stringify(c.arguments ?? {});
        });
        this.hooks.toolArgsReplaced?.(node.id);
      }
      n.syncing = false;
      n.rebase = false;
    }
    this.hooks.changed?.(node.id);
    return true;
  }

  /**
   * A live node's change (node-change.ts). Ignored for a node no tree_update announced (there
   * is nothing to change; the next whole node carries it) and for a terminal node.
   */
  private applyUpdate(u: NodeUpdate): boolean {
    const n = this.nodes.get(u.nodeId);
    if (!n?.node || isTerminal(n.status)) return false;
    n.node = applyNodeChange(n.node, u);
    n.status = n.node.status;
    this.hooks.changed?.(u.nodeId);
    return true;
  }

  private applyDelta(nodeId: string, runId: string, channel: string, index: number, delta: string, seq: number): boolean {
    const n = this.entry(nodeId);
    if (isTerminal(n.status) || n.syncing) return false;
    if (n.rebase) {
      n.rebase = false;
    } else if (seq <= n.seq) {
      return false;
    } else if (seq > n.seq + 1) {
      n.syncing = true;
      n.snapshotRequests++;
      this.hooks.requestSnapshot?.(nodeId, runId);
      this.hooks.changed?.(nodeId);
      return true;
    }
    n.seq = seq;
    if (channel === 'text') n.text += delta;
    else if (channel === 'thinking') n.thinking += delta;
    else {
      n.toolArgs[index] = (n.toolArgs[index] ?? '') + delta;
      this.hooks.toolArgsAppended?.(nodeId, index, delta);
    }
    this.hooks.changed?.(nodeId);
    return true;
  }

  private applySnapshot(env: Extract<StreamEnvelope, { type: 'node_snapshot' }>): boolean {
    const existing = this.nodes.get(env.nodeId);
    if (existing && isTerminal(existing.status)) return false;
    if ('available' in env) {
      if (!existing || !existing.syncing) return false;
      existing.syncing = false;
      existing.rebase = true;
      this.hooks.changed?.(env.nodeId);
      return true;
    }
    const n = existing ?? this.entry(env.nodeId, env.status);
    if (env.seq < n.seq) return false;
    n.seq = env.seq;
    n.text = env.text;
    n.thinking = env.thinking;
    n.toolArgs = {};
    for (const [k, v] of Object.entries(env.toolArgs)) n.toolArgs[Number(k)] = v;
    this.hooks.toolArgsReplaced?.(env.nodeId);
    n.syncing = false;
    n.rebase = false;
    if (!isTerminal(n.status) || !n.node) n.status = env.status;
    this.hooks.changed?.(env.nodeId);
    return true;
  }
}
