/** What the run buttons offer for a thread (action names: docs/architecture.md#interface-conventions). */
import type { Thread } from '../../../../shared/thread/schema';
import type { ToolCall } from '../../../../shared/thread/messages';
import { badData, repeatedIds } from '../../state/repeated-ids';

export interface RunOffer {
  /** Label of the primary button: Run (next LLM step) or Continue (after tool results). */
  primary: 'Run' | 'Continue';
  /** The primary action is possible now. */
  canPrimary: boolean;
  /** Tool calls of the last assistant message that have no result yet. */
  pending: ToolCall[];
  /** Why the primary action is not possible, for a hint. */
  reason?: string;
}

/**
 * Decide Run vs Continue and the pending tool calls from the thread's last message. Nothing can
 * run while the thread repeats message or tool call ids (a run's results find them by id).
 */
export function runOffer(thread: Thread): RunOffer {
  const offer = offerFor(thread);
  const bad = badData(thread);
  if (bad.length) return { ...offer, canPrimary: false, pending: [], reason: `Data at ${bad[0].pointer} is not valid base64: fix the thread file first.` };
  if (!repeatedIds(thread).length) return offer;
  return { ...offer, canPrimary: false, pending: [], reason: 'The thread repeats ids: Give duplicates new ids first.' };
}

function offerFor(thread: Thread): RunOffer {
  const msgs = thread.context.messages;
  const last = msgs[msgs.length - 1];
  if (!last) return { primary: 'Run', canPrimary: false, pending: [], reason: 'Add a user message first.' };
  if (last.role === 'user') return { primary: 'Run', canPrimary: true, pending: [] };
  const calls = last.toolCalls ?? [];
  const pending = calls.filter((c) => !c.output);
  if (calls.length === 0) return { primary: 'Run', canPrimary: true, pending };
  if (pending.length > 0) return { primary: 'Continue', canPrimary: false, pending, reason: 'Run the pending tool calls or type their results first.' };
  return { primary: 'Continue', canPrimary: true, pending };
}
