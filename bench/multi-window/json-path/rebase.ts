/* The JSON path as it was before the Yjs migration, kept for the multi-window benchmark only (docs/architecture.md#multi-window-editing). */
/**
 * Replaying this window's unsent edits on a newer version of the thread (docs/architecture.md#multi-window-editing: edits
 * carry a base version; the host refuses a stale one). Structural edits are replayed as the
 * Immer patches they are; a field edited on both sides (a text, a tool call's arguments) is
 * merged three ways ({@link mergeJson}) so neither window's typing is lost, and the patches
 * still to be sent carry the merged value.
 */
import { applyPatches, produce, type Patch } from 'immer';
import { mergeJson } from './text-merge';

type Path = (string | number)[];

/** The value at `path` of `doc`, or undefined where the path does not lead. */
export function valueAt(doc: unknown, path: Path): unknown {
  let v: unknown = doc;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

function setAt(doc: unknown, path: Path, value: unknown): void {
  let v = doc as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) v = v[k] as Record<string | number, unknown>;
  v[path[path.length - 1]] = value;
}

const isPrefix = (p: Path, of: Path) => p.length <= of.length && p.every((k, i) => k === of[i]);
const key = (p: Path) => JSON.stringify(p);
const mergeable = (v: unknown) => typeof v === 'string' || (typeof v === 'object' && v !== null && !Array.isArray(v));
/** The patch inserts into, removes from or resizes an array: later elements change index. */
const shifts = (q: Patch) => q.path.at(-1) === 'length' || (q.op !== 'replace' && (typeof q.path.at(-1) === 'number' || q.path.at(-1) === '-'));

/**
 * Indices of `pending`'s replaces of a text or an object whose path names the same field in
 * the base, in this window's document and in the newer version: no patch of the list shifts
 * an array the path runs through, and no patch replaces a whole array on the way. Those
 * fields are merged; the rest are replayed as they are.
 */
function stablePatches(pending: Patch[]): number[] {
  const out: number[] = [];
  pending.forEach((p, i) => {
    if (p.op !== 'replace' || !mergeable(p.value)) return;
    const moved = pending.some((q) => (shifts(q) && isPrefix(q.path.slice(0, -1), p.path)) || (Array.isArray(q.value) && isPrefix(q.path, p.path)));
    if (!moved) out.push(i);
  });
  return out;
}

/** A rebase's outcome: the document to show and the patches still to send on `theirs`. */
export interface Rebased<T> {
  doc: T;
  pending: Patch[];
}

/**
 * Replays `pending` (this window's edits made on `base`; `mine` = base + pending) on `theirs`,
 * a newer version of `base`. The patches at indices in `moved` had their paths shifted to
 * `theirs` (another window inserted or removed an item before them): they are replayed, not
 * merged. Throws when a patch no longer applies (its target was removed).
 */
export function rebasePending<T>(base: T, mine: T, theirs: T, pending: Patch[], moved: ReadonlySet<number> = new Set()): Rebased<T> {
  const replayed = applyPatches(theirs as object, pending) as T;
  const stable = stablePatches(pending).filter((i) => !moved.has(i) && !pending.some((q, j) => moved.has(j) && key(q.path) === key(pending[i].path)));
  if (stable.length === 0) return { doc: replayed, pending };
  const texts = new Map(stable.map((i) => [key(pending[i].path), pending[i].path]));
  const merged = new Map<string, unknown>();
  for (const p of texts.values()) {
    const m = valueAt(mine, p);
    const t = valueAt(theirs, p);
    if (!mergeable(m) || !mergeable(t)) continue;
    merged.set(key(p), mergeJson(valueAt(base, p), m, t));
  }
  const doc = produce(replayed, (d) => {
    for (const [k, p] of texts) if (merged.has(k)) setAt(d, p, merged.get(k));
  }) as T;
  const rewritten = pending.map((p, i) => (stable.includes(i) && merged.has(key(p.path)) ? { ...p, value: merged.get(key(p.path)) } : p));
  return { doc, pending: rewritten };
}
