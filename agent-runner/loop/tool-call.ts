/**
 * Executes one tool call as one `tool` node: finds the executor for the tool's kind, gives it
 * a ToolContext bound to the node (progress, logs, nested LLM calls, nested agents,
 * elicitation), and closes the node with the result. Failures are results with isError.
 */
import type { Thread } from '../../shared/thread/schema';
import type { Tool } from '../../shared/thread/tools';
import type { ToolCall, ToolOutput } from '../../shared/thread/messages';
import type { ToolContext, ToolExecutor, NestedLlmCall } from '../tools/types';
import type { LlmCallResult } from '../providers/types';
import type { RunTree } from './tree';
import { toolParameters } from './messages';
import { toolErrorOutput } from '../../shared/thread/tool-output';

/** What the loop provides for nested work caused by a tool. */
export interface ToolHost {
  tree: RunTree;
  thread: Thread;
  signal: AbortSignal;
  executors: ToolExecutor[];
  providerIds: string[];
  nestedLlm(parentId: string, call: NestedLlmCall): Promise<LlmCallResult>;
  nestedAgent(parentId: string, threadPath: string, userText: string): Promise<{ text: string; isError: boolean }>;
  /** Resolves with the user's answer for `nodeId` (sent by the host as an `input` message). */
  waitForInput(nodeId: string): Promise<unknown>;
}

export async function executeToolCall(host: ToolHost, call: ToolCall, parentId: string, existingNodeId?: string): Promise<ToolOutput> {
  const { tree } = host;
  const nodeId =
    existingNodeId ?? tree.open({ kind: 'tool', name: call.name, parentId, toolCallId: call.id, input: call.arguments });
  if (existingNodeId) tree.update(nodeId, { status: 'running' });
  const tool = host.thread.context.tools.find((t) => t.name === call.name);
  let output: ToolOutput;
  if (!tool) {
    output = toolErrorOutput(`Unknown tool "${call.name}": the thread has no tool of that name. Add it under Tools, or type a result.`);
  } else if (call.rawArguments !== undefined && Object.keys(call.arguments).length === 0 && call.rawArguments.trim() !== '') {
    output = toolErrorOutput(`The arguments of tool call ${call.id} are not valid JSON: ${call.rawArguments.slice(0, 200)}. Edit them, then run the tool.`);
  } else {
    output = (await checkArguments(tool, call)) ?? (await runExecutor(host, tool, call, nodeId));
  }
  const cancelled = host.signal.aborted;
  tree.close(nodeId, { status: cancelled ? 'cancelled' : output.isError ? 'error' : 'completed', output });
  return output;
}

/**
 * Agent and built-in tools are checked against their JSON Schema here, as MCP tools are in
 * their executor: a call with bad arguments never runs, and the error names the path.
 */
async function checkArguments(tool: Tool, call: ToolCall): Promise<ToolOutput | undefined> {
  if (tool.type !== 'agent' && tool.type !== 'builtin') return undefined;
  const schema = tool.parameters ?? toolParameters(tool);
  const { validateArguments } = await import('../../shared/json/json-schema');
  const problems = validateArguments(schema, call.arguments);
  if (!problems?.length) return undefined;
  return toolErrorOutput(`Invalid arguments for tool "${tool.name}", not run: ${problems.join('; ')}. Edit the arguments, then run the tool again.`);
}

async function runExecutor(host: ToolHost, tool: Tool, call: ToolCall, nodeId: string): Promise<ToolOutput> {
  const executor = host.executors.find((e) => e.handles(tool));
  if (!executor) return toolErrorOutput(`No executor for ${tool.type} tool "${tool.name}".`);
  const ctx: ToolContext = {
    runId: host.tree.runId,
    providerIds: host.providerIds,
    nodeId,
    thread: host.thread,
    signal: host.signal,
    progress: (progress, total, message) => host.tree.update(nodeId, { attrs: { progress: { progress, total, message } } }),
    // One line each: a node_update carries the new line only (the node keeps the last 500).
    log: (level, data) => host.tree.log(nodeId, { level, data, t: Date.now() }),
    nestedLlm: (c) => host.nestedLlm(nodeId, c),
    nestedAgent: (threadPath, userText) => host.nestedAgent(nodeId, threadPath, userText),
    awaitInput: async (request) => {
      host.tree.update(nodeId, { status: 'awaiting_input', attrs: { inputRequest: request } });
      try {
        return await host.waitForInput(nodeId);
      } finally {
        host.tree.update(nodeId, { status: 'running', attrs: { inputRequest: null } });
      }
    },
    setAttrs: (attrs) => host.tree.update(nodeId, { attrs }),
  };
  try {
    return await executor.execute(tool, call, ctx);
  } catch (err) {
    return toolErrorOutput(`Tool "${tool.name}" failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
