/** `run.*`: start, cancel and answer live runs; list, read and delete stored ones. */
import type { RunRef } from '../../../shared/thread/schema';
import { runRefOf } from '../runs';
import { deleteRun, listRuns, readRun } from '../journal/run-files';
import { HostError } from '../errors';
import type { DomainHandlers } from './types';

export const runHandlers: DomainHandlers<'run'> = {
  'run.start': async (ctx, _client, p) =>
    ctx.runs.start({ threadId: p.threadId, mode: p.mode, toolCallIds: p.toolCallIds, maxTurns: p.maxTurns, scenario: p.scenario, fresh: p.fresh, fromRun: p.fromRun }),
  'run.cancel': async (ctx, _client, p) => {
    if (!ctx.supervisor.cancel(p.runId)) throw new HostError('not_found', `run ${p.runId} is not running`);
    return { ok: true };
  },
  'run.input': async (ctx, _client, p) => {
    if (!ctx.supervisor.input(p.runId, p.nodeId, p.value)) throw new HostError('not_found', `run ${p.runId} is not running`);
    return { ok: true };
  },
  /** Stored runs, then the open thread's run refs, then live runs: the later source wins. */
  'run.list': async (ctx, _client, { threadId }) => {
    const refs = new Map<string, RunRef>();
    // A stored run's ref as its thread records it (runRefOf: its root node's times and duration).
    for (const rec of await listRuns(ctx.home, threadId, (runId) => ctx.bridge.run(runId) !== undefined)) refs.set(rec.runId, runRefOf(rec));
    if (ctx.threads.has(threadId)) for (const r of ctx.threads.get(threadId).thread.runRefs) refs.set(r.id, { ...refs.get(r.id), ...r });
    for (const run of ctx.bridge.liveRuns(threadId)) refs.set(run.runId, runRefOf(run.record()));
    return [...refs.values()].sort((a, b) => a.startedAt - b.startedAt);
  },
  'run.get': async (ctx, _client, { threadId, runId }) => {
    const live = ctx.bridge.run(runId);
    if (live && live.threadId === threadId) return live.record();
    return readRun(ctx.home, threadId, runId);
  },
  'run.delete': async (ctx, _client, { threadId, runId }) => {
    if (ctx.bridge.run(runId)) throw new HostError('run_running', `run ${runId} is still running`);
    await deleteRun(ctx.home, threadId, runId);
    if (ctx.threads.has(threadId)) await ctx.threads.removeRunRef(threadId, runId); // answered once on disk
    return { ok: true };
  },
};
