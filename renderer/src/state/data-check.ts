/**
 * Which image, audio, PDF and resource data of a thread is not base64 (shared/thread/base64.ts),
 * as the renderer asks on every render: such a thread is read-only (docs/architecture.md#the-thread-document).
 * Data under {@link LARGE} characters is checked at once. Larger data (an image of a few hundred
 * KB or more) is checked in a task of its own after the render that first asked, one part per
 * task: scanning five 1 MiB images took 15–40 ms of the task that opens a thread (bench:
 * `yarn bench messages`, the 1,000-message open). Until its check has run a part counts as
 * valid; the host refuses edits and runs of a thread whose data is not (main/core/store/data-guard.ts),
 * so nothing broken is saved or sent meanwhile, and {@link useBadData} re-renders when a check
 * finds a problem. Verdicts are kept by part object: an edit re-checks only the parts it replaced.
 */
import { useSyncExternalStore } from 'react';
import type { Thread } from '../../../shared/thread/schema';
import type { ThreadProblem } from '../../../shared/thread/validate';
import { base64Problem, dataProblems, type VerdictCache } from '../../../shared/thread/base64';

/** Characters of base64 from which a part is checked in a task of its own (48 KiB of data). */
export const LARGE = 64 * 1024;

const verdicts = new WeakMap<object, string | null>();
/** Large parts waiting for their check, in the order first asked. */
const queue: { part: object; text: string }[] = [];
const queued = new WeakSet<object>();
/** Bumped when a deferred check finds a problem: memos made before it are stale. */
let found = 0;
const listeners = new Set<() => void>();
let scheduled = false;

function schedule(): void {
  if (scheduled || !queue.length) return;
  scheduled = true;
  setTimeout(() => {
    scheduled = false;
    const next = queue.shift();
    if (next) {
      const problem = base64Problem(next.text) ?? null;
      verdicts.set(next.part, problem);
      if (problem) {
        found++;
        for (const l of [...listeners]) l();
      }
    }
    schedule();
  }, 0);
}

/** Set while a computation meets a part whose check is still to come. */
let sawPending = false;

const cache: VerdictCache = {
  get(part, text) {
    const v = verdicts.get(part);
    if (v !== undefined || text.length < LARGE) return v;
    sawPending = true;
    if (!queued.has(part)) {
      queued.add(part);
      queue.push({ part, text });
      schedule();
    }
    return null; // counted as valid until checked
  },
  set: (part, verdict) => void verdicts.set(part, verdict),
};

const memo = new WeakMap<Thread, { problems: ThreadProblem[]; pending: boolean; found: number }>();

/**
 * The data problems of `thread` known now, one per part, at most 50 (large parts not checked yet
 * count as valid: see the module comment). The same array while nothing new is known.
 */
export function badData(thread: Thread): ThreadProblem[] {
  const m = memo.get(thread);
  if (m && (!m.pending || m.found === found)) return m.problems;
  sawPending = false;
  const problems = dataProblems(thread, 50, cache);
  const same = m && m.problems.length === problems.length && m.problems.every((p, i) => p.pointer === problems[i].pointer && p.message === problems[i].message);
  memo.set(thread, { problems: same ? m.problems : problems, pending: sawPending, found });
  return same ? m.problems : problems;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const NONE: ThreadProblem[] = [];

/** {@link badData} of `thread` (none without one) in a component, which re-renders when a deferred check finds a problem. */
export function useBadData(thread: Thread | null | undefined): ThreadProblem[] {
  return useSyncExternalStore(subscribe, () => (thread ? badData(thread) : NONE));
}
