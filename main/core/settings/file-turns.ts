/**
 * Changes to one settings file take turns (docs/architecture.md#providers). A change
 * reads the file, changes its own entry and writes the file back; two at once (two windows, a
 * window and `stepwise mcp import`) both read the same text, and the second write dropped what
 * the first one added, though both were answered as saved. One p-queue per file, in this
 * process, runs them one after another.
 */
import path from 'node:path';
import PQueue from 'p-queue';

const queues = new Map<string, PQueue>();

/**
 * Runs `change` (a read, change and write of `file`) after every change of that file started
 * before it in this process; resolves or rejects with it. The queue goes once idle.
 */
export function inTurn<T>(file: string, change: () => Promise<T>): Promise<T> {
  const key = path.resolve(file);
  let q = queues.get(key);
  if (!q) queues.set(key, (q = new PQueue({ concurrency: 1 })));
  const queue = q;
  const done = queue.add(() => change());
  void queue.onIdle().then(() => {
    if (queues.get(key) === queue && queue.size === 0 && queue.pending === 0) queues.delete(key);
  });
  return done;
}
