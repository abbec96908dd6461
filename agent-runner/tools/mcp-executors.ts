/**
 * The runner's MCP tool executors: MCP tools run in the mcp-host, reached through the `mcp`
 * channel that the host relays (Node), or through a direct channel the host brokers
 * (Electron; tools/mcp/brokered-port.ts) — RunSpec.mcpTransport says which (docs/architecture.md#mcp-channel).
 * Without an mcp-host, MCP tool calls fail clearly. The executor (and its JSON Schema
 * validator) loads on the first MCP call.
 */
import type { Port, RunSpec } from '../../shared/protocol/runner';
import type { Tool } from '../../shared/thread/tools';
import type { ToolCall, ToolOutput } from '../../shared/thread/messages';
import type { ToolContext, ToolExecutor } from './types';
import { channelPort, onTransfer, transferredPort } from '../../shared/process-port.node.js';
import type { RunnerToHostMcpControl, RunnerToMcp } from '../../shared/protocol/mcp';
import { toolErrorOutput } from '../../shared/thread/tool-output';
import { brokeredMcpPort } from './mcp/brokered-port';

const unavailable: ToolExecutor = {
  handles: (tool: Tool) => tool.type === 'mcp',
  async execute(tool: Tool): Promise<ToolOutput> {
    const server = tool.type === 'mcp' ? tool.server : '?';
    return toolErrorOutput(`MCP server "${server}" is not reachable: this run has no mcp-host.`);
  },
};

/**
 * The run's Port to the mcp-host for `spec.mcpTransport`. What arrives on it is unchecked here:
 * the brokered port and McpToolExecutor check it against the contract where they receive it.
 */
function mcpPort(spec: RunSpec): Port<unknown, RunnerToMcp> {
  if (spec.mcpTransport !== 'port') return channelPort<unknown, RunnerToMcp>('mcp');
  return brokeredMcpPort({
    control: channelPort<unknown, RunnerToHostMcpControl>('mcp'),
    onPort: (listener) =>
      onTransfer('mcp', (msg, ports) => {
        for (const extra of ports.slice(1)) extra.close();
        listener(msg, transferredPort<unknown, RunnerToMcp>(ports[0]));
      }),
  });
}

export function createMcpExecutors(spec: RunSpec): ToolExecutor[] {
  if (!spec.mcp) return [unavailable];
  const port = mcpPort(spec);
  let executor: Promise<ToolExecutor> | undefined;
  const load = () => (executor ??= import('./mcp-executor').then((m) => new m.McpToolExecutor(port)));
  return [
    {
      handles: (tool: Tool) => tool.type === 'mcp',
      execute: async (tool: Tool, call: ToolCall, ctx: ToolContext) => (await load()).execute(tool, call, ctx),
    },
  ];
}
