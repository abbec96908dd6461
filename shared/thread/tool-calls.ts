/** Pure helpers over a thread's tool calls, shared by the runner (tool step) and the host (checks before a run). */
import type { AssistantMessage, ToolCall } from './messages';
import type { Thread } from './schema';
import { describeDuplicates, duplicateIds } from './validate';
import { dataProblems } from './base64';

/** The last assistant message's tool calls that have no output yet; undefined when there are none. */
export function pendingToolCalls(thread: Thread): { message: AssistantMessage; calls: ToolCall[] } | undefined {
  const msgs = thread.context.messages;
  const last = msgs[msgs.length - 1];
  if (!last || last.role !== 'assistant' || !last.toolCalls?.length) return undefined;
  const calls = last.toolCalls.filter((c) => !c.output);
  return calls.length ? { message: last, calls } : undefined;
}

/** A tool call as people see it: its tool's name and its id, e.g. `get-sum (call_1)`. */
export function describeToolCall(call: Pick<ToolCall, 'name' | 'id'>): string {
  return `${call.name} (${call.id})`;
}

/**
 * Why a tool step over `toolCallIds` (all pending calls when empty) has nothing to run, or
 * undefined when it has: no pending calls at all, or ids that are not pending. Calls are named
 * by tool name and id (`get-sum (call_1)`, also a call that already has a result); an id the
 * last message does not have is quoted, so an empty one still shows.
 */
export function toolStepProblem(thread: Thread, toolCallIds?: string[]): string | undefined {
  const pending = pendingToolCalls(thread);
  if (!pending) return 'No pending tool calls to run: the last message has none without a result.';
  if (!toolCallIds?.length) return undefined;
  const ids = new Set(pending.calls.map((c) => c.id));
  const unknown = toolCallIds.filter((id) => !ids.has(id));
  if (!unknown.length) return undefined;
  const named = unknown.map((id) => {
    const call = pending.message.toolCalls?.find((c) => c.id === id);
    return call ? describeToolCall(call) : JSON.stringify(id);
  });
  const one = unknown.length === 1;
  return `Tool call${one ? '' : 's'} ${named.join(', ')} ${one ? 'is' : 'are'} not pending in the last message (pending: ${pending.calls.map(describeToolCall).join(', ')}).`;
}

/** Why a run cannot start, with a stable code, or undefined when it can. */
export interface RunProblem {
  code: 'no_pending_tool_calls' | 'pending_tool_calls' | 'no_messages' | 'duplicate_ids' | 'invalid_data';
  message: string;
}

/**
 * The checks before a run of `mode` (the runner makes them too): no message or tool call id may
 * repeat (a run's results find their message and call by id, and would land on the wrong one);
 * image, audio and document data must be base64 (base64.ts: broken data is not sent on);
 * a tool step needs pending tool calls (`toolStepProblem`); an LLM step or a ReAct loop needs
 * messages and no tool call waiting for its result.
 */
export function runProblem(thread: Thread, mode: 'step' | 'react' | 'tool', toolCallIds?: string[]): RunProblem | undefined {
  const repeated = duplicateIds(thread);
  if (repeated.length) {
    return {
      code: 'duplicate_ids',
      message: `The thread repeats ids (${describeDuplicates(repeated)}). Give the repeats new ids first (Give duplicates new ids, in the playground).`,
    };
  }
  const [bad] = dataProblems(thread, 1);
  if (bad) {
    return {
      code: 'invalid_data',
      message: `The data at ${bad.pointer} ${bad.message}. Fix the thread file first: broken data is not sent to a model.`,
    };
  }
  if (mode === 'tool') {
    const message = toolStepProblem(thread, toolCallIds);
    return message ? { code: 'no_pending_tool_calls', message } : undefined;
  }
  const pending = pendingToolCalls(thread);
  if (pending) {
    return {
      code: 'pending_tool_calls',
      message: `Tool calls are waiting for results: ${pending.calls.map(describeToolCall).join(', ')}. Run them (Run tool / Run all tools) or type their results, then Continue.`,
    };
  }
  if (thread.context.messages.length === 0) return { code: 'no_messages', message: 'The thread has no messages: add a user message, then Run.' };
  return undefined;
}
