/**
 * `thread.branch` (docs/architecture.md#branches-and-time-travel): a new thread file beside an
 * open thread, holding it up to a message, or as it was at a node of one of its runs (rebuilt
 * from the run record: shared/thread/run-points.ts), with `branchOf` naming that point.
 */
import path from 'node:path';
import type { HostParams, RunRecord, WorkspaceEntry } from '../../shared/protocol/host-api';
import type { Message } from '../../shared/thread/messages';
import { conversationAt, messagesThrough } from '../../shared/thread/run-points';
import { branchOf, freeBranchTitle } from '../../shared/thread/branch';
import { readRunChecked } from './journal/run-files';
import { HostError } from './errors';
import type { HostContext } from './host-context';

/** Creates the branch `p` asks for; throws HostError (`bad_request`, `not_found`, `not_open`). */
export async function branchThread(ctx: HostContext, p: HostParams<'thread.branch'>): Promise<WorkspaceEntry> {
  const { thread, file } = ctx.threads.get(p.threadId);
  let messages: Message[];
  let at: { messageId?: string; runId?: string; nodeId?: string };
  if (p.messageId && !p.runId && !p.nodeId) {
    const upTo = messagesThrough(thread.context.messages, p.messageId);
    if (!upTo) throw new HostError('not_found', `thread.branch: thread ${thread.id} has no message ${p.messageId}`);
    messages = upTo;
    at = { messageId: p.messageId };
  } else if (p.runId && p.nodeId && !p.messageId) {
    const live = ctx.bridge.run(p.runId);
    const rec: RunRecord = live && live.threadId === thread.id ? live.record() : await readRunChecked(ctx.home, thread.id, p.runId);
    const point = conversationAt(rec, thread.context.messages, p.nodeId);
    if (!point.ok) throw new HostError('bad_request', `thread.branch: ${point.reason}`);
    messages = point.messages;
    at = { runId: p.runId, nodeId: p.nodeId, ...(point.messageId ? { messageId: point.messageId } : {}) };
  } else {
    throw new HostError('bad_request', 'thread.branch: give either messageId, or runId and nodeId');
  }
  const folder = path.relative(ctx.workspaceDir, path.dirname(file)).split(path.sep).join('/');
  if (folder.startsWith('..')) throw new HostError('bad_request', 'thread.branch: the thread is not in the workspace');
  const taken = (await ctx.workspace.list()).filter((e) => e.kind === 'thread' && path.posix.dirname(e.path) === (folder || '.')).map((e) => e.title);
  return ctx.workspace.create(folder, freeBranchTitle(thread.title, taken), branchOf(thread, messages, at));
}
