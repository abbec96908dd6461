/**
 * Request handlers for every `HostMethods` method (shared/protocol/host-api.ts). Errors are
 * HostErrors with a stable code; the transport sends them as `{ error: { message, code } }`.
 */
import path from 'node:path';
import type { Patch } from 'immer';
import type { McpServerInfo, McpToolInfo, WorkspaceEntry } from '../../shared/protocol/host-api';
import type { RunRef, Thread } from '../../shared/thread/schema';
import type { ThreadStore } from './store/thread-store';
import type { StreamBridge } from './bridge/stream-bridge';
import type { RunSupervisor } from './supervisor/run-supervisor';
import { runRefOf, type RunController } from './runs';
import { deleteRun, listRuns, readRun } from './journal/journal';
import { listProviders, providersFileStatus, removeProvider, saveProvider, type KeyCodec } from './settings/providers';
import { removeMcpServer, saveMcpServer } from './mcp/edit';
import { importMcpServers } from './mcp/import';
import { HostError } from './errors';
// eslint-disable-next-line stepwise/no-cycle -- removed by the handler split
import type { ClientState } from './host-core';

/**
 * The configured MCP servers as the `mcp.servers` / `mcp.tools` / `mcp.test` requests see them:
 * main/core/mcp/service.ts's `McpService` (which also runs the mcp-host and connects runs to
 * it) provides it.
 */
export interface McpServerCatalog {
  servers(): Promise<McpServerInfo[]> | McpServerInfo[];
  tools(server: string): Promise<McpToolInfo[]>;
  test(server: string): Promise<{ ok: boolean; message: string; stderr?: string }>;
}

/**
 * What `workspace.*` requests delegate to: the WorkspaceStore (main/core/workspace/) satisfies
 * it. Paths are workspace-relative; `resolve` confines them to the workspace and matches names
 * after Unicode NFC. Names typed by the user follow workspace/names.ts: a thread title becomes a
 * safe file name (NFC, at most 255 bytes, no Windows device name or refused character), a folder
 * name that is not safe is refused with the rule it breaks. Errors name relative paths only.
 */
export interface WorkspaceService {
  /** Absolute workspace folder. */
  readonly rootDir: string;
  resolve(relPath: string): Promise<string>;
  list(): Promise<WorkspaceEntry[]>;
  create(folder: string, title: string, partial?: Partial<Thread>): Promise<WorkspaceEntry>;
  createFolder(relPath: string): Promise<WorkspaceEntry>;
  rename(relPath: string, title: string): Promise<WorkspaceEntry>;
  move(relPath: string, toFolder: string): Promise<WorkspaceEntry>;
  duplicate(relPath: string): Promise<WorkspaceEntry>;
  delete(relPath: string): Promise<unknown>;
}

export interface HostContext {
  home: string;
  workspaceDir: string;
  threads: ThreadStore;
  bridge: StreamBridge;
  supervisor: RunSupervisor;
  runs: RunController;
  clients: Map<number, ClientState>;
  mcp?: McpServerCatalog;
  workspace: WorkspaceService;
  /** Encrypts literal API keys in providers.json (desktop: safeStorage). */
  keys?: KeyCodec;
}

type Params = Record<string, unknown>;

function str(p: Params, key: string, method: string, optional = false): string {
  const v = p[key];
  if (v === undefined && optional) return undefined as unknown as string;
  if (typeof v !== 'string' || (!optional && v === '')) throw new HostError('bad_request', `${method}: params.${key} must be a non-empty string`);
  return v;
}

/**
 * `p`, whose rejection is a HostError with `code` unless it already carries a code of its own
 * (the MCP service and the mcp-host reject with plain Errors that say what went wrong).
 */
async function coded<T>(p: Promise<T> | T, code: string): Promise<T> {
  try {
    return await p;
  } catch (err) {
    const own = (err as { code?: unknown } | null)?.code;
    if (err instanceof HostError || typeof own === 'string') throw err;
    throw new HostError(code, err instanceof Error ? err.message : String(err));
  }
}

function needMcp(ctx: HostContext): McpServerCatalog {
  if (!ctx.mcp) throw new HostError('mcp_unavailable', 'MCP is not available in this host (no mcp-host running)');
  return ctx.mcp;
}

function relPath(ctx: HostContext, file: string): string {
  return path.relative(ctx.workspaceDir, file).split(path.sep).join('/');
}

function threadWorkspaceChanged(ctx: HostContext): void {
  ctx.bridge.broadcast({ type: 'workspace_changed' });
}

/**
 * A file system error (`EEXIST: …, mkdir '/home/…'`) as a HostError with the same code and the
 * path relative to $STEPWISE_HOME: a client is never sent the host's absolute paths.
 */
function withoutHostPaths(ctx: HostContext, err: unknown): unknown {
  const e = err as NodeJS.ErrnoException | null;
  if (!e || typeof e !== 'object' || typeof e.syscall !== 'string' || typeof e.code !== 'string' || err instanceof HostError) return err;
  let message = e.message;
  for (const abs of [e.path, (e as { dest?: string }).dest]) {
    if (typeof abs === 'string') message = message.split(abs).join(path.relative(ctx.home, abs).split(path.sep).join('/') || '.');
  }
  return new HostError(e.code, message);
}

/** Answer one request of `client`. */
export async function dispatch(ctx: HostContext, client: ClientState, method: string, raw: unknown): Promise<unknown> {
  try {
    return await answer(ctx, client, method, raw);
  } catch (err) {
    throw withoutHostPaths(ctx, err);
  }
}

async function answer(ctx: HostContext, client: ClientState, method: string, raw: unknown): Promise<unknown> {
  const p = (raw && typeof raw === 'object' ? raw : {}) as Params;
  switch (method) {
    case 'workspace.list':
      return ctx.workspace.list();
    case 'workspace.create': {
      const entry = await ctx.workspace.create(str(p, 'folder', method, true) ?? '', str(p, 'title', method), (p.thread ?? {}) as Partial<Thread>);
      threadWorkspaceChanged(ctx);
      return entry;
    }
    case 'workspace.createFolder': {
      const entry = await ctx.workspace.createFolder(str(p, 'path', method));
      threadWorkspaceChanged(ctx);
      return entry;
    }
    case 'workspace.rename':
    case 'workspace.move': {
      const ws = ctx.workspace;
      const from = str(p, 'path', method);
      const id = ctx.threads.idOfFile(await ws.resolve(from));
      if (id && method === 'workspace.rename' && ctx.bridge.liveRuns(id).length > 0) {
        throw new HostError('thread_running', `"${from}" cannot be renamed while one of its runs is running; stop it or wait for it to end`);
      }
      const entry = method === 'workspace.rename' ? await ws.rename(from, str(p, 'title', method)) : await ws.move(from, str(p, 'toFolder', method, true) ?? '');
      if (id && entry.kind === 'thread') {
        await ctx.threads.moved(id, await ws.resolve(entry.path));
        // The open copy takes the new title too (and every window sees it), so the next save
        // does not write the old title back.
        const open = ctx.threads.get(id);
        if (open.thread.title !== entry.title) await ctx.threads.edit(id, open.version, [{ op: 'replace', path: ['title'], value: entry.title }], 'host');
      }
      threadWorkspaceChanged(ctx);
      return entry;
    }
    case 'workspace.duplicate': {
      const entry = await ctx.workspace.duplicate(str(p, 'path', method));
      threadWorkspaceChanged(ctx);
      return entry;
    }
    case 'workspace.delete': {
      const ws = ctx.workspace;
      const rel = str(p, 'path', method);
      const id = ctx.threads.idOfFile(await ws.resolve(rel));
      if (id && ctx.bridge.liveRuns(id).length) throw new HostError('thread_running', `${rel} has a run running; stop it first`);
      if (id) await ctx.threads.release(id);
      await ws.delete(rel);
      threadWorkspaceChanged(ctx);
      return { ok: true };
    }
    case 'thread.open': {
      const rel = str(p, 'path', method);
      const file = await ctx.workspace.resolve(rel);
      const { thread, version } = await ctx.threads.open(file);
      client.openThreads.add(thread.id);
      for (const message of ctx.threads.recoveryNotes(thread.id)) client.stream.push({ type: 'notice', level: 'error', message });
      const running = ctx.bridge.liveRuns(thread.id)[0]?.runId;
      const origin = `client:${client.id}`; // the origin of this client's edits in thread_patch
      return running ? { thread, version, path: relPath(ctx, file), running, origin } : { thread, version, path: relPath(ctx, file), origin };
    }
    case 'thread.close': {
      const threadId = str(p, 'threadId', method);
      client.openThreads.delete(threadId);
      const held = [...ctx.clients.values()].some((c) => c.openThreads.has(threadId));
      if (!held && !ctx.bridge.liveRuns(threadId).length) await ctx.threads.release(threadId);
      return { ok: true };
    }
    case 'thread.edit': {
      const threadId = str(p, 'threadId', method);
      if (typeof p.baseVersion !== 'number') throw new HostError('bad_request', `${method}: params.baseVersion must be a number`);
      if (p.editId !== undefined && (typeof p.editId !== 'string' || !p.editId || p.editId.length > 100)) {
        throw new HostError('bad_request', `${method}: params.editId must be a string of 1–100 characters`);
      }
      return ctx.threads.edit(threadId, p.baseVersion, p.patches as Patch[], `client:${client.id}`, p.editId as string | undefined);
    }
    case 'run.start': {
      const toolCallIds = p.toolCallIds;
      if (toolCallIds !== undefined && (!Array.isArray(toolCallIds) || toolCallIds.some((x) => typeof x !== 'string'))) {
        throw new HostError('bad_request', `${method}: params.toolCallIds must be an array of strings`);
      }
      if (p.maxTurns !== undefined && (!Number.isInteger(p.maxTurns) || (p.maxTurns as number) < 1)) {
        throw new HostError('bad_request', `${method}: params.maxTurns must be a positive integer`);
      }
      return ctx.runs.start({
        threadId: str(p, 'threadId', method),
        mode: str(p, 'mode', method) as 'step' | 'react' | 'tool',
        toolCallIds: toolCallIds as string[] | undefined,
        maxTurns: p.maxTurns as number | undefined,
      });
    }
    case 'run.cancel': {
      const runId = str(p, 'runId', method);
      if (!ctx.supervisor.cancel(runId)) throw new HostError('not_found', `run ${runId} is not running`);
      return { ok: true };
    }
    case 'run.input': {
      const runId = str(p, 'runId', method);
      const nodeId = str(p, 'nodeId', method);
      if (!ctx.supervisor.input(runId, nodeId, p.value)) throw new HostError('not_found', `run ${runId} is not running`);
      return { ok: true };
    }
    case 'run.list': {
      const threadId = str(p, 'threadId', method);
      const refs = new Map<string, RunRef>();
      for (const rec of await listRuns(ctx.home, threadId)) {
        const ref: RunRef = { id: rec.runId, startedAt: rec.startedAt, status: rec.status, mode: rec.mode };
        if (rec.endedAt !== undefined) ref.endedAt = rec.endedAt;
        refs.set(rec.runId, ref);
      }
      if (ctx.threads.has(threadId)) for (const r of ctx.threads.get(threadId).thread.runRefs) refs.set(r.id, { ...refs.get(r.id), ...r });
      for (const run of ctx.bridge.liveRuns(threadId)) refs.set(run.runId, runRefOf(run.record()));
      return [...refs.values()].sort((a, b) => a.startedAt - b.startedAt);
    }
    case 'run.get': {
      const threadId = str(p, 'threadId', method);
      const runId = str(p, 'runId', method);
      const live = ctx.bridge.run(runId);
      if (live && live.threadId === threadId) return live.record();
      return readRun(ctx.home, threadId, runId);
    }
    case 'run.delete': {
      const threadId = str(p, 'threadId', method);
      const runId = str(p, 'runId', method);
      if (ctx.bridge.run(runId)) throw new HostError('run_running', `run ${runId} is still running`);
      await deleteRun(ctx.home, threadId, runId);
      if (ctx.threads.has(threadId)) ctx.threads.removeRunRef(threadId, runId);
      return { ok: true };
    }
    case 'stream.subscribe':
      client.stream.subscribe(str(p, 'threadId', method, true));
      return { ok: true };
    case 'stream.snapshot':
      client.stream.requestSnapshot(str(p, 'runId', method), str(p, 'nodeId', method));
      return { ok: true };
    case 'stream.ack':
      if (typeof p.count !== 'number' || p.count < 0) throw new HostError('bad_request', `${method}: params.count must be a non-negative number`);
      client.stream.ack(p.count);
      return { ok: true };
    case 'settings.app':
      return { home: ctx.home, workspaceDir: ctx.workspaceDir };
    case 'settings.providers':
      return listProviders(ctx.home, process.env, ctx.keys);
    case 'settings.providersFile':
      return providersFileStatus(ctx.home);
    case 'settings.saveProvider':
      return saveProvider(ctx.home, {
        id: str(p, 'id', method),
        api: str(p, 'api', method, true),
        baseUrl: str(p, 'baseUrl', method, true),
        apiKey: str(p, 'apiKey', method, true),
      }, ctx.keys);
    case 'settings.removeProvider':
      return removeProvider(ctx.home, str(p, 'id', method), ctx.keys);
    case 'mcp.servers':
      return coded(needMcp(ctx).servers(), 'mcp_error');
    case 'mcp.tools':
      return coded(needMcp(ctx).tools(str(p, 'server', method)), 'mcp_error');
    case 'mcp.test':
      return coded(needMcp(ctx).test(str(p, 'server', method)), 'mcp_error');
    case 'mcp.saveServer': {
      if (!p.entry || typeof p.entry !== 'object' || Array.isArray(p.entry)) throw new HostError('bad_request', `${method}: params.entry must be an object`);
      await saveMcpServer(ctx.home, str(p, 'name', method), p.entry).catch((err: Error) => {
        throw new HostError('bad_request', err.message);
      });
      return coded(needMcp(ctx).servers(), 'mcp_error');
    }
    case 'mcp.removeServer':
      await removeMcpServer(ctx.home, str(p, 'name', method)).catch((err: Error) => {
        throw new HostError('not_found', err.message);
      });
      return coded(needMcp(ctx).servers(), 'mcp_error');
    case 'mcp.import': {
      const r = await importMcpServers(ctx.home, str(p, 'file', method)).catch((err: Error) => {
        throw new HostError('bad_request', err.message);
      });
      return { added: r.added, notes: r.notes };
    }
    default:
      throw new HostError('unknown_method', `unknown method ${JSON.stringify(method)}`);
  }
}
