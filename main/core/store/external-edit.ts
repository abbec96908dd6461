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
 * three are compared field by field; arrays and other values are replaced whole. With
 * `target === from` the patches turn `from` into `to`; with another target (the open copy, with
 * edits not saved yet) they carry over only what changed on disk, and the target's own changes
 * elsewhere stay.
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
    } else {
      out.push({ op: key in t ? 'replace' : 'add', path, value: b[key] });
    }
  }
}
