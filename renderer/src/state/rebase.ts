/**
 * Replaying this window's unsent edits on a newer version of the thread (DESIGN §4: edits
 * carry a base version; the host refuses a stale one). Structural edits are replayed as the
 * Immer patches they are; a text field edited on both sides is merged three ways
 * ({@link mergeText}) so neither window's typing is lost, and the patches still to be sent
 * carry the merged text.
 */
import { applyPatches, produce, type Patch } from 'immer';
import { mergeText } from './text-merge';

type Path = (string | number)[];

function valueAt(doc: unknown, path: Path): unknown {
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

const isPrefix = (p: Path, of: Path) => p.length < of.length && p.every((k, i) => k === of[i]);
const key = (p: Path) => JSON.stringify(p);

/**
 * Indices of `pending`'s string replaces whose path names the same field in the base, in
 * this window's document and in the newer version: no patch of the list adds, removes or
 * replaces one of its ancestors (which would shift array indices or swap the object the path
 * runs through). Those fields are merged; the rest are replayed as they are.
 */
function stableTextPatches(pending: Patch[]): number[] {
  const out: number[] = [];
  pending.forEach((p, i) => {
    if (p.op !== 'replace' || typeof p.value !== 'string') return;
    const moved = pending.some((q) => isPrefix(q.path, p.path) && (q.op !== 'replace' || typeof q.value !== 'string'));
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
 * a newer version of `base`. Throws when a patch no longer applies (its target was removed).
 */
export function rebasePending<T>(base: T, mine: T, theirs: T, pending: Patch[]): Rebased<T> {
  const replayed = applyPatches(theirs as object, pending) as T;
  const stable = stableTextPatches(pending);
  if (stable.length === 0) return { doc: replayed, pending };
  const texts = new Map(stable.map((i) => [key(pending[i].path), pending[i].path]));
  const merged = new Map<string, string>();
  for (const p of texts.values()) {
    const b = valueAt(base, p);
    const m = valueAt(mine, p);
    const t = valueAt(theirs, p);
    if (typeof m !== 'string' || typeof t !== 'string') continue;
    merged.set(key(p), typeof b === 'string' ? mergeText(b, m, t) : m);
  }
  const doc = produce(replayed, (d) => {
    for (const [k, p] of texts) if (merged.has(k)) setAt(d, p, merged.get(k));
  }) as T;
  const rewritten = pending.map((p, i) => (stable.includes(i) && merged.has(key(p.path)) ? { ...p, value: merged.get(key(p.path)) } : p));
  return { doc, pending: rewritten };
}
