/**
 * docs/architecture.md#processes-and-state: pooled runner processes (RunSupervisor's `pool`
 * option, an evaluation batch's cases). Runs of one pool reuse one process, one at a time, each
 * with its own result; a pooled process killed mid-run ends only that run, and the pool's next
 * run gets a new process; an idle one stops after the idle time or when its pool is released;
 * a run without a pool still gets a fresh process that exits after it.
 */
import { describe, expect, it } from 'vitest';
import type { HostCore } from '../../../main/core/host-core';
import { scriptedThread } from '../../support/threads';
import { bundledRunner } from '../../support/runner-bundle';
import { alive } from '../../support/process-alive';
import { makeHome, readThread, waitFor, words, hostCores, watchThreads } from '../../support/host-harness';

const startCore = hostCores();

async function runIn(core: HostCore, threadId: string, ended: Map<string, string>, pool?: string): Promise<{ runId: string; pid: number; status: string }> {
  const { runId } = await core.runs.start({ threadId, mode: 'step', ...(pool ? { pool } : {}) });
  const pid = core.supervisor.get(runId)!.pid!;
  const status = await waitFor(() => ended.get(runId), 30_000, `run ${runId} ended`);
  return { runId, pid, status };
}

describe('pooled runner processes', () => {
  it('runs of one pool reuse one process, each run with its own result; releasing the pool stops it', async () => {
    const a = scriptedThread([{ text: 'First answer.' }]);
    const b = scriptedThread([{ text: 'Second answer.' }]);
    const c = scriptedThread([{ text: 'Third answer.' }]);
    const d = scriptedThread([{ text: 'Fourth answer.' }]);
    const home = makeHome({ 'a.json': a, 'b.json': b, 'c.json': c, 'd.json': d });
    const core = await startCore({ home, runnerEntry: bundledRunner(), saveDebounceMs: 20 });
    const { client } = await watchThreads(core, 'a.json', 'b.json', 'c.json', 'd.json');

    const r1 = await runIn(core, a.id, client.ended, 'p');
    const r2 = await runIn(core, b.id, client.ended, 'p');
    expect([r1.status, r2.status]).toEqual(['completed', 'completed']);
    expect(r2.pid).toBe(r1.pid);
    expect(alive(r1.pid)).toBe(true);
    const r3 = await runIn(core, c.id, client.ended, 'p');
    expect(r3.pid).toBe(r1.pid);

    await core.threads.flush();
    for (const [file, text] of [['a.json', 'First answer.'], ['b.json', 'Second answer.'], ['c.json', 'Third answer.']]) {
      const after = readThread(home, file);
      expect(after.context.messages.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual([[{ type: 'text', text }]]);
      expect(after.runRefs).toHaveLength(1);
    }

    core.supervisor.releasePool('p');
    await waitFor(() => !alive(r1.pid), 10_000, 'the released pool process exited');
    // The pool's next run gets a new process.
    const r4 = await runIn(core, d.id, client.ended, 'p');
    expect(r4.status).toBe('completed');
    expect(r4.pid).not.toBe(r1.pid);
  }, 60_000);

  it('a pooled process killed mid-run ends only that run; the next run of the pool gets a new process', async () => {
    const slow = scriptedThread([{ text: words(300, 'w') }], { tokensPerSecond: 100 });
    const fast = scriptedThread([{ text: 'Still here.' }]);
    const after = scriptedThread([{ text: 'Still here.' }]);
    const home = makeHome({ 'slow.json': slow, 'fast.json': fast, 'after.json': after });
    const core = await startCore({ home, runnerEntry: bundledRunner(), saveDebounceMs: 20 });
    const { client } = await watchThreads(core, 'slow.json', 'fast.json', 'after.json');

    const warm = await runIn(core, fast.id, client.ended, 'p');
    const { runId } = await core.runs.start({ threadId: slow.id, mode: 'step', pool: 'p' });
    const pid = core.supervisor.get(runId)!.pid!;
    expect(pid).toBe(warm.pid);
    await waitFor(() => client.pushes.filter((p) => p.type === 'llm_delta' && p.runId === runId).length >= 3, 20_000, 'the slow run streams');
    const exited = core.supervisor.get(runId)!.exited;
    process.kill(pid, 'SIGKILL');
    const exit = await exited;
    expect(exit).toMatchObject({ abnormal: true, signal: 'SIGKILL', cancelRequested: false });
    expect(await waitFor(() => client.ended.get(runId), 20_000, 'the killed run ended')).toBe('interrupted');

    const next = await runIn(core, after.id, client.ended, 'p');
    expect(next.status).toBe('completed');
    expect(next.pid).not.toBe(pid);
  }, 60_000);

  it('an idle pooled process stops after the idle time; a run without a pool gets a process that exits after it', async () => {
    const t = scriptedThread([{ text: 'Done.' }]);
    const u = scriptedThread([{ text: 'Done.' }]);
    const home = makeHome({ 't.json': t, 'u.json': u });
    const core = await startCore({ home, runnerEntry: bundledRunner(), saveDebounceMs: 20, runnerPoolIdleMs: 300 });
    const { client } = await watchThreads(core, 't.json', 'u.json');

    const pooled = await runIn(core, t.id, client.ended, 'p');
    expect(pooled.status).toBe('completed');
    await waitFor(() => !alive(pooled.pid), 10_000, 'the idle pooled process exited');

    const fresh = await runIn(core, u.id, client.ended);
    expect(fresh.status).toBe('completed');
    await waitFor(() => !alive(fresh.pid), 10_000, 'the fresh process exited after its run');
  }, 60_000);

  it('a cancelled pooled run ends cancelled and its process takes the next run', async () => {
    const slow = scriptedThread([{ text: words(300, 'c') }], { tokensPerSecond: 50 });
    const slow2 = scriptedThread([{ text: words(300, 'd') }], { tokensPerSecond: 50 });
    const home = makeHome({ 'slow.json': slow, 'slow2.json': slow2 });
    const core = await startCore({ home, runnerEntry: bundledRunner(), saveDebounceMs: 20 });
    const { client, conn } = await watchThreads(core, 'slow.json', 'slow2.json');
    const { runId } = await core.runs.start({ threadId: slow.id, mode: 'step', pool: 'p' });
    const pid = core.supervisor.get(runId)!.pid!;
    await waitFor(() => client.pushes.some((p) => p.type === 'llm_delta' && p.runId === runId), 20_000, 'streaming');
    await conn.request('run.cancel', { runId });
    expect(await waitFor(() => client.ended.get(runId), 20_000, 'cancelled run ended')).toBe('cancelled');
    const { runId: again } = await core.runs.start({ threadId: slow2.id, mode: 'step', pool: 'p' });
    expect(core.supervisor.get(again)!.pid).toBe(pid);
    await conn.request('run.cancel', { runId: again });
    expect(await waitFor(() => client.ended.get(again), 20_000, 'second run ended')).toBe('cancelled');
  }, 60_000);
});
