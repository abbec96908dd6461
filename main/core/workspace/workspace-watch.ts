/**
 * Watching the whole workspace folder for thread files and folders added, removed or renamed
 * outside Stepwise (docs/architecture.md#the-thread-document). One recursive `fs.watch` on the
 * folder (Node 20 supports it on Linux, macOS and Windows); bursts of events are debounced into
 * one `onChange`. Hidden entries and the temporary files of atomic writes are ignored. The folder
 * itself removed, or the watch failing (too many watches), never throws: the watch closes, calls
 * `onChange` once (the listing then says what is there) and tries again later, until closed.
 */
import fs from 'node:fs';

/** A running workspace watch; `close` is idempotent. */
export interface WorkspaceWatch {
  close(): void;
}

export interface WorkspaceWatchOptions {
  /** Quiet time after the last event before `onChange` runs, in ms. Default 150. */
  debounceMs?: number;
  /** Wait before watching again after the folder vanished or the watch failed, in ms. Default 1000. */
  retryMs?: number;
  /** A line for the host log (the watch failed, or watches again). */
  log?: (message: string) => void;
  /** Stands in for `fs.watch` (tests). */
  watch?: typeof fs.watch;
}

/**
 * Whether a changed name (relative to the workspace, as `fs.watch` reports it) can change the
 * workspace tree: not a hidden entry, not a temporary file of an atomic write (`x.json.<hash>`).
 * An event without a name (some platforms) counts.
 */
export function mayChangeTree(name: string | null | undefined): boolean {
  if (name == null) return true;
  const parts = name.split(/[\\/]/).filter(Boolean);
  if (parts.some((p) => p.startsWith('.'))) return false;
  const base = parts[parts.length - 1] ?? '';
  return !/\.json\.[^.]+$/i.test(base);
}

/**
 * Call `onChange` (debounced) whenever a thread file or folder under `rootDir` may have been
 * added, removed or renamed. The watch does not keep the process alive.
 */
export function watchWorkspace(rootDir: string, onChange: () => void, opts: WorkspaceWatchOptions = {}): WorkspaceWatch {
  const watchFn = opts.watch ?? fs.watch;
  const debounceMs = opts.debounceMs ?? 150;
  const retryMs = opts.retryMs ?? 1000;
  let closed = false;
  let watcher: fs.FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  let failing = false;

  const fire = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (!closed) onChange();
    }, debounceMs);
    timer.unref?.();
  };

  const stopWatcher = (): void => {
    const w = watcher;
    watcher = undefined;
    try {
      w?.close();
    } catch {
      // already closed
    }
  };

  /** The watch is gone (folder removed, watch error): report once, then try again later. */
  const lost = (why: string): void => {
    if (closed) return;
    stopWatcher();
    if (!failing) opts.log?.(`stopped watching the workspace folder: ${why}; trying again`);
    failing = true;
    fire();
    if (!retry) {
      retry = setTimeout(() => {
        retry = undefined;
        arm();
      }, retryMs);
      retry.unref?.();
    }
  };

  const arm = (): void => {
    if (closed || watcher) return;
    if (!fs.existsSync(rootDir)) return lost('the folder does not exist');
    try {
      const w = watchFn(rootDir, { recursive: true, persistent: false }, (_event, name) => {
        if (closed) return;
        if (!fs.existsSync(rootDir)) return lost('the folder was removed');
        if (mayChangeTree(name == null ? null : name.toString())) fire();
      });
      w.on('error', (err: Error) => lost(err.message));
      watcher = w;
    } catch (err) {
      return lost((err as Error).message);
    }
    if (failing) {
      failing = false;
      opts.log?.('watching the workspace folder again');
      fire(); // whatever changed while it was not watched
    }
  };

  arm();
  return {
    close: () => {
      if (closed) return;
      closed = true;
      if (timer) clearTimeout(timer);
      if (retry) clearTimeout(retry);
      timer = retry = undefined;
      stopWatcher();
    },
  };
}

/** A short signature of a workspace listing: what the tree shows (paths, kinds, titles, ids, errors). */
export function listingKey(entries: readonly { path: string; kind: string; title: string; id?: string; error?: string }[]): string {
  return JSON.stringify(entries.map((e) => [e.path, e.kind, e.title, e.id ?? '', e.error ?? '']));
}
