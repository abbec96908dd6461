/**
 * Messages between a runner and the mcp-host, and between the host and the mcp-host
 * (docs/architecture.md#mcp-channel). Under Node the host relays runner ↔ mcp-host traffic, wrapping each runner
 * message as `{ type: 'runner', runId, msg }`. In Electron the host brokers a direct port pair
 * per run instead (`McpPortControl`), so tool-call traffic never passes through main. Also the resolved server configuration the host
 * sends to the mcp-host, and two pure helpers the runner and the UI share.
 */
import type { McpTool, Thread, ToolOutput } from '../thread/schema';
import type { McpServerInfo, McpToolInfo } from './host-api';

/** One configured MCP server after `$ENV` expansion (settings/mcp.json, `mcpServers.<name>`). */
export type McpServerConfig =
  | {
      transport: 'stdio';
      command: string;
      args: string[];
      env: Record<string, string>;
      cwd?: string;
      /** Per-call timeout in ms, reset by each progress notification. Default 60 000. */
      timeoutMs?: number;
    }
  | {
      transport: 'http' | 'sse';
      url: string;
      headers: Record<string, string>;
      timeoutMs?: number;
    };

/** One JSON-RPC message as seen on the wire between the mcp-host and a server. */
export interface McpLogEntry {
  /** ms since the epoch. */
  t: number;
  /** `out`: client → server; `in`: server → client. */
  dir: 'out' | 'in';
  /** Size of the serialised message in bytes (UTF-8). */
  size: number;
  /** JSON-RPC method for requests/notifications. */
  method?: string;
  id?: string | number;
  /** The message; when over the size cap, a string cut at the cap ending in a truncation marker. */
  body: unknown;
  truncated?: boolean;
}

/** Runner → mcp-host. */
export type RunnerToMcp =
  | {
      type: 'call';
      callId: string;
      server: string;
      tool: string;
      arguments: Record<string, unknown>;
      /** The thread's `context.roots` (absolute paths), answered on `roots/list`. */
      roots?: string[];
      /** Overrides the server's per-call timeout (ms). */
      timeoutMs?: number;
    }
  | { type: 'cancel'; callId: string; reason?: string }
  /** The runner's answer to a server request (sampling/elicitation) forwarded during a call. */
  | { type: 'server_request_result'; requestId: string; result?: unknown; error?: { message: string; code?: number } };

/** mcp-host → runner. */
export type McpToRunner =
  /**
   * Brokered transport only: the first message on a new channel, saying the mcp-host serves
   * it. The runner sends nothing on a channel before this, so a channel that dies earlier
   * carried no call and the calls can safely go on the next one.
   */
  | { type: 'ready' }
  | { type: 'progress'; callId: string; progress: number; total?: number; message?: string }
  | { type: 'log'; callId: string; level: string; logger?: string; data: unknown }
  | {
      type: 'server_request';
      callId: string;
      requestId: string;
      kind: 'sampling' | 'elicitation';
      /** The request's params as the server sent them (CreateMessageRequest / ElicitRequest params). */
      params: Record<string, unknown>;
    }
  | {
      type: 'result';
      callId: string;
      /** Failures (connection, timeout, protocol, server error) come back as `isError` output. */
      output: ToolOutput;
      /** JSON-RPC messages this call caused, bodies over the cap truncated. */
      mcpLog: McpLogEntry[];
    };

/** Host → mcp-host requests (UI and CLI), answered by `McpHostResponse`. */
export interface McpHostMethods {
  /**
   * Replaces the servers. `notice` (set while settings/mcp.json is not valid and `servers` are
   * those of its last valid version) is logged on every tool call until the next `configure`.
   */
  configure: { params: { servers: Record<string, McpServerConfig>; notice?: string }; result: { ok: true } };
  servers: { params: Record<string, never>; result: McpServerInfo[] };
  tools: { params: { server: string }; result: McpToolInfo[] };
  test: { params: { server: string }; result: { ok: boolean; message: string; stderr?: string } };
  /** Recent stderr of a stdio server and its protocol log (newest last). */
  serverLog: { params: { server: string }; result: { stderr: string; messages: McpLogEntry[] } };
}
export type McpHostMethod = keyof McpHostMethods;

export type HostToMcpHost =
  | { type: 'request'; id: number; method: McpHostMethod; params: unknown }
  | { type: 'runner'; runId: string; msg: RunnerToMcp }
  /**
   * Brokered transport: the message's transferred `ports[0]` is the mcp-host's end of a
   * channel whose other end went to run `runId`; RunnerToMcp / McpToRunner flow on it unwrapped.
   */
  | { type: 'attach_port'; runId: string }
  /** The run ended: cancel its calls in flight (and close its port, if brokered). */
  | { type: 'run_ended'; runId: string };

export type McpHostToHost =
  | { type: 'response'; id: number; result?: unknown; error?: { message: string } }
  | { type: 'runner'; runId: string; msg: McpToRunner }
  /** The tool list of a server changed (`notifications/tools/list_changed`). */
  | { type: 'tools_changed'; server: string }
  /** The PIDs of the stdio servers running now (the host ends them if the mcp-host is killed). */
  | { type: 'server_pids'; pids: number[] }
  | { type: 'ready' };

/**
 * How a run reaches the mcp-host (RunSpec.mcpTransport): `relay` — RunnerToMcp on the `mcp`
 * channel of the process link, relayed by the host (Node, where ports cannot cross processes);
 * `port` — the host brokers a direct port to the mcp-host (Electron `MessageChannelMain`).
 */
export type McpTransportMode = 'relay' | 'port';

/**
 * Brokered transport, runner → host on the `mcp` channel of the process link: ask for a
 * port to the mcp-host (before the first call, and again after the mcp-host restarted).
 */
export type RunnerToHostMcpControl = { type: 'port_request' };

/** Brokered transport, host → runner on the `mcp` channel of the process link. */
export type HostToRunnerMcpControl =
  /** The transferred `ports[0]` is the run's end of a channel to mcp-host generation `epoch`. */
  | { type: 'port'; epoch: number }
  /** The mcp-host could not be started; `message` says why. Calls waiting for a port fail. */
  | { type: 'port_unavailable'; message: string }
  /** mcp-host generation `epoch` exited; its ports are dead and calls in flight on them are lost. */
  | { type: 'port_lost'; epoch: number; message: string };

/** Default per-call timeout (ms); reset on each progress notification. */
export const MCP_DEFAULT_TIMEOUT_MS = 60_000;

/**
 * Turns a tool listed by a server into the thread's `McpTool` entry: JSON Schema and
 * annotations kept as the server gave them. `name` (what the model sees) defaults to the
 * tool's own name.
 */
export function toMcpTool(server: string, tool: McpToolInfo, name = tool.name): McpTool {
  const out: McpTool = {
    type: 'mcp',
    name,
    server,
    toolName: tool.name,
    inputSchema: tool.inputSchema ?? { type: 'object' },
  };
  if (tool.description) out.description = tool.description;
  const a = tool.annotations;
  if (a && typeof a === 'object') {
    const ann: NonNullable<McpTool['annotations']> = {};
    if (typeof a.title === 'string') ann.title = a.title;
    for (const k of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
      if (typeof a[k] === 'boolean') ann[k] = a[k] as boolean;
    }
    out.annotations = ann;
  }
  return out;
}

/**
 * Whether ReAct mode must stop at this MCP tool for the user (docs/architecture.md#the-execution-tree): a tool the thread
 * marks `requiresApproval`, or one with `destructiveHint: true` unless the thread sets
 * `settings.allowDestructive`. `readOnlyHint: true` never needs approval (per the MCP spec,
 * `destructiveHint` is meaningful only when the tool is not read-only).
 */
export function needsApproval(tool: McpTool, thread: Pick<Thread, 'settings'>): boolean {
  if (tool.requiresApproval) return true;
  if (tool.annotations?.readOnlyHint === true) return false;
  if (tool.annotations?.destructiveHint === true) return !thread.settings?.allowDestructive;
  return false;
}
