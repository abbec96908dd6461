/**
 * The runner's MCP tool executors: MCP tools run in the mcp-host, reached through the `mcp`
 * channel that the host relays (DESIGN §1). Without an mcp-host, MCP tool calls fail clearly.
 * The executor (and its JSON Schema validator) loads on the first MCP call.
 */
import type { RunSpec } from '../../shared/protocol/runner';
import type { Tool, ToolCall, ToolOutput } from '../../shared/thread/schema';
import type { ToolContext, ToolExecutor } from './types';
import { channelPort } from '../process-port';
import type { McpToRunner, RunnerToMcp } from '../../shared/protocol/mcp';

const unavailable: ToolExecutor = {
  handles: (tool: Tool) => tool.type === 'mcp',
  async execute(tool: Tool): Promise<ToolOutput> {
    const server = tool.type === 'mcp' ? tool.server : '?';
    return { content: [{ type: 'text', text: `MCP server "${server}" is not reachable: this run has no mcp-host.` }], isError: true };
  },
};

export function createMcpExecutors(spec: RunSpec): ToolExecutor[] {
  if (!spec.mcp) return [unavailable];
  const port = channelPort<McpToRunner, RunnerToMcp>('mcp');
  let executor: Promise<ToolExecutor> | undefined;
  const load = () => (executor ??= import('./mcp-executor').then((m) => new m.McpToolExecutor(port)));
  return [
    {
      handles: (tool: Tool) => tool.type === 'mcp',
      execute: async (tool: Tool, call: ToolCall, ctx: ToolContext) => (await load()).execute(tool, call, ctx),
    },
  ];
}
