/** `workspace.*`: the workspace tree (threads and folders), through the WorkspaceService. */
import type { Thread } from '../../../shared/thread/schema';
import { HostError } from '../errors';
import type { HostContext } from '../host-context';
import type { DomainHandlers } from './types';
import { importIntoWorkspace } from '../threads/import-document';

function workspaceChanged(ctx: HostContext): void {
  ctx.bridge.broadcast({ type: 'workspace_changed' });
}

/**
 * Renames or moves `from`; an open thread follows its file, and its open copy takes the new
 * title (every window sees it, and the next save does not write the old title back). The store
 * moves an open thread's file itself (ThreadStore.relocate), so its file watch does not take
 * the host's own rename for a change made outside Stepwise.
 * A thread with a live run is not renamed (its run result would go to the old file name).
 */
async function relocate(ctx: HostContext, from: string, how: { title: string } | { toFolder: string }) {
  const ws = ctx.workspace;
  const id = ctx.threads.idOfFile(await ws.resolve(from));
  const rename = 'title' in how;
  if (id && rename && ctx.bridge.liveRuns(id).length > 0) {
    throw new HostError('thread_running', `"${from}" cannot be renamed while one of its runs is running; stop it or wait for it to end`);
  }
  const go = () => (rename ? ws.rename(from, how.title) : ws.move(from, how.toFolder));
  // A rename writes the new title into the file (WorkspaceStore.rename); a move leaves it as it is.
  const rewrite = rename ? (onDisk: Thread): Thread => ({ ...onDisk, title: String(how.title).normalize('NFC') }) : undefined;
  const entry = id ? await ctx.threads.relocate(id, async () => {
    const moved = await go();
    return { file: await ws.resolve(moved.path), value: moved };
  }, rewrite) : await go();
  if (id && entry.kind === 'thread') {
    const open = ctx.threads.get(id);
    if (open.thread.title !== entry.title) await ctx.threads.edit(id, open.version, [{ op: 'replace', path: ['title'], value: entry.title }], 'host');
  }
  workspaceChanged(ctx);
  return entry;
}

export const workspaceHandlers: DomainHandlers<'workspace'> = {
  'workspace.list': async (ctx) => ctx.workspace.list(),
  'workspace.create': async (ctx, _client, p) => {
    const entry = await ctx.workspace.create(p.folder ?? '', p.title, (p.thread ?? {}) as Partial<Thread>);
    workspaceChanged(ctx);
    return entry;
  },
  'workspace.import': async (ctx, _client, p) => {
    const r = await importIntoWorkspace(ctx, p);
    workspaceChanged(ctx);
    return r;
  },
  'workspace.createFolder': async (ctx, _client, p) => {
    const entry = await ctx.workspace.createFolder(p.path);
    workspaceChanged(ctx);
    return entry;
  },
  'workspace.rename': (ctx, _client, p) => relocate(ctx, p.path, { title: p.title }),
  'workspace.move': (ctx, _client, p) => relocate(ctx, p.path, { toFolder: p.toFolder ?? '' }),
  'workspace.duplicate': async (ctx, _client, p) => {
    const entry = await ctx.workspace.duplicate(p.path);
    workspaceChanged(ctx);
    return entry;
  },
  'workspace.delete': async (ctx, _client, p) => {
    const id = ctx.threads.idOfFile(await ctx.workspace.resolve(p.path));
    if (id && ctx.bridge.liveRuns(id).length) throw new HostError('thread_running', `${p.path} has a run running; stop it first`);
    if (id) await ctx.threads.release(id);
    await ctx.workspace.delete(p.path);
    workspaceChanged(ctx);
    return { ok: true };
  },
};
