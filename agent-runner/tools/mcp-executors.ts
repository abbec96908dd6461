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
import { channelPort, onTransfer, transferredPort, type ClosablePort } from '../../shared/process-port.node.js';
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
 * One run's registrations on the process's `mcp` channel, undone when the run ends: a pooled
 * runner process (RUNNER_POOLED_ENV) runs more runs after it, whose messages and brokered
 * channels must not reach this run's executor.
 */
class RunScope {
  private readonly offs: (() => unknown)[] = [];
  private readonly ports = new Set<ClosablePort<unknown, RunnerToMcp>>();

  /** `port` with every listener registered through it removed at {@link dispose}. */
  port<In, Out>(port: Port<In, Out>): Port<In, Out> {
    return {
      post: (msg) => port.post(msg),
      onMessage: (listener) => {
        const off = port.onMessage(listener);
        this.offs.push(off);
        return off;
      },
    };
  }

  /** Transferred `mcp` channels go to `listener` until {@link dispose}, which closes them. */
  onPort(listener: (msg: unknown, port: ClosablePort<unknown, RunnerToMcp>) => void): void {
    this.offs.push(
      onTransfer('mcp', (msg, ports) => {
        for (const extra of ports.slice(1)) extra.close();
        const port = transferredPort<unknown, RunnerToMcp>(ports[0]);
        this.ports.add(port);
        listener(msg, port);
      }),
    );
  }

  dispose(): void {
    for (const off of this.offs.splice(0)) off();
    for (const port of this.ports) port.close();
    this.ports.clear();
  }
}

/**
 * The run's Port to the mcp-host for `spec.mcpTransport`. What arrives on it is unchecked here:
 * the brokered port and McpToolExecutor check it against the contract where they receive it.
 */
function mcpPort(spec: RunSpec, scope: RunScope): Port<unknown, RunnerToMcp> {
  if (spec.mcpTransport !== 'port') return scope.port(channelPort<unknown, RunnerToMcp>('mcp'));
  return brokeredMcpPort({
    control: scope.port(channelPort<unknown, RunnerToHostMcpControl>('mcp')),
    onPort: (listener) => scope.onPort(listener),
  });
}

/** A run's MCP tool executors, and `dispose` for when the run has ended. */
export interface McpExecutors {
  executors: ToolExecutor[];
  /** Removes the run's listeners on the `mcp` channel and closes its brokered channels. */
  dispose(): void;
}

export function createMcpExecutors(spec: RunSpec): McpExecutors {
  if (!spec.mcp) return { executors: [unavailable], dispose: () => {} };
  const scope = new RunScope();
  const port = mcpPort(spec, scope);
  let executor: Promise<ToolExecutor> | undefined;
  const load = () => (executor ??= import('./mcp-executor').then((m) => new m.McpToolExecutor(port)));
  return {
    executors: [
      {
        handles: (tool: Tool) => tool.type === 'mcp',
        execute: async (tool: Tool, call: ToolCall, ctx: ToolContext) => (await load()).execute(tool, call, ctx),
      },
    ],
    dispose: () => scope.dispose(),
  };
}
