/**
 * Which repeated ids a client's edit may leave in a thread (docs/architecture.md#the-thread-document):
 * none it creates. A thread read from its file with repeated message or tool call ids keeps
 * them until "Give duplicates new ids", and that repair's Undo must be able to bring exactly
 * those back; any other repeat an edit would make is refused, naming the id and where it is.
 */
import type { Thread } from '../../../shared/thread/schema';
import { duplicateIds, type Duplicate } from '../../../shared/thread/validate';

/** `kind\0id` of every message and tool call id `thread` repeats. */
export function repeatKeys(thread: Thread): Set<string> {
  return new Set(duplicateIds(thread).map(keyOf));
}

const keyOf = (d: Duplicate): string => `${d.kind}\u0000${d.id}`;

/**
 * The repeats of `next` that an edit of `base` would create: repeated ids of `next` that `base`
 * does not repeat and that are not in `known` (those the thread came with from its file).
 */
export function createdRepeats(base: Thread, next: Thread, known: ReadonlySet<string>): Duplicate[] {
  const after = duplicateIds(next);
  if (!after.length) return [];
  const before = repeatKeys(base);
  return after.filter((d) => !before.has(keyOf(d)) && !known.has(keyOf(d)));
}
