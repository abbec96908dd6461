/**
 * Executors for the tools that need no server: function tools (their result is typed by the
 * user, so running one explains that) and agent tools (another thread run as a nested agent).
 */
import type { Tool, ToolCall, ToolOutput } from '../../shared/thread/schema';
import type { ToolContext, ToolExecutor } from './types';

const text = (t: string, isError: boolean): ToolOutput => ({ content: [{ type: 'text', text: t }], isError });

/** Function tools have no code in Stepwise: the user types their result. */
export const functionToolExecutor: ToolExecutor = {
  handles: (tool: Tool) => tool.type === 'function',
  async execute(tool: Tool): Promise<ToolOutput> {
    return text(`"${tool.name}" is a function tool: Stepwise cannot run it. Type its result on the tool call, then Continue.`, true);
  },
};

/** Agent tools run their thread as a nested agent with the call's input as the user message. */
export const agentToolExecutor: ToolExecutor = {
  handles: (tool: Tool) => tool.type === 'agent',
  async execute(tool: Tool, call: ToolCall, ctx: ToolContext): Promise<ToolOutput> {
    if (tool.type !== 'agent') return text('Not an agent tool.', true);
    const args = call.arguments as { input?: unknown };
    const userText = typeof args.input === 'string' ? args.input : JSON.stringify(call.arguments);
    const r = await ctx.nestedAgent(tool.threadPath, userText);
    return text(r.text, r.isError);
  },
};

/** Built-in tools: none are defined yet; a clear error names the tool. */
export const builtinToolExecutor: ToolExecutor = {
  handles: (tool: Tool) => tool.type === 'builtin',
  async execute(tool: Tool): Promise<ToolOutput> {
    return text(`Unknown built-in tool "${tool.name}".`, true);
  },
};
