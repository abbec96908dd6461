/**
 * Which turn a run belongs to (docs/architecture.md#turns). A turn is what one user message sets
 * going: the model run that answers it, the tool runs that execute the calls it made, and the
 * model runs that answer their results (and so on while the model keeps calling tools). Each run
 * after the first names the turn's first run (`RunRecord.turnOf`, `RunRef.turn`), so Run history
 * and Compare show a turn as one, its tools as run rather than "awaiting input".
 */
import type { Thread, RunMode } from '../../shared/thread/schema';
import type { Message } from '../../shared/thread/messages';
import { readRun } from './journal/run-files';

/**
 * The message whose tool calls a run of `mode` works on: for a tool run, the assistant message
 * holding `toolCallIds`; for a model run, the last message when it is an assistant message whose
 * calls all have results (Continue). Undefined for a model run answering a user message.
 */
export function continuedMessage(thread: Thread, mode: RunMode, toolCallIds?: readonly string[]): Message | undefined {
  const msgs = thread.context.messages;
  if (mode === 'tool') return msgs.find((m) => m.role === 'assistant' && m.toolCalls?.some((c) => toolCallIds?.includes(c.id)));
  const last = msgs[msgs.length - 1];
  if (last?.role === 'assistant' && last.toolCalls?.length && last.toolCalls.every((c) => c.output)) return last;
  return undefined;
}

/**
 * The first run of the turn a new run of `thread` continues, or undefined when it starts one. It
 * continues the newest turn when a run of that turn added the message it works on
 * ({@link continuedMessage}); a message typed by hand or restored from elsewhere starts a new one.
 * Reads the turn's run files, newest first; one that cannot be read is passed over.
 */
export async function turnOfRun(home: string, thread: Thread, mode: RunMode, toolCallIds?: readonly string[]): Promise<string | undefined> {
  const message = continuedMessage(thread, mode, toolCallIds);
  const newest = thread.runRefs[thread.runRefs.length - 1];
  if (!message || !newest) return undefined;
  const first = newest.turn ?? newest.id;
  const runs = thread.runRefs.filter((r) => r.id === first || r.turn === first).reverse();
  for (const ref of runs) {
    const added = await readRun(home, thread.id, ref.id).then((rec) => rec.messages ?? [], () => []);
    if (added.some((m) => (m as { id?: unknown }).id === message.id)) return first;
  }
  return undefined;
}
