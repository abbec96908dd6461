/**
 * Watching one open thread file for changes made outside the host (docs/architecture.md#edits-and-undo). Node's
 * `fs.watch` on the file's folder, filtered by name: a watch on the file itself loses track
 * when an editor (or write-file-atomic) replaces the file by renaming another one over it; a
 * watch on the folder sees that rename like any write. Bursts of events are debounced.
 */
import fs from 'node:fs';
import path from 'node:path';

/** A running watch; `close` is idempotent. */
export interface FileWatch {
  close(): void;
}

export interface FileWatchOptions {
  /** Quiet time after the last event before `onChange` runs. Default 100 ms. */
  debounceMs?: number;
  /** The watch failed (folder gone, too many watches); it is closed before this is called. */
  onError?: (err: Error) => void;
}

/**
 * Call `onChange` (debounced) whenever `file` may have changed: written, replaced, created or
 * removed. The watch does not keep the process alive. Throws when the folder cannot be watched.
 */
export function watchFile(file: string, onChange: () => void, opts: FileWatchOptions = {}): FileWatch {
  const name = path.basename(file);
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const watcher = fs.watch(path.dirname(file), { persistent: false }, (_event, changed) => {
    // Some platforms do not say which entry changed: treat that as a possible change.
    if (closed || (changed != null && changed.toString() !== name)) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (!closed) onChange();
    }, opts.debounceMs ?? 100);
  });
  const close = (): void => {
    if (closed) return;
    closed = true;
    if (timer) clearTimeout(timer);
    timer = undefined;
    watcher.close();
  };
  watcher.on('error', (err) => {
    close();
    opts.onError?.(err);
  });
  return { close };
}
