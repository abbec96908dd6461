/**
 * StreamBridge (docs/architecture.md#sequence-and-snapshots): validates every message a runner posts, keeps each live node's
 * assembled state, fans envelopes out to any number of clients with per-client backpressure,
 * and answers snapshot requests. A client that subscribes mid-run gets each live run's nodes
 * and a snapshot per live node first, then live deltas: no gap, no duplicate. It never
 * renumbers `seq`, never drops a `tree_update`.
 */
import { isTerminal, type ExecNode, type NodeStatus } from '../../../shared/protocol/nodes';
import type { StreamEnvelope } from '../../../shared/protocol/envelopes';
import type { HostPush } from '../../../shared/protocol/host-api';
import type { RunnerToHost } from '../../../shared/protocol/runner';
import { checkRunnerMessage, oversizeRecordStandIn } from './validate';
import { DEFAULT_LIMITS, jsonSize, type FrameLimits } from '../../../shared/protocol/frame-limits';
import { ClientQueue, DEFAULT_BOUNDS, type QueueBounds } from './client-queue';
import { LiveRun, type RunInfo } from './live-run';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface StreamBridgeOptions {
  limits?: Partial<FrameLimits>;
  /** Default per-client bounds. */
  bounds?: Partial<QueueBounds>;
  /** Diagnostics: rejected frames, runner logs. */
  log?: (level: LogLevel, message: string) => void;
  /**
   * A live run changed (journal checkpoint): `msg` is the runner message just applied to it
   * (none when the run just opened).
   */
  onRunChanged?: (run: LiveRun, msg?: RunnerToHost) => void;
  /**
   * A run closed (after its closing tree_update went out, before `run_ended`): apply its
   * result, write its journal. May be async; `run_ended` waits for it.
   */
  onRunClosed?: (run: LiveRun) => void | Promise<void>;
}

/** What a transport holds for one connected client. */
export interface BridgeClient {
  readonly id: number;
  /** The client processed `count` pushed frames. */
  ack(count: number): void;
  /** Receive live runs (all, or one thread's; calls add up): current trees and snapshots first. */
  subscribe(threadId?: string): void;
  /** Push one node's snapshot (`available: false` when the bridge has none). */
  requestSnapshot(runId: string, nodeId: string): void;
  /** Push any other frame (thread_patch, events) through this client's queue; never dropped. */
  push(push: HostPush): void;
  close(): void;
}

export interface AddClientOptions extends Partial<QueueBounds> {
  /** No backpressure (in-process consumers such as the CLI that never ack). */
  unbounded?: boolean;
  /**
   * Also receive each run's `run_result` as the runner posted it (`stepwise run --events`).
   * Others do not: the host applies it to the thread, and every window gets what it adds in the
   * `thread_patch` (a 1,000-turn run's result is about 440 KB, which each window would read,
   * check and throw away).
   */
  runResults?: boolean;
}

interface ClientEntry {
  id: number;
  queue: ClientQueue;
  all: boolean;
  threads: Set<string>;
  runResults: boolean;
  closed: boolean;
}

export class StreamBridge {
  private readonly runs = new Map<string, LiveRun>();
  private readonly clients = new Map<number, ClientEntry>();
  private readonly closing = new Map<string, Promise<void>>();
  private nextClientId = 1;
  private readonly limits: FrameLimits;
  private readonly bounds: QueueBounds;
  /** Frames rejected so far (diagnostics and tests). */
  rejected = 0;

  constructor(private readonly opts: StreamBridgeOptions = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.bounds = { ...DEFAULT_BOUNDS, ...opts.bounds };
  }

  private log(level: LogLevel, message: string): void {
    this.opts.log?.(level, message);
  }

  // ── runs ────────────────────────────────────────────────────────────────────

  /** Register a run before its process posts anything. */
  openRun(info: RunInfo): LiveRun {
    const run = new LiveRun(info);
    this.runs.set(run.runId, run);
    this.broadcast({ type: 'run_started', runId: run.runId, threadId: run.threadId, mode: run.mode }, run.threadId);
    this.opts.onRunChanged?.(run);
    return run;
  }

  run(runId: string): LiveRun | undefined {
    return this.runs.get(runId);
  }

  /** Live (not yet closed) runs, optionally of one thread. */
  liveRuns(threadId?: string): LiveRun[] {
    return [...this.runs.values()].filter((r) => !r.closed && (threadId === undefined || r.threadId === threadId));
  }

  /** One message from the process of `runId`: checked, applied, fanned out. Never throws. */
  handle(runId: string, msg: unknown): void {
    const run = this.runs.get(runId);
    if (!run || run.closed) {
      this.reject(runId, run ? 'message after the run closed' : 'message for an unknown run');
      return;
    }
    const checked = checkRunnerMessage(runId, msg, this.limits);
    if (!checked.ok) {
      this.reject(runId, checked.reason);
      // A model call's record too large to keep leaves a record saying so, not nothing.
      const standIn = oversizeRecordStandIn(runId, msg, checked.reason);
      if (standIn) this.handle(runId, standIn);
      return;
    }
    const c = checked.value;
    run.touch();
    switch (c.type) {
      case 'tree_update':
        run.applyTree(c.msg);
        this.fanOut(run, c.msg, c.size);
        break;
      case 'node_update':
        if (!run.applyUpdate(c.msg)) return; // a closed or unknown node: nothing changes anywhere
        this.fanOut(run, c.msg, c.size);
        break;
      case 'llm_delta':
        if (!run.applyDelta(c.msg)) return;
        this.fanOutDelta(run, c.msg, c.size);
        break;
      case 'run_result':
        run.result = c.msg;
        this.broadcast(c.msg, run.threadId, c.size, (e) => e.runResults);
        break;
      case 'llm_record': {
        const { v: _v, type: _t, ...rec } = c.msg;
        // Downstream (the journal) gets the record as kept: its request stored against the previous one.
        this.opts.onRunChanged?.(run, { v: 1, type: 'llm_record', ...run.addRecord(rec) });
        return;
      }
      case 'log':
        this.log(c.msg.level, `run ${runId}: ${c.msg.message.slice(0, 4000)}`);
        return;
      case 'done':
        void this.closeRun(runId, { status: 'interrupted', keepAwaiting: true, reason: 'the run ended with nodes still open' });
        return;
    }
    this.opts.onRunChanged?.(run, c.msg);
  }

  private reject(runId: string, reason: string): void {
    this.rejected++;
    this.log('warn', `rejected a frame from run ${runId}: ${reason}`);
  }

  /**
   * Close a run: nodes still open end with `status` (awaiting_input ones are kept when
   * `keepAwaiting`), partial output kept; the closing tree_update goes to clients; then
   * `onRunClosed`, then `run_ended`. Idempotent.
   */
  closeRun(runId: string, how: { status: NodeStatus; keepAwaiting?: boolean; reason?: string }): Promise<void> {
    const run = this.runs.get(runId);
    if (!run || run.closed) return this.closing.get(runId) ?? Promise.resolve();
    run.closed = true;
    const p = this.finishRun(run, how).finally(() => this.closing.delete(runId));
    this.closing.set(runId, p);
    return p;
  }

  /** Resolves when every run being closed has settled (result applied, run file written). */
  async idle(): Promise<void> {
    while (this.closing.size) await Promise.all([...this.closing.values()]);
  }

  private async finishRun(run: LiveRun, how: { status: NodeStatus; keepAwaiting?: boolean; reason?: string }): Promise<void> {
    const runId = run.runId;
    const closing = run.closeOpenNodes(how.status, how.keepAwaiting ?? false, how.keepAwaiting ? undefined : how.reason);
    if (closing.length) {
      if (how.keepAwaiting && how.reason) this.log('warn', `run ${runId}: ${how.reason}`);
      const env: StreamEnvelope = { v: 1, type: 'tree_update', runId, nodes: closing as [ExecNode, ...ExecNode[]] };
      this.fanOut(run, env, jsonSize(env));
    }
    run.endedAt = Date.now();
    const root = run.rootStatus();
    run.status = root && (isTerminal(root) || root === 'awaiting_input') ? root : how.status;
    try {
      await this.opts.onRunClosed?.(run);
    } catch (err) {
      this.log('error', `run ${runId}: closing failed: ${(err as Error).message}`);
    }
    this.broadcast({ type: 'run_ended', runId, threadId: run.threadId, status: run.status }, run.threadId);
    this.runs.delete(runId);
  }

  // ── clients ─────────────────────────────────────────────────────────────────

  /** Connect a client; it receives stream frames once it subscribes. */
  addClient(send: (push: HostPush) => void, opts: AddClientOptions = {}): BridgeClient {
    const bounds: QueueBounds = opts.unbounded
      ? { maxFrames: Infinity, maxBytes: Infinity }
      : { maxFrames: opts.maxFrames ?? this.bounds.maxFrames, maxBytes: opts.maxBytes ?? this.bounds.maxBytes };
    const entry: ClientEntry = {
      id: this.nextClientId++,
      queue: new ClientQueue((p) => {
        try {
          send(p);
        } catch (err) {
          this.log('warn', `client ${entry.id}: send failed: ${(err as Error).message}`);
        }
      }, bounds),
      all: false,
      threads: new Set(),
      runResults: !!opts.runResults,
      closed: false,
    };
    this.clients.set(entry.id, entry);
    return {
      id: entry.id,
      ack: (count) => {
        if (entry.closed) return;
        if (entry.queue.ack(count)) this.resync(entry);
      },
      subscribe: (threadId) => this.subscribe(entry, threadId),
      requestSnapshot: (runId, nodeId) => {
        if (entry.closed) return;
        const run = this.runs.get(runId);
        const snap = run ? run.snapshot(nodeId) : ({ v: 1, type: 'node_snapshot', runId, nodeId, available: false } as const);
        entry.queue.markClean(runId, nodeId);
        entry.queue.push(snap, jsonSize(snap));
      },
      push: (p) => {
        if (!entry.closed) entry.queue.push(p, jsonSize(p));
      },
      close: () => {
        entry.closed = true;
        this.clients.delete(entry.id);
      },
    };
  }

  /** Number of connected clients. */
  get clientCount(): number {
    return this.clients.size;
  }

  private matches(entry: ClientEntry, threadId: string): boolean {
    return entry.all || entry.threads.has(threadId);
  }

  private subscribe(entry: ClientEntry, threadId?: string): void {
    if (entry.closed) return;
    const before = (t: string) => this.matches(entry, t);
    const fresh = this.liveRuns().filter((r) => !before(r.threadId) && (threadId === undefined || r.threadId === threadId));
    if (threadId === undefined) entry.all = true;
    else entry.threads.add(threadId);
    for (const run of fresh) this.sendInitial(entry, run);
  }

  /** A run's start (so a late client knows its mode), its current tree, then one snapshot per live node. */
  private sendInitial(entry: ClientEntry, run: LiveRun): void {
    const started: HostPush = { type: 'run_started', runId: run.runId, threadId: run.threadId, mode: run.mode };
    entry.queue.push(started, jsonSize(started));
    const nodes = run.nodes();
    if (nodes.length) {
      const env: StreamEnvelope = { v: 1, type: 'tree_update', runId: run.runId, nodes: nodes.map((n) => run.withPartialOutput(n)) as [ExecNode, ...ExecNode[]] };
      entry.queue.push(env, jsonSize(env));
    }
    for (const nodeId of run.streamingNodeIds()) {
      const snap = run.snapshot(nodeId);
      entry.queue.push(snap, jsonSize(snap));
    }
  }

  /** The queue drained: one snapshot per dirty node that is still live, then resume deltas. */
  private resync(entry: ClientEntry): void {
    for (const { runId, nodeId } of entry.queue.resume()) {
      const run = this.runs.get(runId);
      const live = run?.live(nodeId);
      if (!run || !live || isTerminal(live.status)) continue; // its closing update already went out
      const snap = run.snapshot(nodeId);
      entry.queue.push(snap, jsonSize(snap));
    }
  }

  private fanOut(run: LiveRun, env: StreamEnvelope, size: number): void {
    for (const entry of this.clients.values()) {
      if (!this.matches(entry, run.threadId)) continue;
      if (env.type === 'tree_update') {
        for (const n of env.nodes) if (isTerminal(n.status)) entry.queue.markClean(run.runId, n.id);
      }
      entry.queue.push(env, size);
    }
  }

  private fanOutDelta(run: LiveRun, env: StreamEnvelope & { type: 'llm_delta' }, size: number): void {
    for (const entry of this.clients.values()) {
      if (this.matches(entry, run.threadId)) entry.queue.offerDelta(env, size, run.runId, env.nodeId);
    }
  }

  /** Push a frame to every client subscribed to `threadId` (all clients when undefined), of those `wants` takes. */
  broadcast(push: HostPush, threadId?: string, size = jsonSize(push), wants: (entry: ClientEntry) => boolean = () => true): void {
    for (const entry of this.clients.values()) {
      if ((threadId === undefined || this.matches(entry, threadId)) && wants(entry)) entry.queue.push(push, size);
    }
  }
}
