/* The JSON path as it was before the Yjs migration, kept for the multi-window benchmark only (docs/architecture.md#multi-window-editing). */
/**
 * Applying a host patch that appends many items to one array (a run's result: a thousand
 * messages as a thousand `add` patches at the end of `context.messages`) without Immer drafting
 * the array a thousand times. Immer's `applyPatches` clones every added value and splices the
 * draft once per patch, then `produceWithPatches` compares the arrays to make the patches back:
 * about 40 ms for a 1,000-turn run's result, in one task. Here the appended items join the array
 * in one copy, and only the other patches go through Immer (3 ms instead of 40 for a 1,000-turn
 * run's result on the machine the benchmarks run on).
 */
import { applyPatches, produceWithPatches, type Patch } from 'immer';

type Path = (string | number)[];

/** The value at `path` of `doc`, or undefined when the path leaves the document. */
function at(doc: unknown, path: Path): unknown {
  let v: unknown = doc;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

/**
 * `doc` with the array at `path` replaced by `next`, copying only the objects along the path.
 * The copies are frozen, as Immer freezes what it makes, so that Immer's deep freeze of a later
 * result stops at them instead of walking every appended item (the items are not frozen: nothing
 * changes them but Immer, which copies).
 */
function setAt<T>(doc: T, path: Path, next: unknown[]): T {
  if (path.length === 0) return Object.freeze(next) as T;
  const [k, ...rest] = path;
  const parent = doc as Record<string | number, unknown>;
  const copy = (Array.isArray(parent) ? [...parent] : { ...parent }) as Record<string | number, unknown>;
  copy[k] = setAt(parent[k], rest, next);
  return Object.freeze(copy) as T;
}

const startsWith = (p: Path, prefix: Path) => p.length >= prefix.length && prefix.every((k, i) => p[i] === k);

/**
 * The appends of `patches` to one array of `doc`, when it has them in the form a push makes:
 * `add` patches at the array's end, one index after another; any other patch of the array inside
 * an item that was there before; no patch of the array itself or a value above it. The other
 * patches (`rest`, in their order) touch nothing the appends touch, so they can go first. Null
 * otherwise.
 */
function appendsOf(doc: unknown, patches: Patch[]): { path: Path; items: unknown[]; rest: Patch[] } | null {
  // The array with the most `add`s at an index (a run also adds to `runRefs`).
  const counts = new Map<string, { path: Path; n: number }>();
  let best: { path: Path; n: number } | undefined;
  for (const p of patches) {
    if (p.op !== 'add' || typeof p.path[p.path.length - 1] !== 'number') continue;
    const parent = p.path.slice(0, -1) as Path;
    const key = parent.map((k) => `${typeof k}:${k}`).join('/');
    const c = counts.get(key) ?? { path: parent, n: 0 };
    c.n++;
    counts.set(key, c);
    if (!best || c.n > best.n) best = c;
  }
  if (!best || best.n < 2) return null;
  const path = best.path;
  const arr = at(doc, path);
  if (!Array.isArray(arr)) return null;
  const items: unknown[] = [];
  const rest: Patch[] = [];
  for (const p of patches) {
    const pp = p.path as Path;
    if (startsWith(path, pp)) return null; // the array itself, or a value above it
    if (!startsWith(pp, path)) {
      rest.push(p);
      continue;
    }
    const i = pp[path.length];
    if (pp.length === path.length + 1) {
      // An item of the array itself: only appends, in order.
      if (p.op !== 'add' || i !== arr.length + items.length) return null;
      items.push(p.value);
    } else if (typeof i === 'number' && i < arr.length) {
      rest.push(p); // inside an item that was there: it is at the same index after the appends
    } else {
      return null;
    }
  }
  return items.length > 1 ? { path, items, rest } : null;
}

/**
 * `doc` with `patches` applied, and the forward and inverse patches of the change: the same
 * document and patches that undo and redo it as `produceWithPatches(doc, (d) => applyPatches(d,
 * patches))`, where the inverse of the appends removes them from the last. Appended
 * values are used as they are, not cloned: nothing may change them later (a patch from the host
 * is parsed afresh for each window). Throws as Immer does when a patch does not apply.
 */
export function applyWithPatches<T extends object>(doc: T, patches: Patch[]): [T, Patch[], Patch[]] {
  const appends = appendsOf(doc, patches);
  if (!appends) return produceWithPatches(doc, (d) => void applyPatches(d, patches)) as [T, Patch[], Patch[]];
  const { path, items, rest } = appends;
  const [edited, restForward, restInverse] = rest.length
    ? (produceWithPatches(doc, (d) => void applyPatches(d, rest)) as [T, Patch[], Patch[]])
    : [doc, [], []];
  const before = at(edited, path) as unknown[];
  const next = setAt(edited, path, before.concat(items));
  const kept = new Set(rest);
  const forward = [...patches.filter((p) => !kept.has(p)), ...restForward];
  // The appended items removed from the last: JSON Patch paths, which the host checks strictly.
  const inverse: Patch[] = [];
  for (let i = before.length + items.length - 1; i >= before.length; i--) inverse.push({ op: 'remove', path: [...path, i] });
  inverse.push(...restInverse);
  return [next, forward, inverse];
}
