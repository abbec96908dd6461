/* The JSON path as it was before the Yjs migration, kept for the multi-window benchmark only (docs/architecture.md#multi-window-editing). */
/**
 * Compact undo steps for text edits. An Immer `replace` patch of a string carries the whole
 * old and new string; typing one word into a long prompt would keep the prompt twice per step.
 * A sealed step keeps such a pair as a splice (`at`, `remove`, `insert`), and is expanded back
 * into ordinary replace patches against the current document when it is undone or redone.
 */
import type { Patch } from 'immer';

/** At offset `at` the string holds `remove`; replace it with `insert`. */
export interface TextPatch {
  op: 'text';
  path: (string | number)[];
  at: number;
  remove: string;
  insert: string;
}
export type StoredPatch = Patch | TextPatch;

const samePath = (a: (string | number)[], b: (string | number)[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export { splice } from '../../../shared/thread/text-splice';
import { splice } from '../../../shared/thread/text-splice';

/**
 * Replaces each string `replace` in `forward` whose path has a string `replace` in `inverse`
 * by a pair of text patches. Other patches are kept as they are.
 */
export function compact(forward: StoredPatch[], inverse: StoredPatch[]): { forward: StoredPatch[]; inverse: StoredPatch[] } {
  const f: StoredPatch[] = [];
  const inv = [...inverse];
  for (const p of forward) {
    if (p.op === 'replace' && typeof p.value === 'string') {
      const j = inv.findIndex((q) => q.op === 'replace' && typeof q.value === 'string' && samePath(q.path, p.path));
      if (j >= 0) {
        const old = (inv[j] as Patch).value as string;
        const d = splice(old, p.value);
        f.push({ op: 'text', path: p.path, ...d });
        inv[j] = invertText({ op: 'text', path: p.path, ...d });
        continue;
      }
    }
    f.push(p);
  }
  return { forward: f, inverse: inv };
}

/** The splice that undoes `p`. */
export function invertText(p: TextPatch): TextPatch {
  return { op: 'text', path: p.path, at: p.at, remove: p.insert, insert: p.remove };
}

function valueAt(doc: unknown, path: (string | number)[]): unknown {
  let v: unknown = doc;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

/** Ordinary Immer patches for `patches`, reading text patches' strings from `doc`. */
export function expand(patches: StoredPatch[], doc: unknown): Patch[] {
  return patches.map((p) => {
    if (p.op !== 'text') return p;
    const cur = valueAt(doc, p.path);
    if (typeof cur !== 'string' || cur.slice(p.at, p.at + p.remove.length) !== p.remove) {
      throw new Error(`The undo history no longer matches the text at /${p.path.join('/')}.`);
    }
    return { op: 'replace', path: p.path, value: cur.slice(0, p.at) + p.insert + cur.slice(p.at + p.remove.length) };
  });
}

/** True when every patch of both lists is a `replace` and they touch the same paths. */
export function sameReplaceTargets(a: StoredPatch[], b: StoredPatch[]): boolean {
  if (a.length !== b.length || a.length === 0) return false;
  return a.every((p, i) => p.op === 'replace' && b[i].op === 'replace' && samePath(p.path, b[i].path));
}
