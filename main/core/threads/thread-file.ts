/**
 * Thread files on disk (docs/architecture.md#the-thread-document): load = read + parse + detect a foreign format (import) +
 * migrate + validate; save = validate + atomic write (temp file, fsync, rename) of 2-space JSON.
 * A file that fails to load is never written by this module. The pipeline on text, and
 * ThreadFileError, are shared with the agent-runner (shared/thread/thread-text.ts). A thread that
 * repeats a message id, tool call id or tool name still loads, with the repeats in `idProblems`:
 * the app opens it read-only and offers new ids (nothing in the file is lost), `stepwise
 * validate` fails on them.
 */
import writeFileAtomic from 'write-file-atomic';
import { fsErrorPhrase } from '../../../shared/fs-errors';
import { readRegularFile } from '../../../shared/regular-file.node.js';
import type { Thread } from '../../../shared/thread/schema';
import { validateThread } from '../../../shared/thread/validate';
import { parseThreadText, ThreadFileError, type LoadedThreadFile, type LoadOptions } from '../../../shared/thread/thread-text';

export { parseThreadText, ThreadFileError, type LoadedThreadFile, type LoadOptions, type ThreadFileErrorKind } from '../../../shared/thread/thread-text';

/** Reads, imports or migrates, and validates a thread file. Throws ThreadFileError. */
export async function loadThreadFile(path: string, opts: LoadOptions = {}): Promise<Thread> {
  return (await loadThreadFileDetailed(path, opts)).thread;
}

/** `loadThreadFile`, also telling the format the file was in. */
export async function loadThreadFileDetailed(path: string, opts: LoadOptions = {}): Promise<LoadedThreadFile> {
  let text: string;
  try {
    text = await readRegularFile(path); // a FIFO, socket or device is refused, never read
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'is a folder, not a thread file' : fsErrorPhrase(e);
    throw new ThreadFileError(path, 'io', [{ pointer: '', message: why }]);
  }
  return parseThreadText(path, text, opts);
}

/** Serialises a thread as the file holds it: 2-space JSON with a trailing newline. */
export function serializeThread(thread: Thread): string {
  return `${JSON.stringify(thread, null, 2)}\n`;
}

/**
 * Validates and writes a thread atomically (write-file-atomic: temp file in the same folder,
 * fsync, rename), so a crash mid-write leaves the old file whole. Throws ThreadFileError
 * (kind 'schema') without touching the file when the thread is invalid.
 */
export async function saveThreadFile(path: string, thread: Thread): Promise<void> {
  const checked = validateThread(thread);
  if (!checked.ok) throw new ThreadFileError(path, 'schema', checked.errors);
  await writeFileAtomic(path, serializeThread(thread), { encoding: 'utf8', fsync: true });
}
