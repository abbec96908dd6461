/**
 * Window-level state: the workspace list, the open thread session, the shown run and the
 * selected node, and the loop that routes host pushes to the stream store and the session.
 */
import { startTransition } from 'react';
import { atom, createStore, type PrimitiveAtom } from 'jotai';
import type { HostPush, McpServerInfo, RunRecord, WorkspaceEntry } from '../../../shared/protocol/host-api';
import type { RunMode, RunRef } from '../../../shared/thread/schema';
import type { McpLogEntry } from '../../../shared/protocol/mcp';
import { isTerminal } from '../../../shared/protocol/nodes';
import type { HostServices } from '../host/types';
import { StreamStore } from './stream-store';
import { ThreadSession } from './thread-session';
import { errorProps, type ErrorNoticeProps } from '../ui/ErrorNotice';
import { openThreadHint } from './open-thread-hint';

/** An `eval_progress` push. */
export type EvalProgress = Extract<HostPush, { type: 'eval_progress' }>;

export type JotaiStore = ReturnType<typeof createStore>;

/** Pushed MCP server statuses: the newest per server, numbered in arrival order (`seq` is the last number given). */
export interface McpStatusLog {
  seq: number;
  latest: Record<string, { info: McpServerInfo; seq: number }>;
}

/** The node whose detail is shown. */
export interface Selection {
  runId: string;
  nodeId: string;
}

/**
 * What to try when `run.start` is refused, by the error's code; undefined when the message
 * says it all. Only provider settings problems point at the model and provider.
 */
export function runStartHint(err: unknown): string | undefined {
  switch ((err as { code?: unknown } | null)?.code) {
    case 'no_pending_tool_calls':
      return 'The thread may have changed (in another window, say): the playground shows which tool calls are pending now.';
    case 'pending_tool_calls':
      return 'Run the pending tool calls (Run tool / Run all tools) or type their results, then Continue.';
    case 'no_messages':
      return 'Add a user message, then Run.';
    case 'duplicate_ids':
      return 'Press Give duplicates new ids above the thread, then run again.';
    case 'invalid_data':
      return 'Fix the data at the pointer named in the thread file (an image, audio or document whose data is not base64), then open the thread again.';
    case 'thread_running':
      return 'A run of this thread is still running: wait for it to end or press Stop, then try again.';
    case 'bad_settings':
      return 'Check the provider in Settings → Providers and the model in the playground, then try again.';
    case 'not_open':
      return 'Open the thread again from the workspace tree, then try again.';
    case 'template_error':
      return 'Fix the template at the place, line and column named (open its preview to check), or wrap literal braces in {% raw %}…{% endraw %}.';
    case 'runner_failed':
      return 'The runner process could not start: try again, and restart Stepwise if it keeps failing.';
    default:
      return undefined;
  }
}

/** How many left threads keep their session (and undo history) in a window. */
const PARKED_SESSIONS = 8;

/** Everything one window holds; created once per host. */
/** The error banner's title when a run could not start (cleared by the next run that starts). */
export const RUN_NOT_STARTED = 'The run did not start';

export class AppState {
  readonly store: JotaiStore = createStore();
  readonly stream: StreamStore;
  readonly workspaceAtom: PrimitiveAtom<{ entries: WorkspaceEntry[]; loaded: boolean }> = atom<{ entries: WorkspaceEntry[]; loaded: boolean }>({ entries: [], loaded: false });
  readonly sessionAtom: PrimitiveAtom<ThreadSession | null> = atom<ThreadSession | null>(null);
  readonly shownRunAtom: PrimitiveAtom<string | null> = atom<string | null>(null);
  readonly selectedAtom: PrimitiveAtom<Selection | null> = atom<Selection | null>(null);
  readonly runRefsAtom: PrimitiveAtom<RunRef[]> = atom<RunRef[]>([]);
  readonly errorAtom: PrimitiveAtom<ErrorNoticeProps | null> = atom<ErrorNoticeProps | null>(null);
  readonly settingsOpenAtom: PrimitiveAtom<boolean> = atom(false);
  /** A malformed thread file the user opened: the playground shows its whole load error instead of the thread. */
  readonly brokenEntryAtom: PrimitiveAtom<WorkspaceEntry | null> = atom<WorkspaceEntry | null>(null);
  /** MCP server statuses as the host pushed them (`mcp_server_status`), each with the push's sequence number. */
  readonly mcpStatusAtom: PrimitiveAtom<McpStatusLog> = atom<McpStatusLog>({ seq: 0, latest: {} });
  /** The Evaluate view is shown instead of the three panels. */
  readonly evalOpenAtom: PrimitiveAtom<boolean> = atom(false);
  /** The latest `eval_progress` of each batch, by batch id (the Evaluate view's progress bars). */
  readonly evalProgressAtom: PrimitiveAtom<Readonly<Record<string, EvalProgress>>> = atom<Readonly<Record<string, EvalProgress>>>({});
  /** Subscribed MCP resources' updates as the host pushed them (`mcp_resource_updated`): count per `server uri`. */
  readonly mcpResourceUpdatesAtom: PrimitiveAtom<Record<string, number>> = atom<Record<string, number>>({});
  /** Listeners of MCP protocol log entries as the host pushes them (`mcp_server_log`). */
  private readonly mcpLogListeners = new Set<(server: string, entry: McpLogEntry) => void>();

  /** Calls `listener` with each MCP protocol log entry pushed; returns the unsubscribe. */
  onMcpLog(listener: (server: string, entry: McpLogEntry) => void): () => void {
    this.mcpLogListeners.add(listener);
    return () => void this.mcpLogListeners.delete(listener);
  }
  /** Editors whose text does not parse yet (keyed by field): runs wait until they do. */
  readonly invalidFieldsAtom: PrimitiveAtom<ReadonlySet<string>> = atom<ReadonlySet<string>>(new Set<string>());

  /** Mark an editor's text as (not) parsing. */
  setInvalid(key: string, invalid: boolean): void {
    const cur = this.store.get(this.invalidFieldsAtom);
    if (cur.has(key) === invalid) return;
    const next = new Set(cur);
    if (invalid) next.add(key);
    else next.delete(key);
    this.store.set(this.invalidFieldsAtom, next);
  }
  private readonly records = new Map<string, RunRecord>();
  /** Sessions of threads this window left, newest last (see `openThread`). */
  private readonly parked = new Map<string, ThreadSession>();
  private abort = new AbortController();

  constructor(readonly host: HostServices) {
    this.stream = new StreamStore(this.store, {
      requestSnapshot: (runId, nodeId) => this.host.call('stream.snapshot', { runId, nodeId }),
    });
  }

  get session(): ThreadSession | null {
    return this.store.get(this.sessionAtom);
  }

  /** Report a failure in the window's error area. */
  fail(title: string, err: unknown, hint?: string): void {
    this.store.set(this.errorAtom, errorProps(title, err, hint));
  }

  /** Takes down the error banner when it says `title` (a run that started since, another thread opened). */
  clearFailure(title: string): void {
    if (this.store.get(this.errorAtom)?.title === title) this.store.set(this.errorAtom, null);
  }

  /** Start listening for pushes and load the workspace. */
  async start(): Promise<void> {
    void this.listen(this.abort.signal);
    // Back after a lost connection: the open thread catches up on the patches it missed.
    let was = this.host.connection?.().state;
    const off = this.host.onConnectionChange?.(() => {
      const now = this.host.connection!().state;
      if (now === 'open' && was === 'reconnecting') this.session?.resync();
      was = now;
    });
    if (off) this.abort.signal.addEventListener('abort', off);
    await this.host.call('stream.subscribe', {}).catch((err) => this.fail('Could not subscribe to live runs', err, 'Reload the window.'));
    await this.refreshWorkspace();
  }

  /** Stop the push loop (window closing, tests). */
  stop(): void {
    this.abort.abort();
  }

  private async listen(signal: AbortSignal): Promise<void> {
    for await (const push of this.host.pushes(signal)) this.onPush(push);
  }

  /** Route one push. */
  onPush(push: HostPush): void {
    this.stream.apply(push);
    const session = this.session;
    switch (push.type) {
      case 'thread_update':
        session?.applyRemote(push);
        return;
      case 'tree_update':
        // The run node's terminal update also ends read-only mode (if run_ended is late or lost).
        if (session?.meta.runningRunId === push.runId && push.nodes.some((n) => n.kind === 'run' && !n.parentId && isTerminal(n.status))) {
          session.setRunning(undefined, true);
          void this.refreshRuns();
        }
        return;
      case 'run_started':
        if (session && push.threadId === session.id) {
          session.setRunning(push.runId);
          this.showRun(push.runId);
        }
        return;
      case 'run_ended':
        if (session && push.threadId === session.id) {
          if (session.meta.runningRunId === push.runId) session.setRunning(undefined, true);
          void this.refreshRuns();
        }
        return;
      case 'workspace_changed':
        void this.refreshWorkspace();
        return;
      case 'mcp_server_log':
        for (const l of this.mcpLogListeners) l(push.server, push.entry);
        return;
      case 'mcp_server_status':
        this.store.set(this.mcpStatusAtom, (log) => ({ seq: log.seq + 1, latest: { ...log.latest, [push.server.name]: { info: push.server, seq: log.seq + 1 } } }));
        return;
      case 'eval_progress':
        this.store.set(this.evalProgressAtom, { ...this.store.get(this.evalProgressAtom), [push.batchId]: push });
        return;
      case 'mcp_resource_updated':
        this.store.set(this.mcpResourceUpdatesAtom, (m) => ({ ...m, [`${push.server} ${push.uri}`]: (m[`${push.server} ${push.uri}`] ?? 0) + 1 }));
        return;
      case 'notice':
        if (push.level === 'error') this.store.set(this.errorAtom, { title: 'The host reported an error', message: push.message, noticeKey: push.key });
        else if (push.key !== undefined && this.store.get(this.errorAtom)?.noticeKey === push.key) this.store.set(this.errorAtom, null); // e.g. the file loads again
        return;
      default:
        return;
    }
  }

  async refreshWorkspace(): Promise<void> {
    try {
      const entries = await this.host.call('workspace.list', {});
      // The open thread's file renamed or moved (here or outside): the window follows it.
      const s = this.session;
      const moved = s && !entries.some((e) => e.path === s.meta.path) ? entries.find((e) => e.kind === 'thread' && e.id === s.id) : undefined;
      if (s && moved) s.setPath(moved.path);
      this.store.set(this.workspaceAtom, { entries, loaded: true });
    } catch (err) {
      this.store.set(this.workspaceAtom, { entries: [], loaded: true });
      this.fail('Could not list the workspace', err, 'Check that the workspace folder exists and is readable.');
    }
  }

  /**
   * Open a thread in the playground (closing the previous one on the host). The window keeps
   * the sessions of the last few threads it left, so switching back keeps their undo history
   * when nothing changed them meanwhile.
   */
  async openThread(path: string): Promise<void> {
    const prev = this.session;
    try {
      const opened = await this.host.call('thread.open', { path, yjs: true });
      // A run of the thread left behind did not start: that is no news about this one.
      if (prev?.id !== opened.thread.id) this.clearFailure(RUN_NOT_STARTED);
      if (prev && prev.id !== opened.thread.id) void this.host.call('thread.close', { threadId: prev.id }).catch(() => {});
      const kept = prev?.id === opened.thread.id ? prev : this.parked.get(opened.thread.id);
      this.parked.delete(opened.thread.id);
      const session = kept?.resume(opened) ? kept : new ThreadSession(this.store, this.host, opened);
      if (prev && prev !== session && prev.id !== opened.thread.id) {
        this.parked.set(prev.id, prev);
        while (this.parked.size > PARKED_SESSIONS) this.parked.delete(this.parked.keys().next().value!);
      }
      // A transition: React renders the newly opened thread in slices, so a long thread never
      // blocks the page in one long task (the playground draws its messages statically first).
      startTransition(() => {
        this.store.set(this.sessionAtom, session);
        this.store.set(this.selectedAtom, null);
      });
      this.showRun(opened.running ?? null);
      await this.refreshRuns();
    } catch (err) {
      this.fail(`Could not open ${path}`, err, openThreadHint(err));
    }
  }

  async refreshRuns(): Promise<void> {
    const s = this.session;
    if (!s) return this.store.set(this.runRefsAtom, []);
    try {
      const refs = await this.host.call('run.list', { threadId: s.id });
      // The run bar and run history render it in slices: it comes as a run ends, with the run's result.
      startTransition(() => this.store.set(this.runRefsAtom, [...refs].sort((a, b) => b.startedAt - a.startedAt)));
    } catch {
      this.store.set(this.runRefsAtom, s.thread.runRefs ?? []);
    }
  }

  /** Show a run in the execution panel; the previously shown finished run is released. */
  showRun(runId: string | null): void {
    const prev = this.store.get(this.shownRunAtom);
    if (prev && prev !== runId) {
      const info = this.stream.runs().find((r) => r.runId === prev);
      const live = info && (info.status === 'running' || info.status === 'pending') && !info.stored;
      if (!live) {
        this.stream.releaseRun(prev);
        this.records.delete(prev);
      }
    }
    // The execution panel switching runs renders as a transition, in slices: a run starting
    // changes the playground's header in the same task.
    startTransition(() => this.store.set(this.shownRunAtom, runId));
  }

  /** Open a stored run read-only in the execution panel. */
  async openRecord(runId: string): Promise<void> {
    const s = this.session;
    if (!s) return;
    try {
      const rec = await this.host.call('run.get', { threadId: s.id, runId });
      // A live run's record is a snapshot: read again once it has ended.
      if (rec.status !== 'running') this.records.set(runId, rec);
      if (!this.stream.runs().some((r) => r.runId === runId)) this.stream.loadRecord(rec);
      this.showRun(runId);
    } catch (err) {
      this.fail(`Could not open run ${runId}`, err, 'Its run file may have been deleted.');
    }
  }

  /** The stored record of a run (raw requests and recorded streams), fetched once. */
  async record(runId: string): Promise<RunRecord | undefined> {
    const cached = this.records.get(runId);
    if (cached) return cached;
    const s = this.session;
    if (!s) return undefined;
    try {
      const rec = await this.host.call('run.get', { threadId: s.id, runId });
      // A live run's record is a snapshot: read again once it has ended.
      if (rec.status !== 'running') this.records.set(runId, rec);
      return rec;
    } catch {
      return undefined;
    }
  }

  /** Create "Untitled thread" (numbered when taken) beside the open thread and open it. */
  async newThread(): Promise<void> {
    if (this.host.presentational) return;
    const path = this.session?.meta.path ?? '';
    const folder = path.split('/').slice(0, -1).join('/');
    const taken = new Set(this.store.get(this.workspaceAtom).entries.map((e) => e.title));
    let title = 'Untitled thread';
    for (let i = 2; taken.has(title); i++) title = `Untitled thread ${i}`;
    try {
      const e = await this.host.call('workspace.create', { folder: folder || undefined, title });
      await this.refreshWorkspace();
      await this.openThread(e.path);
    } catch (err) {
      this.fail('Could not create a thread', err, 'Check that the workspace folder is writable.');
    }
  }

  /** Start a run of the open thread. */
  async startRun(mode: RunMode, opts: { toolCallIds?: string[]; maxTurns?: number } = {}): Promise<void> {
    const s = this.session;
    if (!s || s.readOnly) return;
    try {
      const { runId } = await this.host.call('run.start', { threadId: s.id, mode, ...opts });
      this.clearFailure(RUN_NOT_STARTED);
      s.setRunning(runId);
      this.showRun(runId);
    } catch (err) {
      this.fail(RUN_NOT_STARTED, err, runStartHint(err));
    }
  }

  /** Stop the open thread's running run. */
  async cancelRun(): Promise<void> {
    const runId = this.session?.meta.runningRunId;
    if (!runId) return;
    try {
      await this.host.call('run.cancel', { runId });
    } catch (err) {
      this.fail('Could not stop the run', err);
    }
  }
}
