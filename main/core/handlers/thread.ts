/** `thread.*`: open, close and edit thread documents held by the ThreadStore. */
import path from 'node:path';
import { clientOrigin, type ClientState, type HostContext } from '../host-context';
import { HostError } from '../errors';
import type { DomainHandlers } from './types';
import { releaseIfUnheld } from '../store/thread-holders';
import { renderForRun, TemplateHostError } from '../templates';
import { runSkills } from '../skills/discover';
import { branchThread } from '../branches';
import { materializeCase } from '../eval/case-store';

function relPath(ctx: HostContext, file: string): string {
  return path.relative(ctx.workspaceDir, file).split(path.sep).join('/');
}

/** Throws `not_open` unless `client` has thread `threadId` open. */
function owned(client: ClientState, threadId: string): void {
  if (!client.openThreads.has(threadId)) throw new HostError('not_open', `thread ${threadId} is not open in this window; open it first`);
}

const fromBase64 = (s: string) => new Uint8Array(Buffer.from(s, 'base64'));
const toBase64 = (u: Uint8Array) => Buffer.from(u).toString('base64');

/** `client` joins the thread's Yjs document (it gets `thread_update`s, no more `thread_patch`es): what state vector `sv` lacks. */
function joined(ctx: HostContext, client: ClientState, threadId: string, sv: string) {
  const r = ctx.threads.sync(threadId, fromBase64(sv));
  client.yjsThreads.add(threadId);
  return { update: toBase64(r.update), stateVector: toBase64(r.stateVector), docId: r.docId, version: r.version };
}

const originOf = clientOrigin;

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
    const r = running ? { thread, version, path: relPath(ctx, file), running, origin } : { thread, version, path: relPath(ctx, file), origin };
    return p.yjs ? { ...r, yjs: joined(ctx, client, thread.id, '') } : r;
  },
  'thread.branch': async (ctx, _client, p) => {
    const entry = await branchThread(ctx, p);
    ctx.bridge.broadcast({ type: 'workspace_changed' });
    return entry;
  },
  'thread.close': async (ctx, client, p) => {
    client.openThreads.delete(p.threadId);
    client.yjsThreads.delete(p.threadId);
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
  // Size and schema are checked by dispatch (the contract bounds the base64); then ownership: a
  // window joins or changes only a thread it has open (docs/architecture.md#multi-window-editing).
  'thread.sync': async (ctx, client, p) => {
    owned(client, p.threadId);
    return joined(ctx, client, p.threadId, p.stateVector);
  },
  'thread.update': async (ctx, client, p) => {
    owned(client, p.threadId);
    return ctx.threads.update(p.threadId, p.docId, fromBase64(p.update), originOf(client.id));
  },
};
