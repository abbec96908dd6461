/**
 * The host core (docs/architecture.md#processes-and-state): plain Node, shared by the Electron shell, the web host and
 * the CLI. Wires the thread store, run supervisor, stream bridge, run journal, settings and
 * the optional workspace and MCP services, and answers every `HostMethods` request.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HostPush, WorkspaceEntry } from '../../shared/protocol/host-api';
import type { ProcessSpawner } from './process/types';
import { NodeSpawner } from './process/node-spawner';
import { runnerEntry } from './process/entries';
import { RunSupervisor, type McpRelay } from './supervisor/run-supervisor';
import { StreamBridge, type AddClientOptions, type BridgeClient, type LogLevel } from './bridge/stream-bridge';
import type { FrameLimits } from '../../shared/protocol/frame-limits';
import type { QueueBounds } from './bridge/client-queue';
import { RunJournal } from './journal/journal';
import { repairJournal } from './journal/run-files';
import { ThreadStore, type ThreadIO } from './store/thread-store';
import type { Recovery } from './store/edit-recovery';
import { loadThreadFile, saveThreadFile } from './threads/thread-file';
import { RunController } from './runs';
import type { KeyCodec } from './settings/providers';
import { WorkspaceStore } from './workspace/workspace-store';
import { listingKey, watchWorkspace } from './workspace/workspace-watch';
import { HANDLERS, dispatch } from './handlers';
import { forClient, HostError, withoutHostPaths, withoutPrivatePaths } from './errors';
import { clientOrigin, type ClientState, type HostContext, type McpServerCatalog, type WorkspaceService } from './host-context';
import { skillRoots } from './skills/discover';
import { releaseIfUnheld } from './store/thread-holders';
import { EvalService } from './eval/eval-service';

export type { McpServerCatalog, WorkspaceService } from './host-context';

export interface HostCoreOptions {
  /** $STEPWISE_HOME; default `$STEPWISE_HOME` or `~/.stepwise`. */
  home?: string;
  /** How runner processes start (default: child_process.fork). */
  spawner?: ProcessSpawner;
  /** Runner entry file (default: process/entries.ts `runnerEntry()`). */
  runnerEntry?: string;
  /** MCP answers for `mcp.*` (the MCP helper's McpSupervisor). */
  mcp?: McpServerCatalog;
  /** Brokers runs' `mcp` channels to the mcp-host. */
  mcpRelay?: McpRelay;
  /** Workspace tree operations for `workspace.*` (default: a WorkspaceStore on `$home/workspace`). */
  workspace?: WorkspaceService;
  /** Encrypts literal API keys in providers.json (the desktop shell passes safeStorage). */
  keys?: KeyCodec;
  /** The user's home folder, searched for `~/.claude/skills`, `~/.agents/skills`, `~/.codex/skills` (default os.homedir()). */
  userHome?: string;
  /** Thread file I/O (default: threads/thread-file.ts). */
  threadIO?: ThreadIO;
  limits?: Partial<FrameLimits>;
  bounds?: Partial<QueueBounds>;
  cancelGraceMs?: number;
  /** How long an idle pooled runner process (an evaluation batch's) waits for its next run (ms). Default 30,000. */
  runnerPoolIdleMs?: number;
  journalIntervalMs?: number;
  saveDebounceMs?: number;
  /**
   * Put the results of runs the journal repair closed onto their thread when it is opened
   * (default true). `stepwise run --dry-run` says false: it writes no thread file.
   */
  applyRepairedRuns?: boolean;
  /** Watch open threads' files for edits made outside Stepwise (default true); `debounceMs` default 100. */
  watchThreadFiles?: boolean | { debounceMs?: number };
  /**
   * Watch the workspace folder for thread files and folders added, removed or renamed outside
   * Stepwise and push `workspace_changed` to every client when the tree changed (default false;
   * the desktop app and the web host say true). `debounceMs` default 150.
   */
  watchWorkspace?: boolean | { debounceMs?: number; retryMs?: number };
  log?: (level: LogLevel, message: string) => void;
}

/**
 * One connected client (a window, a browser tab, the CLI): the one connection type every
 * transport uses (the desktop IPC per window, the web host per WebSocket).
 */
export interface HostConnection {
  readonly id: number;
  /**
   * Answer one request (docs/architecture.md#host-api): the method and params are checked
   * against the contract's table first. Rejects with a HostError (main/core/errors.ts): a
   * `message` without absolute paths and a `code`; `toWireError` gives its wire form.
   */
  request(method: string, params: unknown): Promise<unknown>;
  /** The bridge side (ack, subscribe, snapshots) for in-process users. */
  readonly stream: BridgeClient;
  close(): void;
}

export interface HostCore {
  readonly home: string;
  readonly workspaceDir: string;
  readonly threads: ThreadStore;
  readonly bridge: StreamBridge;
  readonly supervisor: RunSupervisor;
  readonly runs: RunController;
  /** Run ids whose files were repaired at start. */
  readonly repaired: string[];
  /** What each edit log left by a stopped host became at start (replayed, put aside, left). */
  readonly recovered: Recovery[];
  /** Connect a transport's client; `send` receives every push (envelopes, thread patches, events). */
  connect(send: (push: HostPush) => void, opts?: AddClientOptions): HostConnection;
  /** Cancel live runs, wait for them, save everything. */
  close(): Promise<void>;
}

/** `$STEPWISE_HOME` or `~/.stepwise`. */
export function defaultHome(): string {
  return process.env.STEPWISE_HOME || path.join(os.homedir(), '.stepwise');
}

/** Build the host core; repairs the run journal before anything can start. */
export async function createHostCore(options: HostCoreOptions = {}): Promise<HostCore> {
  const home = path.resolve(options.home ?? defaultHome());
  const workspace: WorkspaceService = options.workspace ?? new WorkspaceStore(path.join(home, 'workspace'));
  const workspaceDir = workspace.rootDir;
  const log = options.log ?? ((level: LogLevel, message: string) => {
    if (level !== 'debug') process.stderr.write(`[host] ${level}: ${message}\n`);
  });
  const clients = new Map<number, ClientState>();

  const { repaired, pending } = await repairJournal(home);
  const journal = new RunJournal(home, { intervalMs: options.journalIntervalMs, log: (m) => log('error', m) });
  // The bridge and the supervisor report to the run controller, which needs them: tie late.
  const late = {} as { runs: RunController };
  const bridge = new StreamBridge({
    limits: options.limits,
    bounds: options.bounds,
    log,
    onRunChanged: (run, msg) => journal.changed(run, msg),
    onRunClosed: (run) => late.runs.closed(run),
  });
  const threads = new ThreadStore({
    io: options.threadIO ?? { load: (f) => loadThreadFile(f), save: saveThreadFile },
    debounceMs: options.saveDebounceMs,
    isRunning: (threadId) => bridge.liveRuns(threadId).length > 0,
    onPatch: (patch) => {
      for (const c of clients.values()) if (c.openThreads.has(patch.threadId) && !c.yjsThreads.has(patch.threadId)) c.stream.push(patch);
    },
    onUpdate: (update, except) => {
      for (const c of clients.values()) if (c.openThreads.has(update.threadId) && clientOrigin(c.id) !== except) c.stream.push(update);
    },
    log: (m, level) => log(level ?? 'error', m),
    watch: options.watchThreadFiles ?? true,
    onOpened: options.applyRepairedRuns === false ? undefined : (threadId) => late.runs.settlePending(threadId),
    editLogDir: path.join(home, 'edits'),
    yStateDir: path.join(home, 'runs'),
    onFileProblem: ({ threadId, file, problem }) => {
      // Name the file as the workspace does (relative) when it is in the workspace.
      const rel = path.relative(workspaceDir, file);
      const name = rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
      // A file deleted outside is not broken: the window says so itself, with Save it again (a warning here).
      const gone = problem !== undefined && !existsSync(file);
      const key = `file:${name}`;
      const notice: HostPush = gone
        ? { type: 'notice', level: 'warn', key, message: `${name} was deleted outside Stepwise; the open copy is kept and not saved until the file is back` }
        : problem
          ? { type: 'notice', level: 'error', key, message: `${problem.split(file).join(name)} — the thread file no longer loads; Stepwise keeps the open copy and will not save over the file until it is fixed` }
          : { type: 'notice', level: 'info', key, message: `${name} loads again; its changes were taken` };
      for (const c of clients.values()) if (c.openThreads.has(threadId)) c.stream.push(notice);
    },
  });
  const recovered = await threads.recover(); // edits acknowledged before a crash, before anyone opens a thread
  const supervisor = new RunSupervisor({
    spawner: options.spawner ?? new NodeSpawner(),
    entry: options.runnerEntry ?? runnerEntry(),
    mcp: options.mcpRelay,
    cancelGraceMs: options.cancelGraceMs,
    poolIdleMs: options.runnerPoolIdleMs,
    listener: {
      message: (runId, msg) => bridge.handle(runId, msg),
      exit: (runId, exit) => late.runs.exited(runId, exit),
    },
  });
  const roots = skillRoots(home, options.userHome ?? os.homedir());
  const runs = (late.runs = new RunController({
    home,
    workspaceDir,
    threads,
    bridge,
    supervisor: () => supervisor,
    journal,
    mcp: Boolean(options.mcpRelay),
    keys: options.keys,
    skillRoots: roots,
    log,
  }));
  runs.notePending(pending);

  const ctx: HostContext = { home, workspaceDir, threads, bridge, supervisor, runs, clients, mcp: options.mcp, workspace, keys: options.keys, skillRoots: roots };
  // Every answer's error goes through forClient: no absolute path reaches a client.
  const folders = { workspaceDir, home, userHome: os.homedir() };
  const clean = (err: unknown) => forClient(withoutHostPaths(home, err), folders);
  const request = (client: ClientState, method: string, params: unknown) => dispatch(HANDLERS, ctx, client, method, params, clean);
  // MCP servers' states as they change (connected in the background): to every client, paths hidden like answers.
  const offMcpStatus = options.mcp?.onStatus?.((info) => {
    const server = info.error === undefined ? info : { ...info, error: withoutPrivatePaths(info.error, folders) };
    bridge.broadcast({ type: 'mcp_server_status', server });
  });
  const offMcpResource = options.mcp?.onResourceUpdated?.((server, uri) => bridge.broadcast({ type: 'mcp_resource_updated', server, uri }));
  // Every server's protocol log as it happens (the Servers view filters it).
  const offMcpLog = options.mcp?.onLog?.((server, entry) => bridge.broadcast({ type: 'mcp_server_log', server, entry }));

  const stopWorkspaceWatch = options.watchWorkspace ? followWorkspace(workspace, ctx, options.watchWorkspace, log) : () => {};

  const core: HostCore = {
    home,
    workspaceDir,
    threads,
    bridge,
    supervisor,
    runs,
    repaired,
    recovered,
    connect: (send, opts) => {
      const stream = bridge.addClient(send, opts);
      const state: ClientState = { id: stream.id, stream, openThreads: new Set(), yjsThreads: new Set() };
      clients.set(state.id, state);
      return {
        id: state.id,
        stream,
        request: (method, params) =>
          clients.get(state.id) === state ? request(state, method, params) : Promise.reject(new HostError('not_connected', `client ${state.id} is not connected`)),
        close: () => {
          stream.close();
          clients.delete(state.id);
          for (const threadId of state.openThreads) void releaseIfUnheld(threads, threadId, { clients, runs: bridge });
        },
      };
    },
    close: async () => {
      ctx.evals?.cancelAll();
      stopWorkspaceWatch();
      offMcpStatus?.();
      offMcpResource?.();
      offMcpLog?.();
      await supervisor.stopAll();
      await bridge.idle(); // results applied, run files written
      await journal.flush();
      await threads.flush();
      await threads.unwatchAll();
    },
  };
  ctx.evals = new EvalService(core, workspace, (push) => bridge.broadcast(push), (level, m) => log(level, m));
  return core;
}

/**
 * Follow the workspace folder (workspace/workspace-watch.ts): after a burst of changes, list it
 * again and push `workspace_changed` to every client when what the tree shows changed (a save of
 * an open thread rewrites its file but changes nothing the tree shows); an open thread whose file
 * was renamed or moved outside follows it. Returns the stop.
 */
function followWorkspace(
  workspace: WorkspaceService,
  ctx: Pick<HostContext, 'bridge' | 'threads'>,
  opts: true | { debounceMs?: number; retryMs?: number },
  log: (level: LogLevel, message: string) => void,
): () => void {
  let last: string | undefined;
  let listing = Promise.resolve();
  const check = (): void => {
    listing = listing.then(async () => {
      let key: string;
      try {
        const entries = await workspace.list();
        key = listingKey(entries);
        await followRenamed(workspace, ctx.threads, entries);
      } catch (err) {
        key = `error: ${(err as Error).message}`;
      }
      if (key === last) return;
      last = key;
      ctx.bridge.broadcast({ type: 'workspace_changed' });
    });
  };
  // The tree as clients first list it: only later changes are pushed.
  listing = workspace.list().then((e) => void (last = listingKey(e)), () => {});
  const o = opts === true ? {} : opts;
  const watch = watchWorkspace(workspace.rootDir, check, { ...o, log: (m) => log('warn', m) });
  return () => watch.close();
}

/** Open threads whose file is gone while a file with their id is listed elsewhere follow that file. */
async function followRenamed(workspace: WorkspaceService, threads: ThreadStore, entries: WorkspaceEntry[]): Promise<void> {
  for (const e of entries) {
    if (e.kind !== 'thread' || !e.id || !threads.has(e.id)) continue;
    const abs = await workspace.resolve(e.path);
    const was = threads.get(e.id).file;
    if (was !== abs && !existsSync(was)) await threads.moved(e.id, abs);
  }
}
