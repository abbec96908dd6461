/**
 * Immer patches carried into a thread's Yjs document (docs/architecture.md#multi-window-editing):
 * how the host turns `thread.edit`, a run's result, a removed run ref and a file changed outside
 * into Yjs operations, so windows receive them as Yjs updates. A replaced string that is a
 * `Y.Text` is diffed into splices, and a replaced message or part is merged into its `Y.Map`
 * field by field, so what another window typed meanwhile elsewhere in that text survives.
 */
import * as Y from 'yjs';
import { applyPatches, type Patch } from 'immer';
import { diffChars } from 'diff';
import { splice } from './text-splice';
import { CONTEXT_TYPES, MAP_KINDS, childKind, plain, threadTypes, toY, type Kind, type ThreadTypes } from './y-thread';

/** Past this many characters on both sides of a changed middle, a text is replaced in one splice (no character diff). */
const DIFF_LIMIT = 10_000;

/**
 * Change `text` into `next` with as few splices as a character diff finds: the common prefix and
 * suffix are kept, the middle diffed (one splice when it is long).
 */
export function diffIntoText(text: Y.Text, next: string): void {
  const old = text.toString();
  if (old === next) return;
  const { at: start, remove: a, insert: b } = splice(old, next);
  if (!a || !b || a.length + b.length > DIFF_LIMIT) {
    if (a) text.delete(start, a.length);
    if (b) text.insert(start, b);
    return;
  }
  let at = start;
  for (const part of diffChars(a, b)) {
    if (part.removed) text.delete(at, part.value.length);
    else if (part.added) {
      text.insert(at, part.value);
      at += part.value.length;
    } else at += part.value.length;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Make `map` (of kind `kind`) hold `value`: keys `value` lacks are deleted, a text diffed, a
 * nested map merged the same way, an array of parts or calls merged item by item when its length
 * is unchanged; anything else set when it differs.
 */
function mergeMap(map: Y.Map<unknown>, kind: Kind, value: Record<string, unknown>): void {
  for (const k of [...map.keys()]) if (value[k] === undefined) map.delete(k);
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    setIn(map, k, childKind(kind, k, v), v);
  }
}

/** Set `container[key]` (kind `kind`) to `v`, merging into the shared type already there when it fits. */
function setIn(container: Y.Map<unknown>, key: string, kind: Kind, v: unknown): void {
  const cur = container.get(key);
  if (kind === 'text' && cur instanceof Y.Text) diffIntoText(cur, v as string);
  else if (isRecord(v) && cur instanceof Y.Map && MAP_KINDS.has(kind)) mergeMap(cur, kind, v);
  else if (Array.isArray(v) && cur instanceof Y.Array && (kind === 'parts' || kind === 'calls' || kind === 'messages')) mergeArray(cur, kind, v);
  else if (cur instanceof Y.AbstractType || !same(cur, v)) container.set(key, toY(kind, v));
}

/**
 * Make `arr` (kind `kind`) hold `value`. Items that keep their place (same length; for messages
 * and calls, the same id; for parts, the same type; a plain item, a plain value) are merged or
 * set in place; otherwise the array is replaced.
 */
function mergeArray(arr: Y.Array<unknown>, kind: Kind, value: unknown[]): void {
  const items = arr.toArray();
  const keeps =
    items.length === value.length &&
    items.every((item, i) => {
      const v = value[i];
      // A plain item (an image part) keeps its place when its replacement is plain too.
      if (!(item instanceof Y.AbstractType)) return childKind(kind, i, v) === 'plain';
      if (!(item instanceof Y.Map) || !isRecord(v)) return false;
      return kind === 'parts' ? item.get('type') === v.type : item.get('id') === v.id;
    });
  if (!keeps) {
    if (arr.length) arr.delete(0, arr.length);
    arr.insert(0, value.map((v, i) => toY(childKind(kind, i, v), v)));
    return;
  }
  items.forEach((item, i) => {
    if (item instanceof Y.Map) mergeMap(item, childKind(kind, i, value[i]), value[i] as Record<string, unknown>);
    else if (!same(item, value[i])) {
      arr.delete(i, 1);
      arr.insert(i, [value[i]]);
    }
  });
}

/** A patch's path could not be found in the document (the document and the patches disagree). */
export class YPatchError extends Error {}

function index(key: string | number, arr: Y.Array<unknown>, op: Patch['op']): number {
  const i = typeof key === 'number' ? key : /^\d+$/.test(key) ? Number(key) : NaN;
  const max = op === 'add' ? arr.length : arr.length - 1;
  if (!Number.isInteger(i) || i < 0 || i > max) throw new YPatchError(`no index ${String(key)} in an array of ${arr.length}`);
  return i;
}

/** Apply `p` to the plain value `v` at the rest of its path from `from` (a plain value inside the document). */
function subPatch(v: unknown, p: Patch, from: number): unknown {
  return applyPatches(structuredClone(v) as object, [{ ...p, path: p.path.slice(from) }]);
}

/** As much of a shared type's value as {@link childKind} reads, without turning it into JSON. */
function shape(t: Y.Map<unknown> | Y.Array<unknown>): unknown {
  return t instanceof Y.Map ? { type: t.get('type') } : [];
}

/** Apply patch `p` below shared type `cur` (kind `kind`), `at` indexing the key of `p.path` under it. */
function applyAt(cur: Y.AbstractType<any>, kind: Kind, p: Patch, at: number): void {
  const key = p.path[at];
  const last = at === p.path.length - 1;
  if (cur instanceof Y.Map) {
    const k = String(key);
    if (last) {
      if (p.op === 'remove' || p.value === undefined) cur.delete(k);
      else setIn(cur, k, childKind(kind, k, p.value), p.value);
      return;
    }
    const child = cur.get(k);
    if (child instanceof Y.Map || child instanceof Y.Array) return applyAt(child, childKind(kind, k, shape(child)), p, at + 1);
    if (child === undefined || child instanceof Y.AbstractType) throw new YPatchError(`no value at ${p.path.slice(0, at + 2).join('/')}`);
    const v = subPatch(child, p, at + 1);
    cur.set(k, toY(childKind(kind, k, v), v));
    return;
  }
  if (cur instanceof Y.Array) {
    if (key === 'length') {
      const n = Number(p.value);
      if (Number.isInteger(n) && n >= 0 && n < cur.length) cur.delete(n, cur.length - n);
      return;
    }
    const i = index(key, cur, last ? p.op : 'replace');
    if (last) {
      if (p.op === 'add') cur.insert(i, [toY(childKind(kind, i, p.value), p.value)]);
      else if (p.op === 'remove') cur.delete(i, 1);
      else {
        const item = cur.get(i);
        const k = childKind(kind, i, p.value);
        if (item instanceof Y.Map && isRecord(p.value) && k !== 'plain' && (kind === 'parts' ? item.get('type') === p.value.type : item.get('id') === p.value.id)) mergeMap(item, k, p.value);
        else {
          cur.delete(i, 1);
          cur.insert(i, [toY(k, p.value)]);
        }
      }
      return;
    }
    const child = cur.get(i);
    if (child instanceof Y.Map || child instanceof Y.Array) return applyAt(child, childKind(kind, i, shape(child)), p, at + 1);
    const v = subPatch(plain(child), p, at + 1);
    cur.delete(i, 1);
    cur.insert(i, [toY(childKind(kind, i, v), v)]);
    return;
  }
  throw new YPatchError(`a text has no field ${p.path.slice(0, at + 1).join('/')}`);
}

const arrayOf = (y: ThreadTypes, field: string) => (field === 'tools' ? y.tools : y.messages) as Y.Array<unknown>;

/** Apply `p` to one of the context's own shared types. */
function applyContext(y: ThreadTypes, p: Patch): void {
  const field = String(p.path[1]);
  if (p.path.length === 2) {
    if (p.op === 'remove') throw new YPatchError(`context/${field} cannot be removed`);
    if (field === 'systemPrompt') diffIntoText(y.systemPrompt, String(p.value));
    else mergeArray(arrayOf(y, field), field === 'tools' ? 'plain' : 'messages', p.value as unknown[]);
    return;
  }
  if (field === 'systemPrompt') throw new YPatchError('the system prompt is a text');
  applyAt(arrayOf(y, field), field === 'tools' ? 'plain' : 'messages', p, 2);
}

/** The shared array at JSON path `path` of the document, with its kind; undefined when that place is not a `Y.Array`. */
function yArrayAt(y: ThreadTypes, path: readonly (string | number)[]): { arr: Y.Array<unknown>; kind: Kind } | undefined {
  if (path[0] !== 'context' || (path[1] !== 'messages' && path[1] !== 'tools')) return undefined;
  let cur: unknown = path[1] === 'messages' ? y.messages : y.tools;
  let kind: Kind = path[1] === 'messages' ? 'messages' : 'plain';
  for (const key of path.slice(2)) {
    if (cur instanceof Y.Array && typeof key === 'number') {
      const next = cur.get(key);
      if (!(next instanceof Y.AbstractType)) return undefined;
      kind = childKind(kind, key, shape(next as Y.Map<unknown>));
      cur = next;
    } else if (cur instanceof Y.Map) {
      const next = cur.get(String(key));
      if (!(next instanceof Y.Map || next instanceof Y.Array)) return undefined;
      kind = childKind(kind, String(key), shape(next));
      cur = next;
    } else return undefined;
  }
  return cur instanceof Y.Array ? { arr: cur, kind } : undefined;
}

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let v = root;
  for (const k of path) v = v === null || typeof v !== 'object' ? undefined : (v as Record<string | number, unknown>)[k];
  return v;
}

/**
 * Make shared array `arr` (kind `kind`), which holds `before`, hold `after`: the items both
 * ends keep (the same object, or the same id) stay — changed ones merged field by field — and
 * only the middle is deleted and inserted. Immer describes removing the first of 1,000
 * messages as 999 replaces and a remove; this is one Yjs delete, so what another window types
 * meanwhile into a later message stays in it. A moved item is a delete and an insert of a copy.
 */
function reconcileArray(arr: Y.Array<unknown>, kind: Kind, before: unknown[], after: unknown[]): void {
  if (arr.length !== before.length) return mergeArray(arr, kind, after);
  const keyed = kind === 'messages' || kind === 'calls';
  const match = (b: unknown, a: unknown) => b === a || (keyed && isRecord(b) && isRecord(a) && b.id !== undefined && b.id === a.id);
  const min = Math.min(before.length, after.length);
  let p = 0;
  while (p < min && match(before[p], after[p])) p++;
  let q = 0;
  while (q < min - p && match(before[before.length - 1 - q], after[after.length - 1 - q])) q++;
  const kept = (i: number, j: number) => {
    if (before[i] === after[j]) return;
    const item = arr.get(i);
    const k = childKind(kind, j, after[j]);
    if (item instanceof Y.Map && isRecord(after[j]) && k !== 'plain') mergeMap(item, k, after[j]);
    else if (!same(plain(item), after[j])) {
      arr.delete(i, 1);
      arr.insert(i, [toY(k, after[j])]);
    }
  };
  for (let i = 0; i < q; i++) kept(before.length - 1 - i, after.length - 1 - i);
  const removed = before.length - q - p;
  if (removed > 0) arr.delete(p, removed);
  const added = after.slice(p, after.length - q);
  if (added.length) arr.insert(p, added.map((v, i) => toY(childKind(kind, p + i, v), v)));
  for (let i = 0; i < p; i++) kept(i, i);
}

/**
 * Apply Immer patches (made on the thread the document holds) to the document, inside the
 * caller's transaction. With the thread `before` and `after` them (Immer's structural sharing
 * intact), a shared array whose items the patches add, remove or replace is reconciled whole
 * ({@link reconcileArray}) instead of patch by patch. Throws {@link YPatchError} when a path
 * does not exist; the caller, who applied the same patches to the JSON first, treats that as a
 * bug and rebuilds the document.
 */
export function applyPatchesToY(doc: Y.Doc, patches: readonly Patch[], before?: unknown, after?: unknown): void {
  const y = threadTypes(doc);
  const arrays: (string | number)[][] = [];
  if (before !== undefined && after !== undefined) {
    for (const p of patches) {
      const at = p.path.slice(0, -1);
      const last = p.path[p.path.length - 1];
      if ((typeof last !== 'number' && last !== 'length') || !Array.isArray(valueAt(after, at)) || !Array.isArray(valueAt(before, at))) continue;
      if (arrays.some((a) => a.length <= at.length && a.every((k, i) => k === at[i]))) continue;
      for (let i = arrays.length - 1; i >= 0; i--) if (arrays[i].length > at.length && at.every((k, j) => k === arrays[i][j])) arrays.splice(i, 1);
      if (yArrayAt(y, at)) arrays.push(at);
    }
  }
  const under = (path: readonly (string | number)[]) => arrays.some((a) => a.length <= path.length && a.every((k, i) => k === path[i]));
  for (const p of patches) {
    if (arrays.length && under(p.path)) continue;
    const [top, second] = p.path;
    if (top === undefined) throw new YPatchError('a patch of the whole thread');
    if (top !== 'context') {
      applyAt(y.meta, 'plain', p, 0);
      continue;
    }
    if (second === undefined) {
      const ctx = p.value as Record<string, unknown>;
      for (const [k, v] of Object.entries(ctx)) applyPatchesToY(doc, [{ op: 'replace', path: ['context', k], value: v }]);
      for (const k of [...y.context.keys()]) if (ctx[k] === undefined) y.context.delete(k);
    } else if (CONTEXT_TYPES.has(String(second))) applyContext(y, p);
    else applyAt(y.context, 'plain', p, 1);
  }
  for (const at of arrays) {
    const found = yArrayAt(y, at)!;
    reconcileArray(found.arr, found.kind, valueAt(before, at) as unknown[], valueAt(after, at) as unknown[]);
  }
}
