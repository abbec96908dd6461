/**
 * Reading a file that must be a regular file (docs/architecture.md#the-thread-document): a
 * thread, a dataset, a template's include. The workspace is anyone's folder: a FIFO named
 * `x.json` would hold a plain `readFile` forever (opening a FIFO waits for a writer), a
 * symbolic link to `/dev/zero` would read without end, and a Unix socket cannot be read at all.
 * The file is opened with O_NONBLOCK (a FIFO opens at once, no writer needed) and its type is
 * checked on the open descriptor (fstat: no window between the check and the read), so such a
 * file is refused, never read.
 */
import { constants } from 'node:fs';
import { lstat, open, stat } from 'node:fs/promises';

/** What a file that is not a regular one is, in words ("a FIFO (named pipe)"); undefined for a regular file or a folder. */
export function specialKind(st: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string | undefined {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return undefined;
}

/**
 * A file that is not a regular file: `message` says what it is, without the path (the caller
 * names it). `code` is `EFTYPE` ("inappropriate file type"), so fs-error handling takes it.
 */
export class SpecialFileError extends Error {
  readonly code = 'EFTYPE';
  constructor(readonly kind: string) {
    super(`it is ${kind}, not a regular file: it is skipped, never opened`);
    this.name = 'SpecialFileError';
  }
}

/**
 * What `file` is when it is not a regular file or a folder (following symbolic links), without
 * opening it; undefined otherwise, or when it cannot be stat'ed. For listings, which skip it with a note.
 */
export async function specialFileKind(file: string): Promise<string | undefined> {
  const st = await stat(file).catch(() => lstat(file).catch(() => undefined));
  return st ? specialKind(st) : undefined;
}

/**
 * The text of `file` (UTF-8), which must be a regular file (symbolic links followed). Throws
 * SpecialFileError for a FIFO, socket or device (a socket fails to open: ENXIO, reported as one
 * too), Node's fs errors otherwise. `maxBytes`: refuse (RangeError) a larger file before reading it.
 */
export async function readRegularFile(file: string, maxBytes?: number): Promise<string> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENXIO') {
      const kind = await specialFileKind(file);
      if (kind) throw new SpecialFileError(kind);
    }
    throw err;
  }
  try {
    const st = await handle.stat();
    const kind = specialKind(st);
    if (kind) throw new SpecialFileError(kind);
    if (st.isDirectory()) throw Object.assign(new Error('EISDIR: illegal operation on a directory'), { code: 'EISDIR', syscall: 'read' });
    if (maxBytes !== undefined && st.size > maxBytes) throw new RangeError(`the file is ${st.size} bytes; at most ${maxBytes} are read`);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
