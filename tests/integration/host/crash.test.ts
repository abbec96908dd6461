/**
 * docs/architecture.md#processes-and-state and docs/architecture.md#run-journal: a runner killed
 * with SIGKILL mid-stream ends its run `interrupted` with the partial text kept (live, in the run
 * file, in the closing tree_update the bridge emits itself, and in the thread as a reply marked
 * interrupted, as a cut provider stream leaves it); a parallel run and the host are unaffected.
 * Also 20 runs at once across threads.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../shared/protocol/host-api';
import type { AssistantMessage } from '../../../shared/thread/messages';
import type { Thread } from '../../../shared/thread/schema';
import { scriptedThread, sumTool } from '../../support/threads';
import { bundledRunner } from '../../support/runner-bundle';
import { makeHome, readThread, waitFor, words, writeThread, hostCores, watchThreads } from '../../support/host-harness';

const startCore = hostCores();

describe('runner crash', () => {
  it('kill -9 of one runner leaves the host and a parallel run intact; the run file and the thread keep the partial', async () => {
    const home = makeHome();
    const text1 = words(300, 'a');
    const text2 = words(60, 'b');
    const t1 = scriptedThread([{ text: text1 }], { tokensPerSecond: 120 });
    const t2 = scriptedThread([{ text: text2 }], { tokensPerSecond: 120 });
    writeThread(home, 'one.json', t1);
    writeThread(home, 'two.json', t2);
    const before1 = fs.readFileSync(path.join(home, 'workspace', 'one.json'), 'utf8');
    const core = await startCore({ home, runnerEntry: bundledRunner(), saveDebounceMs: 20 });
    const { client: c, conn } = await watchThreads(core, 'one.json', 'two.json');
    const r1 = ((await conn.request('run.start', { threadId: t1.id, mode: 'step' })) as { runId: string }).runId;
    const r2 = ((await conn.request('run.start', { threadId: t2.id, mode: 'step' })) as { runId: string }).runId;

    await waitFor(() => c.pushes.filter((p) => p.type === 'llm_delta' && p.runId === r1).length >= 5, 20_000, 'run 1 streaming');
    const pid = core.supervisor.get(r1)!.pid!;
    process.kill(pid, 'SIGKILL');

    await waitFor(() => c.ended.get(r1) && c.ended.get(r2), 30_000, 'both runs ended');
    expect(c.ended.get(r1)).toBe('interrupted');
    expect(c.ended.get(r2)).toBe('completed');

    // Live view: the llm node closed `interrupted` by the bridge, showing the partial text.
    const llm1 = c.pushes.flatMap((p) => (p.type === 'tree_update' && p.runId === r1 ? p.nodes : [])).find((n) => n.kind === 'llm')!;
    const live1 = c.consumer.get(llm1.id)!;
    expect(live1.status).toBe('interrupted');
    expect(live1.text.length).toBeGreaterThan(0);
    expect(text1.startsWith(live1.text)).toBe(true);
    expect(live1.text.length).toBeLessThan(text1.length);

    // Run file: interrupted, partial output kept on the node.
    const rec = JSON.parse(fs.readFileSync(path.join(home, 'runs', t1.id, `${r1}.json`), 'utf8')) as RunRecord;
    expect(rec.status).toBe('interrupted');
    const node = rec.nodes.find((n) => n.id === llm1.id)!;
    expect(node.status).toBe('interrupted');
    expect((node.output as { text: string }).text).toBe(live1.text);
    expect(rec.nodes.every((n) => ['completed', 'error', 'cancelled', 'interrupted'].includes(n.status))).toBe(true);

    // The parallel run finished whole and wrote its result.
    const llm2 = c.pushes.flatMap((p) => (p.type === 'tree_update' && p.runId === r2 ? p.nodes : [])).find((n) => n.kind === 'llm')!;
    expect(c.textAtClose.get(llm2.id)).toBe(text2);
    await core.threads.flush();
    const after2 = readThread(home, 'two.json');
    expect(after2.context.messages.at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: text2 }] });

    // Thread 1: its messages, then the partial reply marked interrupted (as a cut stream's), and the run ref.
    const after1 = readThread(home, 'one.json');
    const orig1 = JSON.parse(before1) as Thread;
    expect(after1.context).toEqual({ ...orig1.context, messages: [...orig1.context.messages, expect.anything()] });
    expect(after1.context.messages.at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: live1.text }], stopReason: 'error', errorMessage: expect.stringMatching(/interrupted/) });
    expect(after1.runRefs).toEqual([expect.objectContaining({ id: r1, status: 'interrupted' })]);

    // The host goes on: thread 1 runs again.
    const r3 = ((await conn.request('run.start', { threadId: t1.id, mode: 'step' })) as { runId: string }).runId;
    expect(r3).not.toBe(r1);
    await conn.request('run.cancel', { runId: r3 });
    await waitFor(() => c.ended.get(r3), 20_000, 'third run ended');
    expect(c.ended.get(r3)).toBe('cancelled');
  });

  it('kill -9 mid tool-call arguments: the thread gets the thinking, the text, the complete call and the partial one, which is never run', async () => {
    const home = makeHome();
    const second = { a: 30, b: 40, note: 'a longer argument text, so the kill lands inside it' };
    const thread = scriptedThread(
      [{ thinking: 'Two sums.', text: 'Adding both.', toolCalls: [{ name: 'get_sum', arguments: { a: 1, b: 2 } }, { name: 'get_sum', arguments: second }] }],
      { tools: [sumTool], tokensPerSecond: 10 },
    );
    writeThread(home, 'calls.json', thread);
    // A save delay far past the test: the thread file is written when the run closes, not later.
    const core = await startCore({ home, runnerEntry: bundledRunner(), saveDebounceMs: 600_000 });
    const { client: c, conn } = await watchThreads(core, 'calls.json');
    const runId = ((await conn.request('run.start', { threadId: thread.id, mode: 'step' })) as { runId: string }).runId;
    // The second call's arguments have started streaming: kill the runner there.
    await waitFor(() => c.pushes.some((p) => p.type === 'llm_delta' && p.runId === runId && p.channel === 'tool_args' && p.index === 1), 20_000, 'the second call streaming');
    process.kill(core.supervisor.get(runId)!.pid!, 'SIGKILL');
    await waitFor(() => c.ended.get(runId), 20_000, 'the run to end');
    expect(c.ended.get(runId)).toBe('interrupted');

    const { thread: open } = core.threads.get(thread.id);
    expect(open.context.messages).toHaveLength(2);
    const reply = open.context.messages[1] as AssistantMessage;
    expect(reply).toMatchObject({
      role: 'assistant',
      content: [{ type: 'thinking', thinking: 'Two sums.' }, { type: 'text', text: 'Adding both.' }],
      stopReason: 'error',
      errorMessage: expect.stringMatching(/interrupted: its runner process stopped .*partial reply is kept/),
      model: 'scripted/scripted',
    });
    const [done, cut] = reply.toolCalls!;
    expect(done).toEqual({ id: expect.stringMatching(/^call_/), name: 'get_sum', arguments: { a: 1, b: 2 } });
    // The cut call keeps its argument text as it arrived, with no arguments: a tool step refuses it.
    expect(cut).toMatchObject({ id: expect.stringMatching(/^call_/), name: 'get_sum', arguments: {} });
    expect(JSON.stringify(second).startsWith(cut.rawArguments!)).toBe(true);
    expect(cut.rawArguments!.length).toBeLessThan(JSON.stringify(second).length);
    expect(open.runRefs).toEqual([expect.objectContaining({ id: runId, status: 'interrupted' })]);
    // Written once: one run patch, and the run file holds the same messages (for restore).
    expect(c.pushes.filter((p) => p.type === 'thread_patch' && p.origin === `run:${runId}`)).toHaveLength(1);
    await core.bridge.idle();
    const rec = JSON.parse(fs.readFileSync(path.join(home, 'runs', thread.id, `${runId}.json`), 'utf8')) as RunRecord;
    expect(rec.status).toBe('interrupted');
    expect(rec.messages).toEqual([reply]);
    expect(readThread(home, 'calls.json')).toEqual(open);

    // A tool step over the cut call does not run it: its arguments are not valid JSON.
    const step = ((await conn.request('run.start', { threadId: thread.id, mode: 'tool', toolCallIds: [cut.id] })) as { runId: string }).runId;
    await waitFor(() => c.ended.get(step), 20_000, 'the tool step to end');
    const tool = c.pushes.flatMap((p) => (p.type === 'tree_update' && p.runId === step ? p.nodes : [])).filter((n) => n.kind === 'tool').at(-1)!;
    expect(tool.status).toBe('error');
    expect(JSON.stringify(tool.output)).toMatch(/not valid JSON/);
  }, 60_000);

  it('runs 20 runs at once across threads, each ending with its own exact text', async () => {
    const home = makeHome();
    const threads = Array.from({ length: 20 }, (_, i) => scriptedThread([{ text: words(30, `t${i}-`) }], { tokensPerSecond: 300 }));
    threads.forEach((t, i) => writeThread(home, `t${i}.json`, t));
    const core = await startCore({ home, runnerEntry: bundledRunner() });
    const { client: c, conn } = await watchThreads(core);
    const runIds: string[] = [];
    for (let i = 0; i < threads.length; i++) {
      await conn.request('thread.open', { path: `t${i}.json` });
      runIds.push(((await conn.request('run.start', { threadId: threads[i].id, mode: 'step' })) as { runId: string }).runId);
    }
    expect(core.bridge.liveRuns().length).toBeGreaterThan(1);
    await waitFor(() => runIds.every((r) => c.ended.has(r)), 60_000, 'all 20 runs');
    for (let i = 0; i < threads.length; i++) {
      expect(c.ended.get(runIds[i])).toBe('completed');
      const llm = c.pushes.flatMap((p) => (p.type === 'tree_update' && p.runId === runIds[i] ? p.nodes : [])).find((n) => n.kind === 'llm')!;
      expect(c.textAtClose.get(llm.id)).toBe(words(30, `t${i}-`));
    }
    expect(c.gapRequests).toBe(0);
    expect(c.duplicates).toBe(0);
    // Every runner process exits after its run (shortly after `done`, so wait for it).
    await waitFor(() => core.supervisor.list().length === 0, 15_000, 'all runner processes exited');
  }, 90_000);
});
