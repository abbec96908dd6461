/**
 * Time travel in the host (docs/architecture.md#branches-and-time-travel): checks a request to
 * re-run a thread's run from one of its model calls, and gives the thread the new run starts
 * from — the messages the earlier run started from, which the thread must still start with.
 * The runner plays the calls before `fromCall` back (agent-runner/recorded-run.ts).
 */
import type { RunMode, Thread } from '../../shared/thread/schema';
import { modelCalls } from '../../shared/thread/run-points';
import { readRunChecked } from './journal/run-files';
import { HostError } from './errors';

/** The thread a time-travel run of `thread` from `from` starts with; throws HostError when it cannot start. */
export async function timeTravelStart(home: string, thread: Thread, mode: RunMode, from: { runId: string; fromCall: number }): Promise<{ thread: Thread }> {
  if (mode === 'tool') throw new HostError('bad_request', 'Time travel re-runs model calls: use mode step or react, not tool.');
  const rec = await readRunChecked(home, thread.id, from.runId);
  const calls = modelCalls(rec).length;
  if (mode === 'step' && from.fromCall > 1) throw new HostError('bad_request', `A step makes one model call: re-run call ${from.fromCall} of run ${from.runId} in mode react.`);
  if (from.fromCall > calls) throw new HostError('bad_request', `Run ${from.runId} made ${calls} model call(s); there is no call ${from.fromCall} to re-run from.`);
  const base = rec.baseMessageIds;
  if (!base) throw new HostError('bad_request', `Run ${from.runId} was recorded without the messages it started from, so it cannot be re-run; branch from it instead.`);
  const ids = thread.context.messages.map((m) => m.id);
  const changed = base.findIndex((id, i) => ids[i] !== id);
  if (changed >= 0) {
    throw new HostError('thread_changed', `The thread no longer starts with the ${base.length} message(s) run ${from.runId} started from (message ${changed + 1} differs): branch from that run instead.`);
  }
  return { thread: { ...thread, context: { ...thread.context, messages: thread.context.messages.slice(0, base.length) } } };
}
