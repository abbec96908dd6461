/**
 * "Restore messages" of a past run: the conversation as it was right after that run — the
 * messages the run started from (by id, as they are now), then the messages it added, with the
 * tool results a tool step filled in.
 */
import type { RunRecord } from '../../../../shared/protocol/host-api';
import type { ToolOutputPatch } from '../../../../shared/protocol/envelopes';
import type { Message } from '../../../../shared/thread/schema';

export type RestorePlan = { ok: true; messages: Message[] } | { ok: false; reason: string };

export function restorePlan(rec: RunRecord, current: Message[]): RestorePlan {
  const added = (rec.messages ?? []) as Message[];
  const outputs = (rec.toolOutputs ?? []) as ToolOutputPatch[];
  if (!rec.baseMessageIds) return { ok: false, reason: 'This run was recorded without the messages it started from, so it cannot be restored.' };
  if (added.length === 0 && outputs.length === 0) return { ok: false, reason: 'The run added no messages and no tool results.' };
  const byId = new Map(current.map((m) => [m.id, m]));
  const missing = rec.baseMessageIds.filter((id) => !byId.has(id));
  if (missing.length) {
    return { ok: false, reason: `${missing.length} of the messages this run started from ${missing.length === 1 ? 'was' : 'were'} deleted since, so its conversation cannot be rebuilt.` };
  }
  const messages: Message[] = [...rec.baseMessageIds.map((id) => structuredClone(byId.get(id)!)), ...structuredClone(added)];
  for (const o of outputs) {
    const m = messages.find((x) => x.id === o.messageId);
    const call = m?.role === 'assistant' ? m.toolCalls?.find((c) => c.id === o.toolCallId) : undefined;
    if (call) call.output = o.output;
  }
  return { ok: true, messages };
}
