/**
 * Binary data a client's edit may leave in a thread (docs/architecture.md#the-thread-document):
 * an image's, audio's, PDF's or resource's data must be base64 (shared/thread/base64.ts). A
 * thread whose file holds data that is not opens read-only in the window; the host refuses its
 * edits too (`invalid_data`, naming the first pointer), so nothing broken is saved over the file
 * or sent on. An edit that would put such data into a valid thread is refused (`invalid_edit`).
 */
import type { Thread } from '../../../shared/thread/schema';
import { dataProblems } from '../../../shared/thread/base64';
import type { ThreadProblem } from '../../../shared/thread/validate';
import { HostError } from '../errors';

/** Each part's verdict by the part object: an edit re-checks only the parts it replaced (Immer keeps the others). */
const verdicts = new WeakMap<object, string | null>();

/** The first data problem of `thread`, or undefined (cached per part). */
export function firstDataProblem(thread: Thread): ThreadProblem | undefined {
  return dataProblems(thread, 1, verdicts)[0];
}

/** Throws when an edit from `base` to `next` is refused for data that is not base64 (see the module comment). */
export function checkEditData(base: Thread, next: Thread): void {
  const after = firstDataProblem(next);
  if (!after) return;
  const before = firstDataProblem(base);
  if (before) {
    throw new HostError(
      'invalid_data',
      `thread ${base.id} is read-only: the data at ${before.pointer} ${before.message}; fix the thread file first, nothing was changed`,
    );
  }
  throw new HostError('invalid_edit', `the edit would make the data at ${after.pointer} of thread ${base.id} invalid: it ${after.message}; nothing was changed`);
}
