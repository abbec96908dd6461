import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyNodeChange, mergeChanges, MAX_NODE_LOGS } from './node-change';
import type { NodeChange } from '../protocol/envelopes';
import type { ExecNode, NodeLog } from '../protocol/nodes';

const base: ExecNode = { id: 'n', runId: 'r', kind: 'tool', name: 'search', status: 'running', startedAt: 1, attrs: { keep: 1 } };

const line: fc.Arbitrary<NodeLog> = fc.record({ level: fc.constantFrom('info', 'debug', 'error'), data: fc.oneof(fc.string(), fc.integer()), t: fc.nat() });
const change: fc.Arbitrary<Omit<NodeChange, 'nodeId'>> = fc.record(
  {
    status: fc.constantFrom('pending' as const, 'running' as const, 'awaiting_input' as const),
    input: fc.jsonValue(),
    output: fc.jsonValue(),
    attrs: fc.dictionary(fc.constantFrom('progress', 'note', 'logs', 'inputRequest'), fc.oneof(fc.jsonValue(), fc.array(line, { maxLength: 3 }))),
    logs: fc.array(line, { minLength: 1, maxLength: 400 }),
  },
  { requiredKeys: [] },
);

describe('node changes (node_update)', () => {
  it('property: a node\'s pending changes merged into one have the effect of applying them one by one', () => {
    fc.assert(
      fc.property(fc.array(change, { minLength: 1, maxLength: 6 }), (changes) => {
        const oneByOne = changes.reduce(applyNodeChange, base);
        const merged = applyNodeChange(base, changes.reduce((a, b) => mergeChanges(a, b)));
        expect(merged).toEqual(oneByOne);
      }),
    );
  });

  it('keeps the last MAX_NODE_LOGS lines and never changes the node it was given', () => {
    const lines = (from: number, n: number): NodeLog[] => Array.from({ length: n }, (_, i) => ({ level: 'info', data: `line ${from + i}`, t: from + i }));
    let node = base;
    for (let i = 0; i < 700; i += 100) {
      const before = structuredClone(node);
      const next = applyNodeChange(node, { logs: lines(i, 100) });
      expect(node).toEqual(before);
      node = next;
    }
    const logs = node.attrs!.logs as NodeLog[];
    expect(logs).toHaveLength(MAX_NODE_LOGS);
    expect(logs[0].data).toBe('line 200');
    expect(logs.at(-1)!.data).toBe('line 699');
    expect(node.attrs!.keep).toBe(1);
  });

  it('ignores a terminal status: a node closes by tree_update with its final state', () => {
    expect(applyNodeChange(base, { status: 'completed' as never }).status).toBe('running');
  });
});
