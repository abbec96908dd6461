import { describe, expect, it } from 'vitest';
import { StreamConsumer } from './consumer';
import { loadStreamVectors } from '../../tests/support/stream-vectors';

// The project's conformance vectors (docs/architecture.md#conformance-vectors).
const vectors = loadStreamVectors();

describe('StreamConsumer conformance (tests/fixtures/conformance/stream-vectors.json)', () => {
  it('has vectors to run', () => expect(vectors.length).toBeGreaterThan(5));
  for (const v of vectors) {
    it(v.name, () => {
      const c = new StreamConsumer({ requestSnapshot: () => {} });
      v.steps.forEach((step, i) => {
        c.apply(step.in);
        for (const [nodeId, want] of Object.entries(step.expect)) {
          const n = c.get(nodeId)!;
          const shown = {
            text: n.text,
            thinking: n.thinking,
            toolArgs: Object.fromEntries(Object.entries(n.toolArgs).map(([k, s]) => [String(k), s])),
            status: n.status,
            syncing: n.syncing,
            snapshotRequests: n.snapshotRequests,
          };
          expect(shown, `${v.name}, step ${i}, node ${nodeId}`).toEqual(want);
        }
      });
    });
  }

  it('sends exactly one snapshot request per gap, never a loop', () => {
    const asked: string[] = [];
    const c = new StreamConsumer({ requestSnapshot: (id) => asked.push(id) });
    c.apply({ v: 1, type: 'llm_delta', runId: 'r', nodeId: 'n', channel: 'text', index: 0, delta: 'a', seq: 1 });
    for (let s = 3; s < 20; s++) c.apply({ v: 1, type: 'llm_delta', runId: 'r', nodeId: 'n', channel: 'text', index: 0, delta: 'x', seq: s });
    expect(asked).toEqual(['n']);
  });
});
