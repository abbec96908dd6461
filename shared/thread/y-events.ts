/**
 * A thread's Yjs document read back as Immer patches (docs/architecture.md#multi-window-editing):
 * each transaction's events become the patches that turn the thread JSON before it into the
 * thread after it, so the host keeps (and logs, and validates) JSON beside the document, and a
 * window updates the immutable thread React renders without rebuilding it. A typed text is one
 * `replace` of its string; an array change is its splices (`remove`, `add` by index); a map
 * change one patch per key.
 */
import * as Y from 'yjs';
import type { Patch } from 'immer';
import { plain, rootList, threadTypes } from './y-thread';

type Path = (string | number)[];

/** The patches of one root type's events (`base`: the JSON path of that root). */
function eventPatches(events: Y.YEvent<any>[], base: Path, out: Patch[]): void {
  for (const e of events) {
    const at = [...base, ...(e.path as Path)];
    const target = e.target;
    if (target instanceof Y.Text) {
      out.push({ op: 'replace', path: at, value: target.toString() });
    } else if (target instanceof Y.Map) {
      for (const [key, change] of e.changes.keys) {
        const path = [...at, key];
        if (change.action === 'delete') out.push({ op: 'remove', path });
        else out.push({ op: change.action === 'add' ? 'add' : 'replace', path, value: plain(target.get(key)) });
      }
    } else if (target instanceof Y.Array) {
      let i = 0;
      for (const d of e.changes.delta) {
        if (d.retain !== undefined) i += d.retain;
        else if (d.delete !== undefined) for (let n = 0; n < d.delete; n++) out.push({ op: 'remove', path: [...at, i] });
        else if (Array.isArray(d.insert)) for (const v of d.insert) out.push({ op: 'add', path: [...at, i++], value: plain(v) });
      }
    }
  }
}

/**
 * Call `onPatches` after every transaction on `doc` that changed the thread, with its patches
 * (in order, for Immer's `applyPatches` on the thread JSON as it was before) and the
 * transaction. Returns the function that stops it.
 */
export function observePatches(doc: Y.Doc, onPatches: (patches: Patch[], tr: Y.Transaction) => void): () => void {
  const y = threadTypes(doc);
  const bases: Path[] = [[], ['context'], ['context', 'systemPrompt'], ['context', 'tools'], ['context', 'messages']];
  let pending: Patch[] = [];
  const handlers = rootList(y).map((type, r) => {
    const h = (events: Y.YEvent<any>[]) => eventPatches(events, bases[r], pending);
    type.observeDeep(h);
    return () => type.unobserveDeep(h);
  });
  const after = (tr: Y.Transaction) => {
    if (pending.length === 0) return;
    const patches = pending;
    pending = [];
    onPatches(patches, tr);
  };
  doc.on('afterTransaction', after);
  return () => {
    for (const off of handlers) off();
    doc.off('afterTransaction', after);
  };
}
