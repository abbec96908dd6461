/**
 * Messages between a runner and the mcp-host, and between the host and the mcp-host
 * (docs/architecture.md#mcp-channel). Each message is defined once, by name, in
 * contract/mcp-channel.ts; the types here are derived from it. Under Node the host relays
 * runner ↔ mcp-host traffic, wrapping each runner message as `{ type: 'runner', runId, msg }`.
 * In Electron the host brokers a direct port pair per run instead (`HostToRunnerMcpControl`),
 * so tool-call traffic never passes through main. Also two pure helpers the runner and the UI
 * share.
 */
import type { Static } from '@sinclair/typebox';
import type { McpTool } from '../thread/tools';
import type { Thread } from '../thread/schema';
// From the contract, not host-api.ts: host-api imports runner.ts, which imports this file.
import type { McpToolInfoSchema } from './contract/host-methods';

type McpToolInfo = Static<typeof McpToolInfoSchema>;

export type {
  BundledMcpServer,
  HostToMcpHost,
  HostToRunnerMcpControl,
  McpHostMethod,
  McpHostMethods,
  McpHostToHost,
  McpLogEntry,
  McpLogFilter,
  McpOAuthCredentials,
  McpServerConfig,
  McpToRunner,
  RunnerToHostMcpControl,
  RunnerToMcp,
} from './contract/mcp-channel';

/**
 * How a run reaches the mcp-host (RunSpec.mcpTransport): `relay` — RunnerToMcp on the `mcp`
 * channel of the process link, relayed by the host (Node, where ports cannot cross processes);
 * `port` — the host brokers a direct port to the mcp-host (Electron `MessageChannelMain`).
 */
export type McpTransportMode = 'relay' | 'port';

/**
 * Environment variable the packaged desktop app sets for the mcp-host: the app's own
 * executable, which cannot run scripts as Node (its `runAsNode` fuse is off), so a stdio server
 * configured as that executable with `ELECTRON_RUN_AS_NODE` is refused with a diagnosis
 * (mcp-host/diagnose.ts) instead of starting a second copy of the app.
 */
export const APP_EXECUTABLE_ENV = 'STEPWISE_APP_EXECUTABLE';

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
  if (tool.outputSchema) out.outputSchema = tool.outputSchema;
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
