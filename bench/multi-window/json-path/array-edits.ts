/* The JSON path as it was before the Yjs migration, kept for the multi-window benchmark only (docs/architecture.md#multi-window-editing). */
/**
 * Removing and moving an item of an array in the thread as one `remove` / `add` patch at its
 * index. Immer records `splice` as a `replace` of every later item instead; replayed in
 * another window, or undone after another window's edit, those replaces would put back stale
 * copies of items that window changed. With index patches, concurrent edits of other items
 * survive ({@link transformPending} shifts their paths), and undo restores only the item.
 */
import type { Patch } from 'immer';

type Path = (string | number)[];

function arrayAt(doc: unknown, path: Path): unknown[] {
  let v: unknown = doc;
  for (const k of path) v = (v as Record<string | number, unknown>)[k];
  if (!Array.isArray(v)) throw new Error(`No array at /${path.join('/')}`);
  return v;
}

/** Patches removing item `i` of the array at `path` of `doc`, and the patches putting it back. */
export function removeAt(doc: unknown, path: Path, i: number): { forward: Patch[]; inverse: Patch[] } {
  const item = arrayAt(doc, path)[i];
  return { forward: [{ op: 'remove', path: [...path, i] }], inverse: [{ op: 'add', path: [...path, i], value: item }] };
}

/** Patches moving item `from` of the array at `path` to index `to` (its index afterwards). */
export function moveItem(doc: unknown, path: Path, from: number, to: number): { forward: Patch[]; inverse: Patch[] } {
  const item = arrayAt(doc, path)[from];
  return {
    forward: [{ op: 'remove', path: [...path, from] }, { op: 'add', path: [...path, to], value: item }],
    inverse: [{ op: 'remove', path: [...path, to] }, { op: 'add', path: [...path, from], value: item }],
  };
}

/** A pending patch after {@link transformPending}; `moved` when its path changed. */
export interface Moved {
  patch: Patch;
  moved: boolean;
}

/**
 * `pending` (this window's edits) with their paths moved past `remote`'s inserts and
 * removals of array items: an index after a removed item goes down by one, at or after an
 * inserted one up by one; an edit of a removed item is dropped (the item is gone), except an
 * insert at its place. Paths not under a changed array are kept as they are.
 */
export function transformPending(pending: Patch[], remote: Patch[]): Moved[] {
  let out: Moved[] = pending.map((patch) => ({ patch, moved: false }));
  for (const r of remote) {
    const at = r.path.at(-1);
    if (typeof at !== 'number' || (r.op !== 'add' && r.op !== 'remove')) continue;
    const arr = r.path.slice(0, -1);
    const under = (p: Path) => p.length > arr.length && arr.every((k, j) => k === p[j]) && typeof p[arr.length] === 'number';
    const next: Moved[] = [];
    for (const m of out) {
      const p = m.patch;
      if (!under(p.path)) {
        next.push(m);
        continue;
      }
      const k = p.path[arr.length] as number;
      let to = k;
      if (r.op === 'remove') {
        if (k === at && p.op !== 'add') continue; // the item it edits is gone
        if (k > at) to = k - 1;
      } else if (k >= at) {
        to = k + 1;
      }
      if (to === k) next.push(m);
      else next.push({ patch: { ...p, path: [...p.path.slice(0, arr.length), to, ...p.path.slice(arr.length + 1)] }, moved: true });
    }
    out = next;
  }
  return out;
}
