/**
 * Turning a thread file changed outside the host into patches (docs/architecture.md#edits-and-undo): one patch per
 * changed field (objects are compared field by field, arrays replaced whole), so windows apply
 * it with Immer's `applyPatches` like any other `thread_patch`.
 */
import type { Patch } from 'immer';
import type { Thread } from '../../../shared/thread/schema';

/** Whether two documents are the same as the file holds them (JSON, so `undefined` fields do not count). */
export function sameDoc(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Patches that change, in `target`, every field that differs between `from` and `to` to its
 * value in `to` (`add`, `replace`, or `remove` when `to` lacks it). Objects present in all
 * three are compared field by field. Arrays of objects with ids (messages, tool calls) whose ids
 * are the same, in the same order, in `from` and `to` are compared item by item, each item found
 * in `target` by its id (the open copy may have added, removed or moved items); other arrays and
 * values are replaced whole. With `target === from` the patches turn `from` into `to`; with
 * another target (the open copy, with edits not saved yet) they carry over only what changed on
 * disk, and the target's own changes elsewhere stay: a message edited outside does not undo an
 * unsaved edit of another message.
 */
export function fieldPatches(from: Thread, to: Thread, target: Thread = from): Patch[] {
  const patches: Patch[] = [];
  diff(from as unknown as Record<string, unknown>, to as unknown as Record<string, unknown>, target as unknown as Record<string, unknown>, [], patches);
  return patches;
}

function diff(a: Record<string, unknown>, b: Record<string, unknown>, t: Record<string, unknown>, at: (string | number)[], out: Patch[]): void {
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (sameDoc(a[key], b[key]) || sameDoc(t[key], b[key])) continue;
    const path = [...at, key];
    if (b[key] === undefined) {
      if (key in t) out.push({ op: 'remove', path });
    } else if (isRecord(a[key]) && isRecord(b[key]) && isRecord(t[key])) {
      diff(a[key], b[key], t[key], path, out);
    } else if (sameIds(a[key], b[key]) && Array.isArray(t[key]) && t[key].every(hasId)) {
      diffById(a[key] as Identified[], b[key] as Identified[], t[key] as Identified[], path, out);
    } else {
      out.push({ op: key in t ? 'replace' : 'add', path, value: b[key] });
    }
  }
}

type Identified = Record<string, unknown> & { id: string };

const hasId = (v: unknown): v is Identified => isRecord(v) && typeof v.id === 'string';

/** Whether `a` and `b` are arrays of objects with ids, the same ids in the same order, none repeated. */
function sameIds(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length || !a.every(hasId) || !b.every(hasId)) return false;
  const ids = new Set<string>();
  for (let i = 0; i < a.length; i++) {
    if (a[i].id !== b[i].id || ids.has(a[i].id)) return false;
    ids.add(a[i].id);
  }
  return true;
}

/** Item by item: each item of `b` that differs from `a` is compared with the target's item of that id (none: the target removed it, which stays). */
function diffById(a: Identified[], b: Identified[], t: Identified[], at: (string | number)[], out: Patch[]): void {
  const where = new Map(t.map((item, j) => [item.id, j]));
  for (let i = 0; i < b.length; i++) {
    const j = where.get(b[i].id);
    if (j === undefined || sameDoc(a[i], b[i])) continue;
    diff(a[i], b[i], t[j], [...at, j], out);
  }
}
