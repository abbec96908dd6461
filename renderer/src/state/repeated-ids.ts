/**
 * A thread's repeated message and tool call ids, as the renderer asks for them on every render
 * and edit: computed once per document (Immer gives each version a new object).
 */
import type { Thread } from '../../../shared/thread/schema';
import { duplicateIds, type Duplicate } from '../../../shared/thread/validate';
import { badData } from './data-check';

export { badData, useBadData } from './data-check';

const memo = new WeakMap<Thread, Duplicate[]>();

/**
 * The message and tool call ids `thread` repeats (validate.ts `duplicateIds`). While there are
 * any the thread is read-only: edits and runs find messages and calls by id and would reach the
 * wrong one. Only an edit that leaves none is made (Give duplicates new ids).
 */
export function repeatedIds(thread: Thread): Duplicate[] {
  let found = memo.get(thread);
  if (!found) {
    found = duplicateIds(thread);
    memo.set(thread, found);
  }
  return found;
}

/** Whether changing `from` into `to` is refused: `from` repeats ids (or holds data that is not base64) and `to` still does. */
export function keepsRepeats(from: Thread, to: Thread): boolean {
  return (repeatedIds(from).length > 0 && repeatedIds(to).length > 0) || (badData(from).length > 0 && badData(to).length > 0);
}

/**
 * React keys for items whose ids may repeat: the id itself, and for a repeat `id#index`, so
 * every key is distinct and a card keeps its key while its id is unique.
 */
export function distinctKeys(ids: string[]): string[] {
  const seen = new Set<string>();
  return ids.map((id, i) => {
    const key = seen.has(id) ? `${id}#${i}` : id;
    seen.add(id);
    return key;
  });
}
