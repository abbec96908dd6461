/**
 * Pure edits of an assistant message's tool calls, made by hand in the playground ("what if the
 * model had called tool X with these arguments?"). They mutate the thread they are given, so
 * the playground applies them to the Immer draft of `session.edit`, which makes each one an
 * undo step.
 */
import type { AssistantMessage, ToolCall } from '../../../../shared/thread/messages';
import type { Thread } from '../../../../shared/thread/schema';
import type { Tool } from '../../../../shared/thread/tools';
import { toolCallIdsOf } from '../../../../shared/thread/ids';

/** One option of the "Tool of the new call" select. */
export interface ToolChoice {
  /** The tool's name as the model sees it, which is also the name a call to it carries. */
  value: string;
  label: string;
}

/**
 * The thread's tools as choices for a new tool call, in the thread's order: named as the tool
 * call editor names calls (the name the model sees, e.g. an MCP tool's thread name, not its
 * name on the server). Tools without a name and repeated names are left out.
 */
export function toolChoices(tools: Tool[]): ToolChoice[] {
  const seen = new Set<string>();
  const out: ToolChoice[] = [];
  for (const t of tools) {
    if (!t.name || seen.has(t.name)) continue;
    seen.add(t.name);
    out.push({ value: t.name, label: t.name });
  }
  return out;
}

/** A new pending tool call (no output) of tool `name`, with empty arguments `{}`. */
export function newToolCall(name: string, id: string): ToolCall {
  return { id, name: name.trim(), arguments: {} };
}

function assistantById(thread: Thread, messageId: string): AssistantMessage | undefined {
  const m = thread.context.messages.find((x) => x.id === messageId);
  return m?.role === 'assistant' ? m : undefined;
}

/**
 * Append `call` to the tool calls of the assistant message `messageId`. Returns false, and
 * changes nothing, when there is no such assistant message or the id is already used.
 */
export function addToolCall(thread: Thread, messageId: string, call: ToolCall): boolean {
  const m = assistantById(thread, messageId);
  if (!m || !call.name || toolCallIdsOf(thread).has(call.id)) return false;
  (m.toolCalls ??= []).push(call);
  return true;
}

/**
 * Remove tool call `callId` from the assistant message `messageId`; returns the removed call,
 * or undefined when there is none. A message left without calls loses its `toolCalls` field.
 *
 * Tool results are not separate messages in a Thread: a call's result is its `output`, so it
 * is removed together with the call and no orphan result can remain (the providers write a
 * result message only for a call that is there). The playground says so in the control's
 * tooltip ("Remove this tool call and its result") rather than refusing.
 */
export function removeToolCall(thread: Thread, messageId: string, callId: string): ToolCall | undefined {
  const m = assistantById(thread, messageId);
  const i = m?.toolCalls?.findIndex((c) => c.id === callId) ?? -1;
  if (!m || i < 0) return undefined;
  const [removed] = m.toolCalls!.splice(i, 1);
  if (m.toolCalls!.length === 0) delete m.toolCalls;
  return removed;
}
