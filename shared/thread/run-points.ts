/**
 * Points of a past run (docs/architecture.md#branches-and-time-travel): its model calls in
 * order, the message each call wrote, and the conversation as it was after the run or at one of
 * its nodes — rebuilt from the run record (`RunRecord`: the ids of the messages it started from,
 * the messages it added, the tool results a tool step filled in) and the thread's messages now.
 * Used by "Restore messages", branches made at a run node and time travel.
 */
import type { RunRecord } from '../protocol/host-api';
import type { ExecNode } from '../protocol/nodes';
import type { ToolOutputPatch } from '../protocol/envelopes';
import type { Message } from './messages';

/** What a rebuild gives: the messages, or why they cannot be rebuilt. */
export type Conversation = { ok: true; messages: Message[] } | { ok: false; reason: string };

/** The run's root `run` node. */
function rootOf(rec: Pick<RunRecord, 'nodes'>): ExecNode | undefined {
  return rec.nodes.find((n) => n.kind === 'run' && !n.parentId);
}

/**
 * The run's own model calls (the `llm` nodes right under its root), in the order they were
 * made; nested calls (MCP sampling, agent tools) are not among them. Call k is `[k - 1]`.
 */
export function modelCalls(rec: Pick<RunRecord, 'nodes'>): ExecNode[] {
  const root = rootOf(rec);
  if (!root) return [];
  return rec.nodes.filter((n) => n.kind === 'llm' && n.parentId === root.id).sort((a, b) => a.startedAt - b.startedAt);
}

function hadOutput(n: ExecNode): boolean {
  const out = n.output as { text?: unknown; thinking?: unknown; toolCalls?: unknown[] } | undefined;
  return !!out && (!!out.text || !!out.thinking || (Array.isArray(out.toolCalls) && out.toolCalls.length > 0));
}

/**
 * Model call node id → the id of the assistant message it added. A call records its message id
 * in its input (`input.messageId`); for runs recorded before that, the calls that produced
 * output are paired with the added assistant messages in order (a call with no output added none).
 */
export function callMessages(rec: Pick<RunRecord, 'nodes' | 'messages'>): Map<string, string> {
  const calls = modelCalls(rec);
  const added = ((rec.messages ?? []) as Message[]).filter((m) => m.role === 'assistant');
  const out = new Map<string, string>();
  const ids = new Set(added.map((m) => m.id));
  let next = 0;
  for (const c of calls) {
    const recorded = (c.input as { messageId?: unknown } | undefined)?.messageId;
    if (typeof recorded === 'string') {
      if (ids.has(recorded)) out.set(c.id, recorded);
      continue;
    }
    if (hadOutput(c) && next < added.length) out.set(c.id, added[next++].id);
  }
  return out;
}

/**
 * The conversation right after run `rec`: the messages it started from (by id, as they are in
 * `current` now), then the messages it added, with the tool results a tool step filled in.
 */
export function conversationAfter(rec: RunRecord, current: Message[]): Conversation {
  if (!rec.baseMessageIds) return { ok: false, reason: 'This run was recorded without the messages it started from, so its conversation cannot be rebuilt.' };
  const byId = new Map(current.map((m) => [m.id, m]));
  const missing = rec.baseMessageIds.filter((id) => !byId.has(id));
  if (missing.length) {
    return { ok: false, reason: `${missing.length} of the messages this run started from ${missing.length === 1 ? 'was' : 'were'} deleted since, so its conversation cannot be rebuilt.` };
  }
  const messages: Message[] = [...rec.baseMessageIds.map((id) => structuredClone(byId.get(id)!)), ...structuredClone((rec.messages ?? []) as Message[])];
  for (const o of (rec.toolOutputs ?? []) as ToolOutputPatch[]) {
    const m = messages.find((x) => x.id === o.messageId);
    const call = m?.role === 'assistant' ? m.toolCalls?.find((c) => c.id === o.toolCallId) : undefined;
    if (call) call.output = o.output;
  }
  return { ok: true, messages };
}

/** The model call a node belongs to: the node itself, or the nearest call above it; undefined for the root. */
function callOf(rec: Pick<RunRecord, 'nodes'>, nodeId: string, calls: ExecNode[]): ExecNode | undefined {
  const byId = new Map(rec.nodes.map((n) => [n.id, n]));
  const callIds = new Set(calls.map((c) => c.id));
  for (let n = byId.get(nodeId); n; n = n.parentId ? byId.get(n.parentId) : undefined) if (callIds.has(n.id)) return n;
  return undefined;
}

/**
 * The conversation as it was at node `nodeId` of run `rec`: what the run started from plus the
 * messages of its model calls up to and including the one the node belongs to (a tool node's
 * call keeps the tool results the run gave it). The root node, and a tool step's nodes, give
 * the conversation after the run. `messageId` is the last message kept (absent when none is).
 */
export function conversationAt(rec: RunRecord, current: Message[], nodeId: string): Conversation & { messageId?: string } {
  if (!rec.nodes.some((n) => n.id === nodeId)) return { ok: false, reason: `Run ${rec.runId} has no node ${nodeId}.` };
  const after = conversationAfter(rec, current);
  if (!after.ok) return after;
  const calls = modelCalls(rec);
  const call = callOf(rec, nodeId, calls);
  let keep = after.messages.length;
  if (call) {
    const written = callMessages(rec);
    const upTo = new Set(calls.slice(0, calls.indexOf(call) + 1).map((c) => written.get(c.id)).filter((id): id is string => !!id));
    const base = rec.baseMessageIds?.length ?? 0;
    keep = base;
    for (let i = base; i < after.messages.length; i++) if (upTo.has(after.messages[i].id)) keep = i + 1;
  }
  const messages = after.messages.slice(0, keep);
  return { ok: true, messages, messageId: messages.at(-1)?.id };
}

/** `messages` up to and including message `messageId`; undefined when there is no such message. */
export function messagesThrough(messages: Message[], messageId: string): Message[] | undefined {
  const i = messages.findIndex((m) => m.id === messageId);
  return i < 0 ? undefined : messages.slice(0, i + 1);
}
