/**
 * The request/response contract between a client (renderer) and the host, the same over
 * Electron IPC and the web host's WebSocket. Requests are `{ id, method, params }`, answers
 * `{ id, result }` or `{ id, error: { message, code? } }`; the host pushes envelopes and
 * events as `{ push: Envelope | HostEvent }`.
 */
import type { Patch } from 'immer';
import type { Thread, RunMode, RunRef } from '../thread/schema';
import type { ExecNode } from './nodes';
import type { Envelope } from './envelopes';
import type { LlmRecord } from './runner';

/** One entry of the workspace tree; `path` is relative to the workspace, with '/' separators. */
export interface WorkspaceEntry {
  path: string;
  kind: 'folder' | 'thread';
  title: string;
  /** Thread id for threads. */
  id?: string;
  /** Load error (malformed file), shown in the tree instead of hiding the file. */
  error?: string;
}

/** A stored run (runs/<threadId>/<runId>.json). */
export interface RunRecord {
  runId: string;
  threadId: string;
  mode: RunMode;
  status: ExecNode['status'];
  startedAt: number;
  endedAt?: number;
  /**
   * When the host last heard from the run's process (any message it accepted). A run file left
   * open by a host that died is closed at this time on the next start, not at that start.
   */
  lastEventAt?: number;
  nodes: ExecNode[];
  records: Omit<LlmRecord, 'v' | 'type'>[];
  /** Messages the run added (for restore). */
  messages?: unknown[];
  /** Tool results a tool step filled into existing tool calls (for restore). */
  toolOutputs?: unknown[];
  /** Ids of the thread's messages when the run started: restore rebuilds the conversation from them. */
  baseMessageIds?: string[];
  /** The run's result is not put on its thread (`stepwise run --dry-run`). */
  dryRun?: boolean;
  /**
   * Set by the journal repair at host start on a run the host died during: what the run added
   * (`messages`, `toolOutputs`, rebuilt from its tree) and its run ref go onto the thread the
   * next time the thread is opened; the flag is then dropped.
   */
  resultPending?: boolean;
}

export interface ProviderInfo {
  id: string;
  api: string;
  baseUrl?: string;
  /** Masked key (`sk-…abcd`), or where it comes from (`$OPENAI_API_KEY`). Never the whole key. */
  keyHint?: string;
  /** Detected from the environment rather than configured. */
  detected?: boolean;
  /** One of the built-in providers (openai, anthropic, scripted, replay): it cannot be removed. */
  builtin?: boolean;
  /**
   * Has an entry in settings/providers.json. For a built-in provider that is a saved key or
   * base URL, which `settings.removeProvider` forgets (back to the built-in defaults).
   */
  saved?: boolean;
  /** Prices per model id (USD per million tokens), from providers.json. */
  prices?: Record<string, { input: number; output: number; cacheRead?: number }>;
}

export interface McpServerInfo {
  name: string;
  /** `bundled`: a server bundled with Stepwise, run inside the mcp-host. */
  transport: 'stdio' | 'http' | 'sse' | 'bundled';
  status: 'disconnected' | 'connecting' | 'connected' | 'error';
  error?: string;
}

export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** Method name → params and result. */
export interface HostMethods {
  'workspace.list': { params: Record<string, never>; result: WorkspaceEntry[] };
  /** The file name is made from `title`: NFC, within 255 bytes, safe on Windows (`CON` → `CON_.json`). */
  'workspace.create': { params: { folder?: string; title: string; thread?: Partial<Thread> }; result: WorkspaceEntry };
  /** Refused (`invalid`) when a new folder name is a Windows device name, ends with a dot or space, has `<>:"|?*`, or passes 255 bytes. */
  'workspace.createFolder': { params: { path: string }; result: WorkspaceEntry };
  /** A thread's file follows its new title; a folder takes `title` as its name, checked as in `createFolder`. */
  'workspace.rename': { params: { path: string; title: string }; result: WorkspaceEntry };
  'workspace.move': { params: { path: string; toFolder: string }; result: WorkspaceEntry };
  'workspace.duplicate': { params: { path: string }; result: WorkspaceEntry };
  'workspace.delete': { params: { path: string }; result: { ok: true } };
  /** Open a thread: its document and the store's version. Subscribes the client to its patches. */
  /** `origin` is how this client's own edits are labelled in `thread_patch` (to skip its echoes). */
  'thread.open': { params: { path: string }; result: { thread: Thread; version: number; path: string; running?: string; origin?: string } };
  'thread.close': { params: { threadId: string }; result: { ok: true } };
  /** Apply an edit made at `baseVersion`. A mismatch answers code `version_mismatch`. */
  /**
   * `editId` makes the edit idempotent: the same id sent again (a resend after a lost
   * connection) answers the version it got the first time instead of applying it twice.
   */
  'thread.edit': { params: { threadId: string; baseVersion: number; patches: Patch[]; editId?: string }; result: { version: number } };
  'run.start': {
    params: { threadId: string; mode: RunMode; toolCallIds?: string[]; maxTurns?: number };
    result: { runId: string };
  };
  'run.cancel': { params: { runId: string }; result: { ok: true } };
  /**
   * Answer a node waiting in `awaiting_input` inside a live run (MCP elicitation):
   * `{ action: 'accept', content } | { action: 'decline' } | { action: 'cancel' }`.
   */
  'run.input': { params: { runId: string; nodeId: string; value: unknown }; result: { ok: true } };
  'run.list': { params: { threadId: string }; result: RunRef[] };
  'run.get': { params: { threadId: string; runId: string }; result: RunRecord };
  'run.delete': { params: { threadId: string; runId: string }; result: { ok: true } };
  /** Live runs' current trees and node snapshots, then live envelopes (docs/architecture.md#sequence-and-snapshots). */
  'stream.subscribe': { params: { threadId?: string }; result: { ok: true } };
  'stream.snapshot': { params: { runId: string; nodeId: string }; result: { ok: true } };
  /** Backpressure: the client has processed `count` pushed frames. */
  'stream.ack': { params: { count: number }; result: { ok: true } };
  'settings.providers': { params: Record<string, never>; result: ProviderInfo[] };
  /** Where this host keeps its data: $STEPWISE_HOME and the workspace folder in it. */
  'settings.app': { params: Record<string, never>; result: { home: string; workspaceDir: string } };
  /**
   * Where settings/providers.json is and, when it cannot be read, why (line and column of a
   * syntax error). `settings.providers` then lists the built-ins alone.
   */
  'settings.providersFile': { params: Record<string, never>; result: { file: string; error?: string } };
  /** Add or update a provider; without `api`, an existing (or built-in) provider keeps its API. */
  'settings.saveProvider': { params: { id: string; api?: string; baseUrl?: string; apiKey?: string }; result: ProviderInfo[] };
  /** Remove a provider added in Settings, with its stored API key; built-ins cannot be removed. */
  'settings.removeProvider': { params: { id: string }; result: ProviderInfo[] };
  'mcp.servers': { params: Record<string, never>; result: McpServerInfo[] };
  'mcp.tools': { params: { server: string }; result: McpToolInfo[] };
  'mcp.test': { params: { server: string }; result: { ok: boolean; message: string; stderr?: string } };
  /** Add or replace a server in settings/mcp.json (`entry` in the mcpServers format). */
  'mcp.saveServer': { params: { name: string; entry: Record<string, unknown> }; result: McpServerInfo[] };
  'mcp.removeServer': { params: { name: string }; result: McpServerInfo[] };
  /** Add the servers of a Claude Desktop, Cursor or VS Code config file (a path on the host). */
  'mcp.import': { params: { file: string }; result: { added: string[]; notes: string[] } };
}
export type HostMethod = keyof HostMethods;

/**
 * Every method of {@link HostMethods}, at run time (the desktop IPC accepts exactly these; the
 * web host fuzz test drives each one). The type check keeps it whole: a method added to
 * HostMethods and not here, or one here that is not there, fails it.
 */
export const HOST_METHODS = Object.keys({
  'workspace.list': true,
  'workspace.create': true,
  'workspace.createFolder': true,
  'workspace.rename': true,
  'workspace.move': true,
  'workspace.duplicate': true,
  'workspace.delete': true,
  'thread.open': true,
  'thread.close': true,
  'thread.edit': true,
  'run.start': true,
  'run.cancel': true,
  'run.input': true,
  'run.list': true,
  'run.get': true,
  'run.delete': true,
  'stream.subscribe': true,
  'stream.snapshot': true,
  'stream.ack': true,
  'settings.providers': true,
  'settings.app': true,
  'settings.providersFile': true,
  'settings.saveProvider': true,
  'settings.removeProvider': true,
  'mcp.servers': true,
  'mcp.tools': true,
  'mcp.test': true,
  'mcp.saveServer': true,
  'mcp.removeServer': true,
  'mcp.import': true,
} satisfies Record<HostMethod, true>) as HostMethod[];
export type HostParams<M extends HostMethod> = HostMethods[M]['params'];
export type HostResult<M extends HostMethod> = HostMethods[M]['result'];

export interface HostRequest<M extends HostMethod = HostMethod> {
  id: number;
  method: M;
  params: HostParams<M>;
}
export interface HostResponse {
  id: number;
  result?: unknown;
  error?: { message: string; code?: string };
}

/** Events the host pushes besides envelopes. */
export type HostEvent =
  | { type: 'workspace_changed' }
  | { type: 'run_started'; runId: string; threadId: string; mode: RunMode }
  | { type: 'run_ended'; runId: string; threadId: string; status: ExecNode['status'] }
  | { type: 'notice'; level: 'info' | 'warn' | 'error'; message: string };

export type HostPush = Envelope | HostEvent;
