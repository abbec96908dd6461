/**
 * "Restore messages" of a past run: the conversation as it was right after that run — the
 * messages the run started from (by id, as they are now), then the messages it added, with the
 * tool results a tool step filled in (`conversationAfter` in shared/thread/run-points.ts).
 */
import type { RunRecord } from '../../../../shared/protocol/host-api';
import type { Message } from '../../../../shared/thread/messages';
import { conversationAfter, type Conversation } from '../../../../shared/thread/run-points';

export type RestorePlan = Conversation;

export function restorePlan(rec: RunRecord, current: Message[]): RestorePlan {
  if (!rec.baseMessageIds) return { ok: false, reason: 'This run was recorded without the messages it started from, so it cannot be restored.' };
  if (!rec.messages?.length && !rec.toolOutputs?.length) return { ok: false, reason: 'The run added no messages and no tool results.' };
  return conversationAfter(rec, current);
}
