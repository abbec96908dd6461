/**
 * What the request handlers (./handlers/) work with: the host core's services and one
 * connected client's bookkeeping. Its own module so that host-core.ts (which builds a context)
 * and the handlers (which use one) do not import each other.
 */
import type { McpServerInfo, McpToolInfo, WorkspaceEntry } from '../../shared/protocol/host-api';
import type { Thread } from '../../shared/thread/schema';
import type { McpHostMethods } from '../../shared/protocol/mcp';
import type { McpResourceMethod } from '../../shared/protocol/contract/mcp-resources';
import type { McpLogEntry, McpLogFilter } from '../../shared/protocol/mcp';
import type { ThreadStore } from './store/thread-store';
import type { BridgeClient, StreamBridge } from './bridge/stream-bridge';
import type { RunSupervisor } from './supervisor/run-supervisor';
import type { RunController } from './runs';
import type { KeyCodec } from './settings/providers';
import type { EvalService } from './eval/eval-service';
import type { SkillRoot } from './skills/discover';

/**
 * The configured MCP servers as the `mcp.servers` / `mcp.tools` / `mcp.test` requests see them:
 * main/core/mcp/service.ts's `McpService` (which also runs the mcp-host and connects runs to
 * it) provides it.
 */
export interface McpServerCatalog {
  servers(): Promise<McpServerInfo[]> | McpServerInfo[];
  tools(server: string): Promise<McpToolInfo[]>;
  test(server: string): Promise<{ ok: boolean; message: string; stderr?: string }>;
  /** Calls `listener` each time a server's connection status changes; returns the unsubscribe. */
  onStatus?(listener: (info: McpServerInfo) => void): () => void;
  /** Resources, templates, prompts and completions (shared/protocol/contract/mcp-resources.ts). */
  resourceRequest?<M extends McpResourceMethod>(method: M, params: McpHostMethods[M]['params']): Promise<McpHostMethods[M]['result']>;
  /** Calls `listener` each time a subscribed resource changes; returns the unsubscribe. */
  onResourceUpdated?(listener: (server: string, uri: string) => void): () => void;
  /** A server's protocol log (every message in and out), filtered, and a stdio server's stderr. */
  serverLog?(server: string, filter?: McpLogFilter): Promise<{ stderr: string; messages: McpLogEntry[] }>;
  /** Calls `listener` with each protocol log entry as it is recorded; returns the unsubscribe. */
  onLog?(listener: (server: string, entry: McpLogEntry) => void): () => void;
  /** Sets the roots announced to a server (`notifications/roots/list_changed`). */
  setRoots?(server: string, roots: string[]): Promise<McpServerInfo>;
  /** Signs in to a remote server again (OAuth). */
  authorize?(server: string): Promise<McpServerInfo>;
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
  /** Writes a whole thread (its id kept) as a new file named after its title. */
  createWhole(folder: string, thread: Thread): Promise<WorkspaceEntry>;
  createFolder(relPath: string): Promise<WorkspaceEntry>;
  rename(relPath: string, title: string): Promise<WorkspaceEntry>;
  move(relPath: string, toFolder: string): Promise<WorkspaceEntry>;
  duplicate(relPath: string): Promise<WorkspaceEntry>;
  delete(relPath: string): Promise<unknown>;
}

/** How a client's own changes are labelled in `thread_patch` and `thread_update` pushes. */
export const clientOrigin = (clientId: number) => `client:${clientId}`;

/** One connected client (a window, a browser tab, the CLI) as the handlers see it. */
export interface ClientState {
  id: number;
  stream: BridgeClient;
  /** Ids of the threads this client has open (it receives their `thread_patch` pushes). */
  openThreads: Set<string>;
  /** Of those, the threads whose Yjs document it joined (it gets their `thread_update`s instead of `thread_patch`es). */
  yjsThreads: Set<string>;
}

/** The host core's services, shared by every request handler. */
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
  /** The folders searched for skills (`settings.skills`, a run's enabled skills). */
  skillRoots?: SkillRoot[];
  /** Datasets and batches (set once the core is built: batches run on the core itself). */
  evals?: EvalService;
}
