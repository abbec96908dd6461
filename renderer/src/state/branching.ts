/**
 * The window's branch and time-travel actions (docs/architecture.md#branches-and-time-travel):
 * "Branch from here" on a message or a run node (`thread.branch`, then the branch opens),
 * "Run from this message" (the later messages dropped as one undoable edit, then a run), and
 * "Re-run from this call" (`run.start` with `fromRun`).
 */
import type { AppState } from './app';
import { RUN_NOT_STARTED, runStartHint } from './app';
import type { ThreadSession } from './thread-session';
import type { RunMode } from '../../../shared/thread/schema';

/** Resolves once no edit of this window is on its way to the host (at most `ms` later). */
async function settled(session: ThreadSession, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!session.settled && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
}

/** Branch the open thread after message `messageId`, or at node `nodeId` of its run `runId`; opens the branch. */
export async function branchFrom(app: AppState, at: { messageId: string } | { runId: string; nodeId: string }): Promise<void> {
  const s = app.session;
  if (!s || app.host.presentational) return;
  try {
    await settled(s);
    const entry = await app.host.call('thread.branch', { threadId: s.id, ...at });
    await app.refreshWorkspace();
    await app.openThread(entry.path);
  } catch (err) {
    app.fail('Could not branch the thread', err, 'Check that the workspace folder is writable, then try again.');
  }
}

/** Drop the messages after `messageId` (one undoable edit) and run the thread from there. */
export async function runFromMessage(app: AppState, messageId: string): Promise<void> {
  const s = app.session;
  if (!s || s.readOnly) return;
  const i = s.thread.context.messages.findIndex((m) => m.id === messageId);
  if (i < 0) return;
  if (i < s.thread.context.messages.length - 1) s.edit((d) => void d.context.messages.splice(i + 1));
  await settled(s);
  const auto = !!s.thread.settings?.autoRunTools;
  await app.startRun(auto ? 'react' : 'step', auto ? { maxTurns: s.thread.settings?.maxTurns } : {});
}

/** Re-run run `runId` (of mode `mode`) of the open thread from its model call `fromCall` (1-based), in the same mode. */
export async function reRunFrom(app: AppState, runId: string, mode: RunMode, fromCall: number): Promise<void> {
  const s = app.session;
  if (!s || s.readOnly) return;
  try {
    await settled(s);
    const { runId: newRun } = await app.host.call('run.start', { threadId: s.id, mode, fromRun: { runId, fromCall } });
    app.clearFailure(RUN_NOT_STARTED);
    s.setRunning(newRun);
    app.showRun(newRun);
  } catch (err) {
    const changed = (err as { code?: unknown } | null)?.code === 'thread_changed';
    app.fail(RUN_NOT_STARTED, err, changed ? 'Use Branch from here on this call: the branch holds the conversation as it was there.' : runStartHint(err));
  }
}
