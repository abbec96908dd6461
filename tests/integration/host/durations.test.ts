/**
 * docs/architecture.md#the-execution-tree: a duration is measured once, by the runner, on a
 * monotonic clock, and stored: the run node's `durationMs` in the run file is the number the
 * thread's run ref, `run.list` (thread open or not), `run.get`, the closing tree_update the
 * windows saw and the assistant message carry. Before, history read the host's open/close times
 * (which also count the runner's start-up) while the tree read the runner's wall clock.
 * Real host core, real runner process.
 */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../shared/protocol/host-api';
import type { ExecNode } from '../../../shared/protocol/nodes';
import type { AssistantMessage } from '../../../shared/thread/messages';
import type { RunRef } from '../../../shared/thread/schema';
import { runDurationMs, runRefDurationMs } from '../../../shared/protocol/duration';
import { scriptedThread } from '../../support/threads';
import { bundledRunner } from '../../support/runner-bundle';
import { makeHome, readThread, waitFor, words, hostCores, watchThreads } from '../../support/host-harness';

const startCore = hostCores();

describe('durations measured once', () => {
  it('the run file, run ref, run.list, run.get and the live tree give one duration per run and per node', async () => {
    const thread = scriptedThread([{ text: words(30) }], { tokensPerSecond: 120 });
    const home = makeHome({ 'd.json': thread });
    const core = await startCore({ home, runnerEntry: bundledRunner(), saveDebounceMs: 20 });
    const { client, conn } = await watchThreads(core, 'd.json');
    const { runId } = (await conn.request('run.start', { threadId: thread.id, mode: 'step' })) as { runId: string };
    await waitFor(() => client.ended.get(runId), 30_000, 'run end');
    await core.bridge.idle();

    // What the window saw: the closing tree_update of each node.
    const closing = new Map<string, ExecNode>();
    for (const p of client.pushes) if (p.type === 'tree_update') for (const n of p.nodes) if (n.endedAt !== undefined && !closing.has(n.id)) closing.set(n.id, n);
    const liveRoot = [...closing.values()].find((n) => n.kind === 'run')!;
    const liveLlm = [...closing.values()].find((n) => n.kind === 'llm')!;
    expect(liveRoot.durationMs).toBeGreaterThan(100); // 30 words at 120 tokens/s
    expect(liveLlm.timing?.durationMs).toBe(liveLlm.durationMs);

    const rec = (await conn.request('run.get', { threadId: thread.id, runId })) as RunRecord;
    expect(runDurationMs(rec)).toBe(liveRoot.durationMs);
    expect(rec.nodes.find((n) => n.kind === 'llm')!.durationMs).toBe(liveLlm.durationMs);

    const listed = (await conn.request('run.list', { threadId: thread.id })) as RunRef[];
    expect(runRefDurationMs(listed.find((r) => r.id === runId)!)).toBe(liveRoot.durationMs);
    await waitFor(() => readThread(home, 'd.json').runRefs.length === 1, 5000, 'the run ref saved');
    const saved = readThread(home, 'd.json');
    expect(saved.runRefs[0].durationMs).toBe(liveRoot.durationMs);
    const reply = saved.context.messages.find((m): m is AssistantMessage => m.role === 'assistant')!;
    expect(reply.timing?.durationMs).toBe(liveLlm.durationMs);

    // The thread closed: run.list reads the run file alone, and still says the same.
    await conn.request('thread.close', { threadId: thread.id });
    const again = (await conn.request('run.list', { threadId: thread.id })) as RunRef[];
    expect(runRefDurationMs(again.find((r) => r.id === runId)!)).toBe(liveRoot.durationMs);
    conn.close();
  });
});
