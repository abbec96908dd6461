/** The thread store's record of one open thread, shared by the store and the code that follows its file. */
import fs from 'node:fs/promises';
import type { Thread } from '../../../shared/thread/schema';
import type { FileWatch } from './file-watch';
import type { EditLog } from './edit-log';

/** One open thread: the store's copy, its version, and what the store knows of its file. */
export interface OpenThread {
  file: string;
  doc: Thread;
  version: number;
  timer?: NodeJS.Timeout;
  dirty: boolean;
  saving: Promise<void>;
  /** Counts opens of the already open copy: a release that saw it change keeps the thread. */
  opens: number;
  /** The document the file holds as far as the store knows: last read or written by it. */
  disk: Thread;
  /** Why the file does not load now (it is not saved over meanwhile). */
  broken?: string;
  watch?: FileWatch;
  /** The file's stat when the store last read or wrote it: unchanged, a save need not read it first. */
  stamp?: string;
  /** Recent edits by their `editId` (a resent edit is answered, not applied again): version, on disk. */
  edits: Map<string, { version: number; durable: Promise<void> }>;
  /** Settles once the store's `onOpened` has run for this copy. */
  ready: Promise<void>;
  /** Appends each change before it is acknowledged (with `editLogDir`). */
  log?: EditLog;
  /** The last version a save wrote. */
  savedVersion: number;
  /** Why the last save failed (an error code), until one succeeds. */
  saveError?: string;
  /** The host is renaming or moving the file (ThreadStore.relocate): a move seen meanwhile is its own. */
  relocating?: boolean;
  /** Repeated ids the thread got from its file (repeat-guard.ts): an edit may bring these back (an Undo of their repair), no others. */
  knownRepeats: Set<string>;
  /**
   * Held in memory only (ThreadStore.openInMemory: an evaluation case's thread, which its batch
   * writes into its case store): never read from, written to or watched on disk.
   */
  memory?: boolean;
}

/** mtime, size and inode of `file`, or undefined when it cannot be stat'ed. */
export async function fileStamp(file: string): Promise<string | undefined> {
  try {
    const st = await fs.stat(file);
    return `${st.mtimeMs}:${st.size}:${st.ino}`;
  } catch {
    return undefined;
  }
}

