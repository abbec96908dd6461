/**
 * Branches (docs/architecture.md#branches-and-time-travel): a new thread holding a source
 * thread up to one point — everything but its messages as they are, its messages up to that
 * point — and `branchOf` naming the point. Runs are not copied. A thread's branches are not
 * stored on it: they are the threads whose `branchOf.threadId` names it (the workspace list
 * carries each thread's `branchOf`), so deleting, moving or renaming a branch needs no update
 * of its source.
 */
import type { BranchOf, Thread } from './schema';
import type { Message } from './messages';

/** The title of a branch of `title`, the n-th one when n > 1: "Plan (branch)", "Plan (branch 2)". */
export function branchTitle(title: string, n = 1): string {
  return `${title} (branch${n > 1 ? ` ${n}` : ''})`;
}

/** The first branch title of `title` none of `taken` has. */
export function freeBranchTitle(title: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  let n = 1;
  while (used.has(branchTitle(title, n))) n++;
  return branchTitle(title, n);
}

/**
 * The branch of `source` holding `messages` (copied) from point `at` (its `threadId` is the
 * source's id), without id and title: the workspace gives it a fresh id and the caller a title.
 */
export function branchOf(source: Thread, messages: Message[], at: Omit<BranchOf, 'threadId' | 'title'>): Pick<Thread, 'model' | 'context' | 'settings' | 'branchOf'> {
  const of: BranchOf = { threadId: source.id, title: source.title, ...at };
  return {
    model: structuredClone(source.model),
    context: { ...structuredClone(source.context), messages: structuredClone(messages) },
    ...(source.settings ? { settings: structuredClone(source.settings) } : {}),
    branchOf: of,
  };
}
