/** `thread.*`: open, close and edit thread documents held by the ThreadStore. */
import path from 'node:path';
import type { HostContext } from '../host-context';
import type { DomainHandlers } from './types';
import { releaseIfUnheld } from '../store/thread-holders';
import { renderForRun, TemplateHostError } from '../templates';
import { runSkills } from '../skills/discover';
import { branchThread } from '../branches';
import { materializeCase } from '../eval/case-store';

function relPath(ctx: HostContext, file: string): string {
  return path.relative(ctx.workspaceDir, file).split(path.sep).join('/');
}

/** How a client's own edits are labelled in `thread_patch` pushes. */
const originOf = (clientId: number) => `client:${clientId}`;

export const threadHandlers: DomainHandlers<'thread'> = {
  'thread.open': async (ctx, client, p) => {
    const file = await ctx.workspace.resolve(p.path);
    // An evaluation case's thread is in its batch's case store until first opened (docs/architecture.md#evaluation).
    await materializeCase(ctx.home, file);
    const { thread, version } = await ctx.threads.open(file);
    client.openThreads.add(thread.id);
    for (const message of ctx.threads.recoveryNotes(thread.id)) client.stream.push({ type: 'notice', level: 'error', message });
    const running = ctx.bridge.liveRuns(thread.id)[0]?.runId;
    const origin = originOf(client.id);
    return running ? { thread, version, path: relPath(ctx, file), running, origin } : { thread, version, path: relPath(ctx, file), origin };
  },
  'thread.branch': async (ctx, _client, p) => {
    const entry = await branchThread(ctx, p);
    ctx.bridge.broadcast({ type: 'workspace_changed' });
    return entry;
  },
  'thread.close': async (ctx, client, p) => {
    client.openThreads.delete(p.threadId);
    await releaseIfUnheld(ctx.threads, p.threadId, { clients: ctx.clients, runs: ctx.bridge });
    return { ok: true };
  },
  /** A template error is part of the answer (the preview shows it), not a failed call. */
  'thread.render': async (ctx, _client, p) => {
    const { thread } = ctx.threads.get(p.threadId);
    try {
      const skills = await runSkills(ctx.skillRoots ?? [], thread.settings?.skills ?? []);
      const r = await renderForRun(thread, { home: ctx.home, workspaceDir: ctx.workspaceDir, scenario: p.scenario, fresh: p.fresh, only: p.place, skills });
      const places = Object.entries(r.renders.places).map(([place, f]) => ({ place, text: f.text, frozen: r.reused.includes(place) }));
      return r.scenario ? { places, scenario: r.scenario } : { places };
    } catch (err) {
      if (!(err instanceof TemplateHostError)) throw err;
      const { place, error } = err.place;
      const e = { place, message: err.message, ...(error.line !== undefined ? { line: error.line, column: error.column } : {}), ...(error.file ? { file: error.file } : {}) };
      return { places: [], error: e };
    }
  },
  'thread.edit': async (ctx, client, p) => ctx.threads.edit(p.threadId, p.baseVersion, p.patches, originOf(client.id), p.editId),
};
