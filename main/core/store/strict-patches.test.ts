/**
 * strict-patches.ts: Immer's own patches (and their inverses) always apply, with the same result
 * as Immer's applyPatches; a patch whose path is missing is refused, naming the patch and path.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { enablePatches, produceWithPatches } from 'immer';
import { applyPatchesStrictly, PatchPathError, toPointer } from './strict-patches';

enablePatches();

type Doc = { items: { id: string; tags: string[] }[]; meta: Record<string, string> };

/** One change a playground edit might make. */
const opArb = fc.oneof(
  fc.record({ kind: fc.constant('push' as const), id: fc.string({ maxLength: 3 }) }),
  fc.record({ kind: fc.constant('splice' as const), at: fc.nat(), del: fc.nat({ max: 3 }), add: fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }) }),
  fc.record({ kind: fc.constant('tag' as const), at: fc.nat(), tag: fc.string({ maxLength: 3 }) }),
  fc.record({ kind: fc.constant('untag' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('setMeta' as const), key: fc.constantFrom('a', 'b', 'c'), value: fc.string({ maxLength: 3 }) }),
  fc.record({ kind: fc.constant('deleteMeta' as const), key: fc.constantFrom('a', 'b', 'c') }),
);
type Op = typeof opArb extends fc.Arbitrary<infer T> ? T : never;

function apply(d: Doc, op: Op): void {
  const n = d.items.length;
  switch (op.kind) {
    case 'push': d.items.push({ id: op.id, tags: [] }); break;
    case 'splice': d.items.splice(n ? op.at % (n + 1) : 0, op.del, ...op.add.map((id) => ({ id, tags: [] }))); break;
    case 'tag': if (n) d.items[op.at % n].tags.push(op.tag); break;
    case 'untag': if (n) d.items[op.at % n].tags.pop(); break;
    case 'setMeta': d.meta[op.key] = op.value; break;
    case 'deleteMeta': delete d.meta[op.key]; break;
  }
}

const docArb = fc.record({
  items: fc.array(fc.record({ id: fc.string({ maxLength: 3 }), tags: fc.array(fc.string({ maxLength: 2 }), { maxLength: 3 }) }), { maxLength: 5 }),
  meta: fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.string({ maxLength: 3 })),
});

describe('applyPatchesStrictly', () => {
  it('property: the patches and inverse patches Immer makes apply, with the same result', () => {
    fc.assert(
      fc.property(docArb, fc.array(opArb, { minLength: 1, maxLength: 6 }), (base, ops) => {
        const [next, forward, inverse] = produceWithPatches(base, (d) => ops.forEach((op) => apply(d as Doc, op)));
        expect(applyPatchesStrictly(base, forward)).toEqual(next);
        expect(applyPatchesStrictly(next, inverse)).toEqual(base);
      }),
    );
  });

  it('property: remove or replace of an index past the end, and add beyond it, are refused naming the patch and path', () => {
    fc.assert(
      fc.property(docArb, fc.nat({ max: 4 }), fc.constantFrom('remove', 'replace', 'add') as fc.Arbitrary<'remove' | 'replace' | 'add'>, (base, past, op) => {
        const n = base.items.length;
        const i = op === 'add' ? n + 1 + past : n + past;
        const path = ['items', i];
        const patch = op === 'remove' ? { op, path } : { op, path, value: { id: 'x', tags: [] } };
        const first = { op: 'add' as const, path: ['meta', 'a'], value: 'first' }; // applies: the refusal names the second
        let err: unknown;
        try {
          applyPatchesStrictly(base, [first, patch]);
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(PatchPathError);
        expect(err).toMatchObject({ index: 1, pointer: `/items/${i}`, message: `patches[1] (${op} /items/${i}): there is no item ${i}: /items has ${n} item${n === 1 ? '' : 's'}` });
      }),
    );
  });

  it('refuses keys that are not indices of an array, missing keys, paths through missing parents and reserved names', () => {
    const base: Doc = { items: [{ id: 'a', tags: ['t'] }], meta: { a: '1' } };
    const cases: [Parameters<typeof applyPatchesStrictly>[1][number], string][] = [
      [{ op: 'remove', path: ['items', 'x'] }, '"x" is not an index of the array /items'],
      [{ op: 'remove', path: ['items', -1] }, '-1 is not an index of the array /items'],
      [{ op: 'add', path: ['items', 0.5], value: {} }, '0.5 is not an index of the array /items'],
      [{ op: 'replace', path: ['items', 'length'], value: 0 }, '"length" is not an index of the array /items'],
      [{ op: 'replace', path: ['meta', 'b'], value: '2' }, 'there is no "b" in /meta'],
      [{ op: 'remove', path: ['meta', 'b'] }, 'there is no "b" in /meta'],
      [{ op: 'replace', path: ['items', 3, 'id'], value: 'x' }, 'there is no item 3: /items has 1 item'],
      [{ op: 'add', path: ['items', 0, 'id', 'x'], value: 1 }, '/items/0/id is not an object or an array'],
      [{ op: 'add', path: ['meta', '__proto__'], value: {} }, '"__proto__" is a reserved name'],
      [{ op: 'add', path: ['nope', 'x'], value: 1 }, 'there is no "nope" in the thread'],
    ];
    for (const [patch, why] of cases) {
      expect(() => applyPatchesStrictly(base, [patch]), JSON.stringify(patch)).toThrow(`patches[0] (${patch.op} ${toPointer(patch.path)}): ${why}`);
    }
    // What JSON Patch allows: add of a new key, add at the end ("-" or the length), paths with "~" and "/".
    const meta = { 'a/b~c': '1' } as Record<string, string>;
    expect(applyPatchesStrictly({ ...base, meta }, [
      { op: 'add', path: ['meta', 'new'], value: 'n' },
      { op: 'add', path: ['items', '-'], value: { id: 'z', tags: [] } },
      { op: 'add', path: ['items', 2], value: { id: 'y', tags: [] } },
      { op: 'replace', path: ['meta', 'a/b~c'], value: '2' },
    ])).toEqual({ items: [{ id: 'a', tags: ['t'] }, { id: 'z', tags: [] }, { id: 'y', tags: [] }], meta: { 'a/b~c': '2', new: 'n' } });
    expect(toPointer(['meta', 'a/b~c'])).toBe('/meta/a~1b~0c');
  });
});
