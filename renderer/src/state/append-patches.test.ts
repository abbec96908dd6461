/**
 * applyWithPatches (append-patches.ts): a host patch appending many items to an array (a run's
 * result) gives the same document as Immer's own path, and its forward and inverse patches
 * redo and undo it, for any mix of appends and other edits; a run-shaped patch takes the
 * one-copy path.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyPatches, enablePatches, produceWithPatches, type Patch } from 'immer';
import { applyWithPatches } from './append-patches';

enablePatches();

interface Doc {
  title: string;
  context: { messages: { id: string; text: string; calls: { id: string; output?: string }[] }[] };
  runRefs: { id: string }[];
}

const doc = (n: number): Doc => Object.freeze({
  title: 't',
  context: { messages: Array.from({ length: n }, (_, i) => ({ id: `m${i}`, text: `text ${i}`, calls: [{ id: `c${i}` }] })) },
  runRefs: [{ id: 'r0' }],
}) as Doc;

type Edit =
  | { kind: 'push'; n: number }
  | { kind: 'output'; at: number; text: string }
  | { kind: 'text'; at: number; text: string }
  | { kind: 'runRef'; id: string }
  | { kind: 'splice'; at: number }
  | { kind: 'title'; text: string };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('push' as const), n: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ kind: fc.constant('output' as const), at: fc.nat(30), text: fc.string({ maxLength: 5 }) }),
  fc.record({ kind: fc.constant('text' as const), at: fc.nat(30), text: fc.string({ maxLength: 5 }) }),
  fc.record({ kind: fc.constant('runRef' as const), id: fc.string({ maxLength: 3 }) }),
  fc.record({ kind: fc.constant('splice' as const), at: fc.nat(30) }),
  fc.record({ kind: fc.constant('title' as const), text: fc.string({ maxLength: 5 }) }),
);

function run(d: Doc, edits: Edit[]): void {
  let k = 0;
  for (const e of edits) {
    const ms = d.context.messages;
    if (e.kind === 'push') for (let i = 0; i < e.n; i++) ms.push({ id: `new${k}`, text: `new ${k++}`, calls: [] });
    else if (e.kind === 'output' && ms.length) ms[e.at % ms.length].calls.push({ id: 'x', output: e.text });
    else if (e.kind === 'text' && ms.length) ms[e.at % ms.length].text = e.text;
    else if (e.kind === 'runRef') d.runRefs.push({ id: e.id });
    else if (e.kind === 'splice') ms.splice(e.at % (ms.length + 1));
    else if (e.kind === 'title') d.title = e.text;
  }
}

describe('applyWithPatches', () => {
  it('property: the same document as Immer, and its patches redo and undo it', () => {
    fc.assert(
      fc.property(fc.nat(8), fc.array(edit, { maxLength: 8 }), (n, edits) => {
        const base = doc(n);
        const [, patches] = produceWithPatches(base, (d) => run(d, edits));
        const [expected] = produceWithPatches(base, (d) => void applyPatches(d, patches));
        const [next, forward, inverse] = applyWithPatches(base, patches);
        expect(next).toEqual(expected);
        expect(applyPatches(next, inverse)).toEqual(base);
        expect(applyPatches(base, forward)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('adds a run\'s thousand messages in one copy: the undo removes them from the last, and the untouched messages are the same objects', () => {
    const base = doc(3);
    const [, patches] = produceWithPatches(base, (d) => {
      for (let i = 0; i < 1000; i++) d.context.messages.push({ id: `r${i}`, text: `reply ${i}`, calls: [] });
      d.context.messages[2].calls[0].output = 'done';
      d.runRefs.push({ id: 'r1' });
    });
    const [next, forward, inverse] = applyWithPatches(base, patches as Patch[]);
    expect(next.context.messages).toHaveLength(1003);
    expect(next.context.messages[1002].text).toBe('reply 999');
    expect(next.context.messages[2].calls[0].output).toBe('done');
    expect(next.context.messages[0]).toBe(base.context.messages[0]);
    expect(next.runRefs.map((r) => r.id)).toEqual(['r0', 'r1']);
    expect(inverse.slice(0, 1000).map((p) => [p.op, ...p.path])).toEqual(Array.from({ length: 1000 }, (_, i) => ['remove', 'context', 'messages', 1002 - i]));
    expect(applyPatches(next, inverse)).toEqual(base);
    expect(applyPatches(base, forward)).toEqual(next);
    expect(Object.isFrozen(next) && Object.isFrozen(next.context) && Object.isFrozen(next.context.messages)).toBe(true);
  });

  it('throws as Immer does for a patch that does not apply', () => {
    const base = doc(2);
    const bad: Patch[] = [{ op: 'add', path: ['context', 'messages', 2], value: {} }, { op: 'add', path: ['context', 'messages', 3], value: {} }, { op: 'replace', path: ['nope', 'deeper', 'x'], value: 1 }];
    expect(() => applyWithPatches(base, bad)).toThrow();
  });
});
