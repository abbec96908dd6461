/**
 * The JSON path's three-way merge (kept for the benchmark's comparison only; the renderer's
 * editors are bound to the document's Y.Text now, renderer/src/ui/y-binding.ts): one text
 * field edited in two windows at once. Each side's change from
 * the common `base` is reduced to one splice (common prefix and suffix trimmed, see
 * {@link splice}); both splices are kept when they touch different parts of the text. When
 * both insert at the same offset, the other window's text comes first (it reached the host
 * first). When their regions overlap, this window's text wins over the overlapped region only.
 */
import { splice } from '../../../shared/thread/text-splice';

/**
 * Merge `mine` and `theirs`, both derived from `base`. Returns `theirs` when this window
 * changed nothing, `mine` when the other changed nothing; never throws.
 */
export function mergeText(base: string, mine: string, theirs: string): string {
  if (mine === base || mine === theirs) return theirs;
  if (theirs === base) return mine;
  const a = splice(base, mine);
  const b = splice(base, theirs);
  const aEnd = a.at + a.remove.length;
  const bEnd = b.at + b.remove.length;
  // Same insertion point with nothing removed: theirs first, then mine.
  if (a.remove === '' && b.remove === '' && a.at === b.at) return base.slice(0, a.at) + b.insert + a.insert + base.slice(a.at);
  if (aEnd <= b.at) return base.slice(0, a.at) + a.insert + base.slice(aEnd, b.at) + b.insert + base.slice(bEnd);
  if (bEnd <= a.at) return base.slice(0, b.at) + b.insert + base.slice(bEnd, a.at) + a.insert + base.slice(aEnd);
  // Overlap: take theirs outside the union of both regions, mine inside it.
  const start = Math.min(a.at, b.at);
  const end = Math.max(aEnd, bEnd); // in base
  const tail = base.length - end;
  return theirs.slice(0, start) + mine.slice(start, mine.length - tail) + theirs.slice(theirs.length - tail);
}

type Json = unknown;
const isPlainObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const sameJson = (a: Json, b: Json) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * Three-way merge of a JSON value (a tool call's arguments, a message, a tool) edited in two
 * windows. Objects merge key by key (a key one side changed takes that side's value; a key both
 * changed merges again, down to strings, which {@link mergeText} merges); anything else that
 * both sides changed differently takes `mine`. Objects with an `id` merge only when all three
 * carry the same id (otherwise they are different things at the same place: `mine` wins).
 * `undefined` stands for an absent key. Never throws.
 */
export function mergeJson(base: Json, mine: Json, theirs: Json): Json {
  if (theirs === base) return mine; // the common case, without serialising anything
  if (mine === base) return theirs;
  if (sameJson(mine, base) || sameJson(mine, theirs)) return theirs;
  if (sameJson(theirs, base)) return mine;
  if (typeof base === 'string' && typeof mine === 'string' && typeof theirs === 'string') return mergeText(base, mine, theirs);
  if (!isPlainObject(base) || !isPlainObject(mine) || !isPlainObject(theirs)) return mine;
  if ('id' in base || 'id' in mine || 'id' in theirs) {
    if (!(base.id === mine.id && mine.id === theirs.id)) return mine;
  }
  const out: Record<string, Json> = {};
  for (const k of new Set([...Object.keys(mine), ...Object.keys(theirs), ...Object.keys(base)])) {
    const v = mergeJson(base[k], mine[k], theirs[k]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/**
 * The text a field should hold after the person changed `before` into `after` in an editor
 * whose text may lag the document: when the document's `current` text is no longer `before`
 * (another window's edit arrived after the editor last showed it), the change is merged into
 * `current` instead of overwriting it.
 */
export function applyTyping(before: string, after: string, current: string): string {
  return current === before ? after : mergeText(before, after, current);
}
