/** `thread.*`: open, close and edit thread documents held by the ThreadStore. */
import path from 'node:path';
import type { HostContext } from '../host-context';
import type { DomainHandlers } from './types';
import { releaseIfUnheld } from '../store/thread-holders';

function relPath(ctx: HostContext, file: string): string {
  return path.relative(ctx.workspaceDir, file).split(path.sep).join('/');
}

/** How a client's own edits are labelled in `thread_patch` pushes. */
const originOf = (clientId: number) => `client:${clientId}`;

export const threadHandlers: DomainHandlers<'thread'> = {
  'thread.open': async (ctx, client, p) => {
    const file = await ctx.workspace.resolve(p.path);
    const { thread, version } = await ctx.threads.open(file);
    client.openThreads.add(thread.id);
    for (const message of ctx.threads.recoveryNotes(thread.id)) client.stream.push({ type: 'notice', level: 'error', message });
    const running = ctx.bridge.liveRuns(thread.id)[0]?.runId;
    const origin = originOf(client.id);
    return running ? { thread, version, path: relPath(ctx, file), running, origin } : { thread, version, path: relPath(ctx, file), origin };
  },
  'thread.close': async (ctx, client, p) => {
    client.openThreads.delete(p.threadId);
    await releaseIfUnheld(ctx.threads, p.threadId, { clients: ctx.clients, runs: ctx.bridge });
    return { ok: true };
  },
  'thread.edit': async (ctx, client, p) => ctx.threads.edit(p.threadId, p.baseVersion, p.patches, originOf(client.id), p.editId),
};
