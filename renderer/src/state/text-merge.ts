/**
 * Three-way merge of one text field edited in two windows at once. Each side's change from
 * the common `base` is reduced to one splice (common prefix and suffix trimmed, see
 * {@link splice}); both splices are kept when they touch different parts of the text. When
 * both insert at the same offset, the other window's text comes first (it reached the host
 * first). When their regions overlap, this window's text wins over the overlapped region only.
 */
import { splice } from './text-patch';

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
