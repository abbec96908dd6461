import { describe, expect, it } from 'vitest';
import { StreamConsumer } from './consumer';
import { checkVector, loadStreamVectors } from '../../tests/support/stream-vectors';

// The project's conformance vectors (docs/architecture.md#conformance-vectors).
const vectors = loadStreamVectors();

describe('StreamConsumer conformance (tests/fixtures/conformance/stream-vectors.json)', () => {
  it('has vectors to run', () => expect(vectors.length).toBeGreaterThan(5));
  for (const v of vectors) {
    it(v.name, () => {
      const c = new StreamConsumer({ requestSnapshot: () => {} });
      checkVector(v, (env) => c.apply(env), (nodeId) => {
        const n = c.get(nodeId)!;
        return { text: n.text, thinking: n.thinking, toolArgs: { ...n.toolArgs }, status: n.status, syncing: n.syncing, snapshotRequests: n.snapshotRequests, attrs: n.node?.attrs };
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
