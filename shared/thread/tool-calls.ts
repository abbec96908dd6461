/** Pure helpers over a thread's tool calls, shared by the runner (tool step) and the host (checks before a run). */
import type { AssistantMessage, Thread, ToolCall } from './schema';

/** The last assistant message's tool calls that have no output yet; undefined when there are none. */
export function pendingToolCalls(thread: Thread): { message: AssistantMessage; calls: ToolCall[] } | undefined {
  const msgs = thread.context.messages;
  const last = msgs[msgs.length - 1];
  if (!last || last.role !== 'assistant' || !last.toolCalls?.length) return undefined;
  const calls = last.toolCalls.filter((c) => !c.output);
  return calls.length ? { message: last, calls } : undefined;
}

/**
 * Why a tool step over `toolCallIds` (all pending calls when empty) has nothing to run, or
 * undefined when it has: no pending calls at all, or ids that are not pending (named, with
 * the ids that are).
 */
export function toolStepProblem(thread: Thread, toolCallIds?: string[]): string | undefined {
  const pending = pendingToolCalls(thread);
  if (!pending) return 'No pending tool calls to run: the last message has none without a result.';
  if (!toolCallIds?.length) return undefined;
  const ids = new Set(pending.calls.map((c) => c.id));
  const unknown = toolCallIds.filter((id) => !ids.has(id));
  if (!unknown.length) return undefined;
  return `Tool call${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not pending in the last message (pending: ${[...ids].join(', ')}).`;
}
