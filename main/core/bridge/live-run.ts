/**
 * The bridge's replica of one live run: node metadata and each node's assembled text,
 * thinking and tool arguments (a StreamConsumer), the run's LLM records and its result.
 */
import { StreamConsumer, type LiveNode } from '../../../shared/stream/consumer';
import { isTerminal, type ExecNode, type NodeStatus } from '../../../shared/protocol/nodes';
import type { LlmDelta, NodeSnapshot, NodeUpdate, RunResult, TreeUpdate } from '../../../shared/protocol/envelopes';
import type { RunRecord } from '../../../shared/protocol/host-api';
import type { LlmRecord } from '../../../shared/protocol/runner';
import { compactRequest, requestAt, type ExpandedRequest } from '../../../shared/protocol/request-delta';
import type { RunMode } from '../../../shared/thread/schema';
import type { FrozenRenders } from '../../../shared/template/frozen';

/** Identity of a run as the bridge knows it. */
export interface RunInfo {
  runId: string;
  threadId: string;
  mode: RunMode;
  startedAt?: number;
  /** Ids of the thread's messages when the run started. */
  baseMessageIds?: string[];
  /** The run's result is not put on its thread (`stepwise run --dry-run`). */
  dryRun?: boolean;
  /** The rendered text of the templated places the run sends (shared/template/frozen.ts). */
  renders?: FrozenRenders;
  /** The scenario whose variables the run uses. */
  scenario?: string;
  /** A time-travel run: the run and model call it re-ran from. */
  fromRun?: { runId: string; fromCall: number };
  /** The first run of the turn this run continues (docs/architecture.md#turns). */
  turnOf?: string;
}

/** One model call's record as a run keeps it. */
export type StoredRecord = RunRecord['records'][number];

function tryParse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

export class LiveRun {
  readonly runId: string;
  readonly threadId: string;
  readonly mode: RunMode;
  readonly startedAt: number;
  readonly baseMessageIds: string[] | undefined;
  readonly fromRun: RunInfo['fromRun'];
  readonly turnOf: string | undefined;
  readonly dryRun: boolean;
  readonly renders: FrozenRenders | undefined;
  readonly scenario: string | undefined;
  endedAt: number | undefined;
  /** When the host last heard from the run's process (or noticed its end); see {@link touch}. */
  lastEventAt: number;
  closed = false;
  status: NodeStatus = 'running';
  result: RunResult | undefined;
  /** The run's model call records, each request stored as what it adds to the one before (addRecord). */
  readonly records: StoredRecord[] = [];
  /** The whole request of the last record, which the next one is stored against. */
  private lastRequest: ExpandedRequest | undefined;
  /** Tool call ids and tool names seen on tool_args deltas, per node and index. */
  private readonly toolCalls = new Map<string, Map<number, { id?: string; name?: string }>>();
  private readonly replica: StreamConsumer;
  /** A delta arrived with a hole (a runner bug); the replica rebased on it. */
  holes = 0;

  constructor(info: RunInfo) {
    this.runId = info.runId;
    this.threadId = info.threadId;
    this.mode = info.mode;
    this.startedAt = info.startedAt ?? Date.now();
    this.lastEventAt = this.startedAt;
    this.baseMessageIds = info.baseMessageIds;
    this.fromRun = info.fromRun;
    this.turnOf = info.turnOf;
    this.dryRun = info.dryRun ?? false;
    this.renders = info.renders;
    this.scenario = info.scenario;
    this.replica = new StreamConsumer({});
  }

  /**
   * Keep a model call's record, its request stored as what it adds to an earlier record's
   * (shared/protocol/request-delta.ts), so a run's records grow with the size of its
   * conversation, not its square. A record that comes so (from the runner, which compacts what
   * it posts: agent-runner/emit/record-chain.ts, or from a journal's line) is kept as it is; one
   * whose request is whole is compacted here against the previous record. Returns the record as kept.
   */
  addRecord(rec: Omit<LlmRecord, 'v' | 'type'> | StoredRecord): StoredRecord {
    const index = this.records.length;
    const prev = this.lastRequest;
    if (rec.requestBase !== undefined) {
      const kept: StoredRecord = { runId: rec.runId, nodeId: rec.nodeId, api: rec.api, request: rec.request, requestBase: rec.requestBase, events: rec.events };
      this.records.push(kept);
      const r = requestAt(this.records, index, prev);
      this.lastRequest = r.ok ? { index, request: r.request } : undefined;
      return kept;
    }
    const prevRec = prev && this.records[prev.index];
    const c = prevRec ? compactRequest(rec.request, prev.request, prevRec.nodeId) : { request: rec.request };
    const stored: StoredRecord = { runId: rec.runId, nodeId: rec.nodeId, api: rec.api, request: c.request, ...(c.requestBase ? { requestBase: c.requestBase } : {}), events: rec.events };
    this.records.push(stored);
    this.lastRequest = { index, request: rec.request };
    return stored;
  }

  /** Nodes in the order they first appeared, with metadata. */
  nodes(): ExecNode[] {
    const out: ExecNode[] = [];
    for (const n of this.replica.nodes.values()) if (n.node) out.push(n.node);
    return out;
  }

  live(nodeId: string): LiveNode | undefined {
    return this.replica.get(nodeId);
  }

  /** The run's process was heard from (or its end was noticed) at `at`. */
  touch(at = Date.now()): void {
    if (at > this.lastEventAt) this.lastEventAt = at;
  }

  /** Apply a tree update. */
  applyTree(env: TreeUpdate): void {
    this.replica.apply(env);
  }

  /** Apply a live node's change; false when it changed nothing (unknown or closed node). */
  applyUpdate(env: NodeUpdate): boolean {
    return this.replica.apply(env);
  }

  /**
   * Apply a delta; returns false when it must not be forwarded (node closed, or a seq already
   * applied). A hole is forwarded (clients resync) and the replica takes it as a new baseline.
   */
  applyDelta(env: LlmDelta): boolean {
    const n = this.replica.get(env.nodeId);
    if (n && (isTerminal(n.status) || env.seq <= n.seq)) return false;
    if (env.channel === 'tool_args' && (env.toolCallId || env.toolName)) {
      let m = this.toolCalls.get(env.nodeId);
      if (!m) this.toolCalls.set(env.nodeId, (m = new Map()));
      const call = m.get(env.index) ?? {};
      m.set(env.index, { id: env.toolCallId ?? call.id, name: env.toolName ?? call.name });
    }
    this.replica.apply(env);
    const after = this.replica.get(env.nodeId)!;
    if (after.syncing) {
      this.holes++;
      this.replica.apply({ v: 1, type: 'node_snapshot', runId: env.runId, nodeId: env.nodeId, available: false });
      this.replica.apply(env);
    }
    return true;
  }

  /** The tool call id and tool name streamed `tool_args` deltas named for call `index` of a node. */
  toolCallOf(nodeId: string, index: number): { id?: string; name?: string } | undefined {
    return this.toolCalls.get(nodeId)?.get(index);
  }

  /** The node's assembled state, or `available: false`. */
  snapshot(nodeId: string): NodeSnapshot {
    const n = this.replica.get(nodeId);
    if (!n) return { v: 1, type: 'node_snapshot', runId: this.runId, nodeId, available: false };
    const toolArgs: Record<string, string> = {};
    for (const [k, v] of Object.entries(n.toolArgs)) toolArgs[k] = v;
    return { v: 1, type: 'node_snapshot', runId: this.runId, nodeId, seq: n.seq, text: n.text, thinking: n.thinking, toolArgs, status: n.status };
  }

  /** Non-terminal nodes that carry streamed state (the ones a new client needs snapshots of). */
  streamingNodeIds(): string[] {
    const ids: string[] = [];
    for (const n of this.replica.nodes.values()) {
      if (isTerminal(n.status)) continue;
      if (n.seq > 0 || n.node?.kind === 'llm' || n.node?.kind === 'sampling') ids.push(n.nodeId);
    }
    return ids;
  }

  /** The node with its partial output merged in (for journal checkpoints and closing updates). */
  withPartialOutput(node: ExecNode): ExecNode {
    const n = this.replica.get(node.id);
    if (!n || isTerminal(node.status)) return node;
    if (n.seq === 0 && !n.text && !n.thinking && Object.keys(n.toolArgs).length === 0) return node;
    const base = node.output && typeof node.output === 'object' ? (node.output as Record<string, unknown>) : {};
    const output: Record<string, unknown> = { ...base, text: n.text };
    if (n.thinking) output.thinking = n.thinking;
    const indices = Object.keys(n.toolArgs).map(Number).sort((a, b) => a - b);
    if (indices.length) {
      const known = this.toolCalls.get(node.id);
      output.toolCalls = indices.map((i) => {
        const raw = n.toolArgs[i];
        const call = known?.get(i);
        return { id: call?.id ?? `${node.id}:${i}`, name: call?.name ?? '', arguments: tryParse(raw) ?? {}, rawArguments: raw };
      });
    }
    return { ...node, output };
  }

  /**
   * Close every node that is still open with `status` (and the root with `error` when given),
   * keeping partial output. Returns the nodes it closed, for the closing tree_update.
   */
  closeOpenNodes(status: NodeStatus, keepAwaiting: boolean, error?: string): ExecNode[] {
    const now = Date.now();
    this.touch(now);
    const closed: ExecNode[] = [];
    for (const node of this.nodes()) {
      if (isTerminal(node.status)) continue;
      if (keepAwaiting && node.status === 'awaiting_input') continue;
      // The runner did not close it, so it did not measure it: measured here, once.
      const next: ExecNode = { ...this.withPartialOutput(node), status, endedAt: now, durationMs: Math.max(0, now - node.startedAt) };
      if (error && !node.parentId) next.error = { message: error };
      closed.push(next);
    }
    if (closed.length) this.replica.apply({ v: 1, type: 'tree_update', runId: this.runId, nodes: closed as [ExecNode, ...ExecNode[]] });
    return closed;
  }

  /** Status of the root node (no parent), or undefined before it exists. */
  rootStatus(): NodeStatus | undefined {
    return this.nodes().find((n) => !n.parentId)?.status;
  }

  /** The run file's content (docs/architecture.md#run-journal): nodes with partial output, records, status. */
  record(): RunRecord {
    const rec: RunRecord = {
      runId: this.runId,
      threadId: this.threadId,
      mode: this.mode,
      status: this.status,
      startedAt: this.startedAt,
      lastEventAt: this.lastEventAt,
      nodes: this.nodes().map((n) => this.withPartialOutput(n)),
      records: this.records,
    };
    if (this.endedAt !== undefined) rec.endedAt = this.endedAt;
    if (this.result) rec.messages = this.result.messages;
    if (this.result?.toolOutputs?.length) rec.toolOutputs = this.result.toolOutputs;
    if (this.baseMessageIds) rec.baseMessageIds = this.baseMessageIds;
    if (this.dryRun) rec.dryRun = true;
    if (this.renders) rec.renders = this.renders;
    if (this.scenario) rec.scenario = this.scenario;
    if (this.fromRun) rec.fromRun = this.fromRun;
    if (this.turnOf) rec.turnOf = this.turnOf;
    return rec;
  }
}
