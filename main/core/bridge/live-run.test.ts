/**
 * The bridge replica (LiveRun) against the conformance vectors (tests/fixtures/conformance). The
 * replica only ever sees what a runner posts — tree updates and deltas, never snapshots, and it
 * has no upstream to resync from — so it runs the vectors made only of those frames and with
 * no gap, and must show the same text, thinking, tool arguments and status as any consumer.
 */
import { describe, expect, it } from 'vitest';
import { LiveRun } from './live-run';
import { checkVector, loadStreamVectors } from '../../../tests/support/stream-vectors';
import type { StreamEnvelope } from '../../../shared/protocol/envelopes';

const vectors = loadStreamVectors();

const runnerOnly = vectors.filter((v) =>
  v.steps.every((s) => s.in.type !== 'node_snapshot' && Object.values(s.expect).every((e) => e.snapshotRequests === 0)),
);

describe('bridge replica conformance', () => {
  it('has runner-only vectors to run', () => expect(runnerOnly.length).toBeGreaterThan(2));
  for (const v of runnerOnly) {
    it(v.name, () => {
      const runs = new Map<string, LiveRun>();
      let run!: LiveRun;
      const apply = (env: StreamEnvelope) => {
        run = runs.get(env.runId) ?? new LiveRun({ runId: env.runId, threadId: 't', mode: 'step' });
        runs.set(env.runId, run);
        if (env.type === 'tree_update') run.applyTree(env);
        else if (env.type === 'node_update') run.applyUpdate(env);
        else if (env.type === 'llm_delta') run.applyDelta(env);
      };
      const show = (nodeId: string) => {
        const n = run.live(nodeId);
        return { text: n?.text ?? '', thinking: n?.thinking ?? '', toolArgs: { ...(n?.toolArgs ?? {}) }, status: n?.status, attrs: n?.node?.attrs };
      };
      checkVector(v, apply, show, ['text', 'thinking', 'toolArgs', 'status', 'attrs']);
    });
  }

  it('rebases on a hole instead of stalling, so later deltas still assemble', () => {
    const run = new LiveRun({ runId: 'r', threadId: 't', mode: 'step' });
    run.applyTree({ v: 1, type: 'tree_update', runId: 'r', nodes: [{ id: 'n', runId: 'r', kind: 'llm', name: 'm', status: 'running', startedAt: 1 }] });
    run.applyDelta({ v: 1, type: 'llm_delta', runId: 'r', nodeId: 'n', channel: 'text', index: 0, delta: 'a', seq: 1 });
    expect(run.applyDelta({ v: 1, type: 'llm_delta', runId: 'r', nodeId: 'n', channel: 'text', index: 0, delta: 'c', seq: 3 })).toBe(true);
    expect(run.applyDelta({ v: 1, type: 'llm_delta', runId: 'r', nodeId: 'n', channel: 'text', index: 0, delta: 'd', seq: 4 })).toBe(true);
    expect(run.applyDelta({ v: 1, type: 'llm_delta', runId: 'r', nodeId: 'n', channel: 'text', index: 0, delta: 'd', seq: 4 })).toBe(false);
    expect(run.snapshot('n')).toMatchObject({ seq: 4, text: 'acd' });
    expect(run.holes).toBe(1);
  });
});
