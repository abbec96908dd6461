/**
 * Executors for the tools that need no server: function tools (their result is typed by the
 * user, so running one explains that) and agent tools (another thread run as a nested agent).
 * Built-in tools: builtin/executor.ts.
 */
import type { Tool } from '../../shared/thread/tools';
import type { ToolCall, ToolOutput } from '../../shared/thread/messages';
import { toolErrorOutput, toolOutput } from '../../shared/thread/tool-output';
import type { ToolContext, ToolExecutor } from './types';

/** Function tools have no code in Stepwise: the user types their result. */
export const functionToolExecutor: ToolExecutor = {
  handles: (tool: Tool) => tool.type === 'function',
  async execute(tool: Tool): Promise<ToolOutput> {
    return toolErrorOutput(`"${tool.name}" is a function tool: Stepwise cannot run it. Type its result on the tool call, then Continue.`);
  },
};

/** Agent tools run their thread as a nested agent with the call's input as the user message. */
export const agentToolExecutor: ToolExecutor = {
  handles: (tool: Tool) => tool.type === 'agent',
  async execute(tool: Tool, call: ToolCall, ctx: ToolContext): Promise<ToolOutput> {
    if (tool.type !== 'agent') return toolErrorOutput('Not an agent tool.');
    const args = call.arguments as { input?: unknown };
    const userText = typeof args.input === 'string' ? args.input : JSON.stringify(call.arguments);
    const r = await ctx.nestedAgent(tool.threadPath, userText);
    return toolOutput(r.text, r.isError);
  },
};
