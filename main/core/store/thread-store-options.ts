/**
 * What a ThreadStore (thread-store.ts) is built with: how it reads and writes thread files, and
 * its options. A module of its own so the store's helpers (edit logs and their recovery, the
 * watch of outside changes) take these types without importing the store that imports them.
 */
import type { Thread } from '../../../shared/thread/schema';
import type { ThreadPatch, ThreadUpdate } from '../../../shared/protocol/envelopes';

/** How the store reads and writes thread files (main/core/threads/thread-file.ts by default). */
export interface ThreadIO {
  load(file: string): Promise<Thread>;
  save(file: string, thread: Thread): Promise<void>;
}

/** The options of a ThreadStore. */
export interface ThreadStoreOptions {
  io: ThreadIO;
  /** Save delay after the last edit. Default 300 ms. */
  debounceMs?: number;
  /** Whether one of the thread's runs is running (edits are refused then). */
  isRunning?: (threadId: string) => boolean;
  /** Every applied patch (the host fans it out to the thread's subscribers). */
  onPatch?: (patch: ThreadPatch) => void;
  /**
   * Every change of an open thread's Yjs document (docs/architecture.md#multi-window-editing),
   * for the windows that have it open; `except` is the origin (`client:<id>`) whose window made it.
   */
  onUpdate?: (update: ThreadUpdate, except?: string) => void;
  /** The host log; `level` is `error` unless said (a recovery that worked is `info`). */
  log?: (message: string, level?: 'info' | 'error') => void;
  /** Watch open threads' files for edits made outside the host; `debounceMs` default 100. */
  watch?: boolean | { debounceMs?: number };
  /**
   * An open thread's file stopped loading (`problem`: the loader's message, naming the file and
   * the line/column of a syntax error) or loads again (`problem` undefined).
   */
  onFileProblem?: (info: { threadId: string; file: string; problem?: string }) => void;
  /**
   * A file was just opened (not an already open copy): `open` resolves, also for concurrent
   * opens of the same file, once this has settled (a failure is logged). The host puts there
   * the results of runs it could not finish before it stopped.
   */
  onOpened?: (threadId: string) => Promise<void>;
  /**
   * Folder of the edit logs (`$STEPWISE_HOME/edits`). Without it an edit is on disk only
   * after the debounced save, not when `edit` resolves.
   */
  editLogDir?: string;
  /**
   * Folder of the threads' run folders (`$STEPWISE_HOME/runs`): each save writes the thread's
   * Yjs state there too (thread.ydoc, ydoc-state.ts), read at the next open. Without it the
   * document is made anew at each open.
   */
  yStateDir?: string;
}
