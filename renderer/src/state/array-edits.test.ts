import { describe, expect, it } from 'vitest';
import { applyPatches, enablePatches, type Patch } from 'immer';
import { moveItem, removeAt, transformPending } from './array-edits';

enablePatches();

const doc = { list: [{ id: 'a', t: 'A' }, { id: 'b', t: 'B' }, { id: 'c', t: 'C' }] };

describe('array edits as index patches', () => {
  it('remove and move touch only the item, and their inverse puts it back', () => {
    const r = removeAt(doc, ['list'], 0);
    expect(r.forward).toEqual([{ op: 'remove', path: ['list', 0] }]);
    const removed = applyPatches(doc, r.forward);
    expect(removed.list.map((x) => x.id)).toEqual(['b', 'c']);
    expect(applyPatches(removed, r.inverse)).toEqual(doc);
    const m = moveItem(doc, ['list'], 0, 2);
    const moved = applyPatches(doc, m.forward);
    expect(moved.list.map((x) => x.id)).toEqual(['b', 'c', 'a']);
    expect(applyPatches(moved, m.inverse)).toEqual(doc);
  });

  it("shifts this window's paths past another window's removal and insertion, and drops edits of a removed item", () => {
    const pending: Patch[] = [
      { op: 'replace', path: ['list', 2, 't'], value: 'C!' },
      { op: 'replace', path: ['list', 0, 't'], value: 'A!' },
      { op: 'replace', path: ['other'], value: 1 },
    ];
    const afterRemove = transformPending(pending, [{ op: 'remove', path: ['list', 0] }]);
    expect(afterRemove).toEqual([
      { patch: { op: 'replace', path: ['list', 1, 't'], value: 'C!' }, moved: true },
      { patch: { op: 'replace', path: ['other'], value: 1 }, moved: false },
    ]);
    const afterAdd = transformPending(pending, [{ op: 'add', path: ['list', 1], value: { id: 'n' } }]);
    expect(afterAdd.map((m) => m.patch.path)).toEqual([['list', 3, 't'], ['list', 0, 't'], ['other']]);
    // Both windows removed the same item: ours is dropped, not applied to the next item.
    expect(transformPending([{ op: 'remove', path: ['list', 1] }], [{ op: 'remove', path: ['list', 1] }])).toEqual([]);
  });
});
