/**
 * The runner's MCP tool executors: MCP tools run in the mcp-host, reached through the `mcp`
 * channel that the host relays (DESIGN §1). Without an mcp-host, MCP tool calls fail clearly.
 */
import type { RunSpec } from '../../shared/protocol/runner';
import type { Tool, ToolOutput } from '../../shared/thread/schema';
import type { ToolExecutor } from './types';
import { channelPort } from '../process-port';
import { McpToolExecutor } from './mcp-executor';

const unavailable: ToolExecutor = {
  handles: (tool: Tool) => tool.type === 'mcp',
  async execute(tool: Tool): Promise<ToolOutput> {
    const server = tool.type === 'mcp' ? tool.server : '?';
    return { content: [{ type: 'text', text: `MCP server "${server}" is not reachable: this run has no mcp-host.` }], isError: true };
  },
};

export function createMcpExecutors(spec: RunSpec): ToolExecutor[] {
  if (!spec.mcp) return [unavailable];
  return [new McpToolExecutor(channelPort('mcp'))];
}
