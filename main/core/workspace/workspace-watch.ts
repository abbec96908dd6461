/**
 * Watching the whole workspace folder for thread files and folders added, removed or renamed
 * outside Stepwise (docs/architecture.md#the-thread-document): one `fs.watch` per folder; bursts
 * of events are debounced into one `onChange`. Hidden entries and the temporary files of atomic writes are ignored. The folder
 * itself removed, or the watch failing (too many watches), never throws: the watch closes, calls
 * `onChange` once (the listing then says what is there) and tries again later, until closed.
 */
import fs from 'node:fs';
import path from 'node:path';

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

/** Most folders watched (one watch each); deeper or further ones are seen when listed. */
const MAX_FOLDERS = 2000;

/** Workspace-relative paths of the visible folders under `rootDir` ('' = the root), at most MAX_FOLDERS. */
function foldersUnder(rootDir: string): string[] {
  const out: string[] = [''];
  for (let i = 0; i < out.length && out.length < MAX_FOLDERS; i++) {
    let children: fs.Dirent[];
    try {
      children = fs.readdirSync(out[i] ? path.join(rootDir, out[i]) : rootDir, { withFileTypes: true });
    } catch {
      continue; // gone meanwhile, or unreadable: the listing reports it
    }
    for (const d of children) {
      if (d.isDirectory() && !d.name.startsWith('.') && out.length < MAX_FOLDERS) out.push(out[i] ? `${out[i]}/${d.name}` : d.name);
    }
  }
  return out;
}

/**
 * Call `onChange` (debounced) whenever a thread file or folder under `rootDir` may have been
 * added, removed or renamed. One `fs.watch` per folder, not `recursive`: Node 20's recursive watch
 * on Linux follows files by inode and misses a file removed after an atomic save replaced it; a
 * folder's own watch sees every entry created, removed or renamed in it. Folders made or removed
 * are watched or dropped after each burst. The watches do not keep the process alive.
 */
export function watchWorkspace(rootDir: string, onChange: () => void, opts: WorkspaceWatchOptions = {}): WorkspaceWatch {
  const watchFn = opts.watch ?? fs.watch;
  const debounceMs = opts.debounceMs ?? 150;
  const retryMs = opts.retryMs ?? 1000;
  let closed = false;
  const watchers = new Map<string, fs.FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  let failing = false;

  const fire = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (closed) return;
      sync();
      onChange();
    }, debounceMs);
    timer.unref?.();
  };

  const drop = (rel: string): void => {
    const w = watchers.get(rel);
    watchers.delete(rel);
    try {
      w?.close();
    } catch {
      // already closed
    }
  };

  /** The watch is gone (folder removed, watch error): report once, then try again later. */
  const lost = (why: string): void => {
    if (closed) return;
    for (const rel of [...watchers.keys()]) drop(rel);
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

  /** Watch one folder ('' = the root). */
  const watchFolder = (rel: string): void => {
    const dir = rel ? path.join(rootDir, rel) : rootDir;
    const w = watchFn(dir, { persistent: false }, (_event, name) => {
      if (closed) return;
      if (!rel && !fs.existsSync(rootDir)) return lost('the folder was removed');
      const changed = name == null ? null : rel ? `${rel}/${name.toString()}` : name.toString();
      if (mayChangeTree(changed)) fire();
    });
    w.on('error', (err: Error) => {
      if (!rel) return lost(err.message);
      drop(rel); // a sub-folder removed: the next burst's sync forgets it or watches it again
      fire();
    });
    watchers.set(rel, w);
  };

  /** Watch the folders there are now; drop the watches of folders gone. */
  const sync = (): void => {
    if (closed || !watchers.has('')) return;
    const now = new Set(foldersUnder(rootDir));
    for (const rel of [...watchers.keys()]) if (!now.has(rel)) drop(rel);
    for (const rel of now) {
      if (watchers.has(rel)) continue;
      try {
        watchFolder(rel);
      } catch {
        // removed meanwhile, or out of watches: its changes show at the next listing
      }
    }
  };

  const arm = (): void => {
    if (closed || watchers.has('')) return;
    if (!fs.existsSync(rootDir)) return lost('the folder does not exist');
    try {
      watchFolder('');
    } catch (err) {
      return lost((err as Error).message);
    }
    sync();
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
      for (const rel of [...watchers.keys()]) drop(rel);
    },
  };
}

/** A short signature of a workspace listing: what the tree shows (paths, kinds, titles, ids, errors). */
export function listingKey(entries: readonly { path: string; kind: string; title: string; id?: string; error?: string }[]): string {
  return JSON.stringify(entries.map((e) => [e.path, e.kind, e.title, e.id ?? '', e.error ?? '']));
}
