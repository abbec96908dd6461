/**
 * When the host may let an open thread go (docs/architecture.md#edits-and-undo): the store keeps a
 * thread open while a connected client has it open or a run of it is live, so every window and
 * every run's result edits the same copy; once nobody holds it, it is saved and forgotten, and
 * the next open reads the file again. The one place that decides this, for `thread.close` and
 * for a client that disconnects.
 */
import type { ThreadStore } from './thread-store';

/** Who may hold a thread open: the connected clients (by id) and the live runs. */
export interface ThreadHolders {
  clients: ReadonlyMap<unknown, { openThreads: ReadonlySet<string> }>;
  /** The live runs of a thread (the bridge's `liveRuns`). */
  runs: { liveRuns(threadId: string): readonly unknown[] };
}

/** Whether a connected client has `threadId` open, or a run of it is live. */
export function threadHeld(threadId: string, holders: ThreadHolders): boolean {
  for (const c of holders.clients.values()) if (c.openThreads.has(threadId)) return true;
  return holders.runs.liveRuns(threadId).length > 0;
}

/**
 * Save and forget `threadId` in `threads` unless it is still held ({@link threadHeld}). Returns
 * whether it was released. Call it after the client that let go has been taken out of `holders`.
 */
export async function releaseIfUnheld(threads: Pick<ThreadStore, 'release'>, threadId: string, holders: ThreadHolders): Promise<boolean> {
  if (threadHeld(threadId, holders)) return false;
  await threads.release(threadId);
  return true;
}
