import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyPatches, enablePatches, produceWithPatches } from 'immer';
import { UndoHistory } from './undo';
import { splice } from '../text/text-patch';

enablePatches();

describe('compact text steps in the undo history', () => {
  it('splice finds the changed middle', () => {
    expect(splice('hello world', 'hello brave world')).toEqual({ at: 6, remove: '', insert: 'brave ' });
    expect(splice('abc', 'abc')).toEqual({ at: 3, remove: '', insert: '' });
    expect(splice('aaa', 'aa')).toEqual({ at: 2, remove: 'a', insert: '' });
  });

  it('a sealed step of a one-word edit in a long prompt keeps the word, not the prompt twice', () => {
    let doc = { prompt: 'x'.repeat(100_000), other: '' };
    const h = new UndoHistory({ mergeMs: 0 });
    const [next, f, i] = produceWithPatches(doc, (d) => void (d.prompt = d.prompt.slice(0, 500) + 'word' + d.prompt.slice(500)));
    doc = next;
    h.record(f, i, { key: 'prompt', current: doc });
    const [next2, f2, i2] = produceWithPatches(doc, (d) => void (d.other = 'y'));
    doc = next2;
    h.record(f2, i2, { key: 'other', current: doc });
    // The first step is sealed now; its stored form is small.
    const stored = JSON.stringify((h as unknown as { undoStack: unknown[] }).undoStack[0]);
    expect(stored.length).toBeLessThan(500);
    doc = applyPatches(doc, h.take('undo', doc)!.patches);
    doc = applyPatches(doc, h.take('undo', doc)!.patches);
    expect(doc.prompt).toBe('x'.repeat(100_000));
    doc = applyPatches(doc, h.take('redo', doc)!.patches);
    expect(doc.prompt.slice(500, 504)).toBe('word');
  });

  it('property: undoing every step restores the start; redoing every step restores the end', () => {
    const edit = fc.record({ field: fc.constantFrom('a', 'b', 'c'), at: fc.nat(40), del: fc.nat(5), ins: fc.string({ maxLength: 6 }), pause: fc.boolean() });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 40 }), (edits) => {
        let t = 0;
        const h = new UndoHistory({ now: () => t, mergeMs: 800 });
        const start = { a: 'alpha beta', b: '', c: 'gamma' } as Record<string, string>;
        let doc = start;
        for (const e of edits) {
          const [next, f, i] = produceWithPatches(doc, (d) => {
            const s = d[e.field];
            const at = Math.min(e.at, s.length);
            d[e.field] = s.slice(0, at) + e.ins + s.slice(at + e.del);
          });
          doc = next;
          h.record(f, i, { key: e.field, current: doc });
          t += e.pause ? 1000 : 100;
        }
        const end = doc;
        for (let s = h.take('undo', doc); s; s = h.take('undo', doc)) doc = applyPatches(doc, s.patches);
        expect(doc).toEqual(start);
        for (let s = h.take('redo', doc); s; s = h.take('redo', doc)) doc = applyPatches(doc, s.patches);
        expect(doc).toEqual(end);
      }),
      { numRuns: 300 },
    );
  });
});
