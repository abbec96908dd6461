/**
 * docs/architecture.md#sequence-and-snapshots and docs/architecture.md#backpressure through the real host core and real runner processes: clients that
 * connect or reconnect mid-stream, and a slow client over its queue bound, all end with exactly
 * the text the model streamed, with no gap and no duplicate.
 */
import { describe, expect, it } from 'vitest';
import { scriptedThread } from '../../support/threads';
import { bundledRunner } from '../../support/runner-bundle';
import { makeHome, RecordingClient, waitFor, words, hostCores, watchThreads } from '../../support/host-harness';

const startCore = hostCores();

/** A host core over one thread streaming 240 words, and client `a` watching it from the start. */
async function setup() {
  const text = words(240);
  const thread = scriptedThread([{ text }], { tokensPerSecond: 160 });
  const home = makeHome({ 'stream.json': thread });
  const core = await startCore({ home, runnerEntry: bundledRunner() });
  const { client: a, conn: connA } = await watchThreads(core, 'stream.json');
  return { text, thread, core, a, connA };
}

describe('stream fan-out', () => {
  it('gives a client that connects and reconnects mid-stream the same text as one that watched from the start', async () => {
    const { text, thread, core, a, connA } = await setup();
    const { runId } = (await connA.request('run.start', { threadId: thread.id, mode: 'step' })) as { runId: string };

    await waitFor(() => a.deltas >= 4, 20_000, 'first deltas');
    const b1 = new RecordingClient();
    const connB1 = core.connect(b1.send);
    await connB1.request('stream.subscribe', { threadId: thread.id });
    await waitFor(() => a.deltas >= 12, 20_000, 'more deltas');
    connB1.close();
    const b2 = new RecordingClient();
    const connB2 = core.connect(b2.send);
    await connB2.request('stream.subscribe', {});

    await waitFor(() => a.ended.get(runId) && b2.ended.get(runId), 30_000, 'run end');
    const nodeId = a.llmNodeId()!;
    expect(a.ended.get(runId)).toBe('completed');
    // Mid-stream for real: B2 joined while deltas were still flowing.
    expect(b2.deltas).toBeGreaterThan(0);
    expect(b2.deltas).toBeLessThan(a.deltas);
    // B2's first frame for the run is the tree, then a snapshot of the live node.
    const firstStream = b2.pushes.find((p) => p.type === 'tree_update' || p.type === 'llm_delta' || p.type === 'node_snapshot');
    expect(firstStream?.type).toBe('tree_update');
    expect(b2.snapshots).toBeGreaterThanOrEqual(1);
    for (const c of [a, b1, b2]) {
      expect(c.gapRequests).toBe(0);
      expect(c.duplicates).toBe(0);
    }
    // Before the closing update replaced it, every live view already showed the exact text.
    expect(a.textAtClose.get(nodeId)).toBe(text);
    expect(b2.textAtClose.get(nodeId)).toBe(text);
    expect(b2.text(nodeId)).toBe(text);
    expect(text.startsWith(b1.text(nodeId))).toBe(true);
    expect(b1.text(nodeId).length).toBeGreaterThan(0);
    // The run's messages reach each window once, in the thread patch; the runner's run_result
    // goes only to clients that ask for it (stepwise run --events).
    await waitFor(() => a.pushes.some((p) => p.type === 'thread_patch' && p.origin === `run:${runId}`), 10_000, 'the run\'s thread patch');
    const patch = a.pushes.find((p) => p.type === 'thread_patch' && p.origin === `run:${runId}`);
    expect(JSON.stringify(patch)).toContain(text);
    for (const c of [a, b2]) expect(c.pushes.filter((p) => p.type === 'run_result')).toEqual([]);
  });

  it('holds back a slow client over its bound, then resyncs it with one snapshot and ends exact', async () => {
    const { text, thread, core, a, connA } = await setup();

    const slow = new RecordingClient();
    let acking = false;
    let acked = 0;
    const connS = core.connect(
      (push) => {
        slow.send(push);
        if (acking) queueMicrotask(() => ackAll());
      },
      { maxFrames: 6, maxBytes: 1 << 20 },
    );
    const ackAll = (): void => {
      const n = slow.pushes.length - acked;
      acked += n;
      if (n) void connS.request('stream.ack', { count: n });
    };
    await connS.request('stream.subscribe', { threadId: thread.id });
    const { runId } = (await connA.request('run.start', { threadId: thread.id, mode: 'step' })) as { runId: string };

    await waitFor(() => a.deltas >= 15, 20_000, 'half the stream');
    const nodeId = a.llmNodeId()!;
    expect(slow.snapshots).toBe(0);
    const heldBack = a.deltas - slow.deltas;
    expect(heldBack).toBeGreaterThan(0); // over the bound: deltas stopped
    expect(slow.pushes.filter((p) => p.type === 'tree_update').length).toBeGreaterThan(0); // tree updates still came
    acking = true;
    ackAll();
    await waitFor(() => slow.snapshots >= 1, 5_000, 'resync snapshot');
    // The snapshot came while the node was still streaming (not just its closing update).
    expect(slow.textAtClose.has(nodeId)).toBe(false);

    await waitFor(() => a.ended.get(runId) && slow.ended.get(runId), 30_000, 'run end');
    expect(slow.gapRequests).toBe(0);
    expect(slow.duplicates).toBe(0);
    expect(slow.deltas).toBeLessThan(a.deltas);
    expect(slow.textAtClose.get(nodeId)).toBe(text);
    expect(a.textAtClose.get(nodeId)).toBe(text);
  });
});
