/**
 * The workspace (DESIGN §3): a folder of thread files; sub-folders are the tree and the file
 * name is the title. Plain Node, used by both shells. Every client path is relative to the
 * workspace and confined to it (see `resolveInside`). A thread file that fails to load is listed
 * with its error and never overwritten by `write`.
 */
import path from 'node:path';
import { mkdir, readdir, rename as fsRename, rm, stat } from 'node:fs/promises';
import type { WorkspaceEntry } from '../../../shared/protocol/host-api';
import { THREAD_VERSION, type Thread } from '../../../shared/thread/schema';
import { newId } from '../../../shared/thread/ids';
import { loadThreadFile, saveThreadFile, ThreadFileError } from '../threads/thread-file';
import { resolveInside, safeStem, stemMatchesTitle, uniqueName, WorkspaceError, relativeSegments } from './paths';

export { WorkspaceError } from './paths';

/** The model a new thread gets when none is given: the offline scripted model (DESIGN §8). */
export const DEFAULT_MODEL: Thread['model'] = { provider: 'scripted', id: 'scripted', params: {} };

const EXT = '.json';

interface Cached {
  mtimeMs: number;
  size: number;
  entry: WorkspaceEntry;
}

/** Thread files and folders under `rootDir` (created when missing). */
export class WorkspaceStore {
  readonly rootDir: string;
  private readonly cache = new Map<string, Cached>();
  /** Relative paths of thread files that failed to load: `write` refuses them. */
  private readonly broken = new Set<string>();

  constructor(rootDir: string) {
    this.rootDir = path.resolve(rootDir);
  }

  /** Absolute path of a workspace-relative path; refuses escapes (`..`, absolute, NUL, symlinks out). */
  async resolve(relPath: string): Promise<string> {
    await mkdir(this.rootDir, { recursive: true });
    return resolveInside(this.rootDir, relPath);
  }

  /** Every folder and thread file, sorted by path; malformed thread files carry `error`. */
  async list(): Promise<WorkspaceEntry[]> {
    await mkdir(this.rootDir, { recursive: true });
    const out: WorkspaceEntry[] = [];
    await this.walk('', out);
    return out.sort((a, b) => a.path.localeCompare(b.path));
  }

  private async walk(rel: string, out: WorkspaceEntry[]): Promise<void> {
    const dir = rel ? path.join(this.rootDir, rel) : this.rootDir;
    for (const d of await readdir(dir, { withFileTypes: true })) {
      if (d.name.startsWith('.')) continue;
      const childRel = rel ? `${rel}/${d.name}` : d.name;
      let isDir = d.isDirectory();
      let isFile = d.isFile();
      if (d.isSymbolicLink()) {
        // Follow links only when they stay inside the workspace.
        try {
          const abs = await this.resolve(childRel);
          const st = await stat(abs);
          isDir = st.isDirectory();
          isFile = st.isFile();
        } catch {
          continue;
        }
      }
      if (isDir) {
        out.push({ path: childRel, kind: 'folder', title: d.name });
        await this.walk(childRel, out);
      } else if (isFile && d.name.toLowerCase().endsWith(EXT)) {
        out.push(await this.entryOf(childRel));
      }
    }
  }

  /** The entry of one thread file, from the cache when the file has not changed. */
  private async entryOf(rel: string): Promise<WorkspaceEntry> {
    const abs = path.join(this.rootDir, rel);
    const st = await stat(abs);
    const hit = this.cache.get(rel);
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.entry;
    const stem = path.basename(rel).slice(0, -EXT.length);
    let entry: WorkspaceEntry;
    try {
      const thread = await loadThreadFile(abs, { title: stem });
      this.broken.delete(rel);
      entry = { path: rel, kind: 'thread', title: thread.title && stemMatchesTitle(stem, thread.title) ? thread.title : stem, id: thread.id };
    } catch (err) {
      if (!(err instanceof ThreadFileError)) throw err;
      this.broken.add(rel);
      entry = { path: rel, kind: 'thread', title: stem, error: err.message.split(abs).join(rel) };
    }
    this.cache.set(rel, { mtimeMs: st.mtimeMs, size: st.size, entry });
    return entry;
  }

  /** Reads a thread (importing or migrating it in memory). Throws ThreadFileError for a bad file. */
  async read(relPath: string): Promise<Thread> {
    const rel = normal(relPath);
    const abs = await this.resolve(rel);
    try {
      const thread = await loadThreadFile(abs, { title: path.basename(rel, EXT) });
      this.broken.delete(rel);
      return thread;
    } catch (err) {
      if (err instanceof ThreadFileError && err.kind !== 'io') this.broken.add(rel);
      throw err instanceof ThreadFileError ? new ThreadFileError(rel, err.kind, err.problems, err.position) : err;
    }
  }

  /** Writes a thread atomically. Refuses a file that failed to load (it would lose what is in it). */
  async write(relPath: string, thread: Thread): Promise<void> {
    const rel = normal(relPath);
    const abs = await this.resolve(rel);
    if (this.broken.has(rel)) {
      throw new WorkspaceError('malformed', `refused to overwrite ${rel}: the file did not load, and writing would lose its content; fix or delete it first`);
    }
    await mkdir(path.dirname(abs), { recursive: true });
    await saveThreadFile(abs, thread);
  }

  /** Creates a thread named after `title` in `folder` ('' = the root), from `partial` when given. */
  async create(folder: string, title: string, partial: Partial<Thread> = {}): Promise<WorkspaceEntry> {
    const dirAbs = await this.resolve(folder ?? '');
    await mkdir(dirAbs, { recursive: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'EEXIST' || err.code === 'ENOTDIR') throw new WorkspaceError('invalid', `cannot create a thread in ${normal(folder ?? '')}: it is not a folder`);
      throw err;
    });
    const thread: Thread = {
      version: THREAD_VERSION,
      id: newId(),
      title,
      model: partial.model ?? DEFAULT_MODEL,
      context: partial.context ?? { systemPrompt: '', tools: [], messages: [] },
      ...(partial.settings ? { settings: partial.settings } : {}),
      runRefs: [],
    };
    const name = await uniqueName(dirAbs, safeStem(title), EXT);
    const rel = join(folder, name);
    await this.write(rel, thread);
    return { path: rel, kind: 'thread', title, id: thread.id };
  }

  /** Creates a folder (and missing parents). Refuses one that already exists. */
  async createFolder(relPath: string): Promise<WorkspaceEntry> {
    const rel = normal(relPath);
    if (!rel) throw new WorkspaceError('invalid', 'a folder needs a name');
    const abs = await this.resolve(rel);
    if (await exists(abs)) throw new WorkspaceError('exists', `${rel} already exists`);
    await mkdir(abs, { recursive: true });
    return { path: rel, kind: 'folder', title: path.basename(rel) };
  }

  /** Renames a thread (its file, and the title inside) or a folder. */
  async rename(relPath: string, title: string): Promise<WorkspaceEntry> {
    const rel = normal(relPath);
    const abs = await this.existing(rel);
    const dirRel = parentOf(rel);
    const st = await stat(abs);
    if (st.isDirectory()) {
      const name = await uniqueName(path.dirname(abs), safeStem(title), '', path.basename(abs));
      await fsRename(abs, path.join(path.dirname(abs), name));
      this.forget(rel);
      return { path: join(dirRel, name), kind: 'folder', title: name };
    }
    const name = await uniqueName(path.dirname(abs), safeStem(title), EXT, path.basename(abs));
    if (name.toLowerCase() !== `${safeStem(title)}${EXT}`.toLowerCase()) {
      // Another thread already has this title here: two entries that look the same would confuse.
      throw new WorkspaceError('exists', `A thread titled "${title}" already exists in ${dirRel ? `"${dirRel}"` : 'the workspace root'}; choose another title.`);
    }
    const newRel = join(dirRel, name);
    if (this.broken.has(rel)) {
      // The file does not load: move it under the new name without touching its content.
      await fsRename(abs, path.join(path.dirname(abs), name));
      this.forget(rel);
      return this.entryOf(newRel);
    }
    const thread = await this.read(rel);
    // Rename first, then write: safe on case-insensitive file systems where the names may collide.
    if (newRel !== rel) await fsRename(abs, path.join(path.dirname(abs), name));
    this.forget(rel);
    await this.write(newRel, { ...thread, title });
    return { path: newRel, kind: 'thread', title, id: thread.id };
  }

  /** Moves a thread or folder into `toFolder` ('' = the root), keeping its name (made unique). */
  async move(relPath: string, toFolder: string): Promise<WorkspaceEntry> {
    const rel = normal(relPath);
    const to = normal(toFolder ?? '');
    const abs = await this.existing(rel);
    const toAbs = await this.resolve(to);
    const toStat = await stat(toAbs).catch(() => undefined);
    if (!toStat?.isDirectory()) throw new WorkspaceError('not_found', `cannot move ${rel}: folder ${to || '(workspace root)'} does not exist`);
    if (to === rel || to.startsWith(`${rel}/`)) throw new WorkspaceError('invalid', `cannot move folder ${rel} into itself`);
    const isDir = (await stat(abs)).isDirectory();
    const base = path.basename(abs);
    const stem = isDir ? base : base.slice(0, -EXT.length);
    const name = parentOf(rel) === to ? base : await uniqueName(toAbs, stem, isDir ? '' : EXT);
    await fsRename(abs, path.join(toAbs, name));
    const newRel = join(to, name);
    const wasBroken = this.broken.has(rel);
    this.forget(rel);
    if (wasBroken) this.broken.add(newRel);
    return isDir ? { path: newRel, kind: 'folder', title: name } : this.entryOf(newRel);
  }

  /** Copies a thread next to itself with a new id and the title "<title> (copy)"; runs are not copied. */
  async duplicate(relPath: string): Promise<WorkspaceEntry> {
    const rel = normal(relPath);
    const thread = await this.read(rel);
    const title = `${thread.title} (copy)`;
    const dirAbs = path.dirname(await this.resolve(rel));
    const name = await uniqueName(dirAbs, safeStem(title), EXT);
    const newRel = join(parentOf(rel), name);
    const copy: Thread = { ...thread, id: newId(), title, runRefs: [] };
    await this.write(newRel, copy);
    return { path: newRel, kind: 'thread', title, id: copy.id };
  }

  /** Deletes a thread file or a folder with everything in it. */
  async delete(relPath: string): Promise<{ ok: true }> {
    const rel = normal(relPath);
    if (!rel) throw new WorkspaceError('invalid', 'refused to delete the workspace root');
    const abs = await this.existing(rel);
    await rm(abs, { recursive: true });
    this.forget(rel);
    return { ok: true };
  }

  /**
   * Copies the example threads (`*.json` in `fromDir`) into an empty workspace, each with a fresh
   * id. Does nothing when the workspace already holds anything. Returns the created entries.
   */
  async seedExamples(fromDir: string): Promise<WorkspaceEntry[]> {
    if ((await this.list()).length > 0) return [];
    const names = (await readdir(fromDir)).filter((n) => n.toLowerCase().endsWith(EXT)).sort();
    const created: WorkspaceEntry[] = [];
    for (const n of names) {
      const thread = await loadThreadFile(path.join(fromDir, n), { title: n.slice(0, -EXT.length) });
      const name = await uniqueName(this.rootDir, safeStem(thread.title), EXT);
      const fresh: Thread = { ...thread, id: newId(), runRefs: [] };
      await this.write(name, fresh);
      created.push({ path: name, kind: 'thread', title: fresh.title, id: fresh.id });
    }
    return created;
  }

  /** Resolves a path that must exist; throws WorkspaceError 'not_found' otherwise. */
  private async existing(rel: string): Promise<string> {
    if (!rel) throw new WorkspaceError('invalid', 'this operation needs a path inside the workspace, not its root');
    const abs = await this.resolve(rel);
    if (!(await exists(abs))) throw new WorkspaceError('not_found', `${rel} does not exist`);
    return abs;
  }

  private forget(rel: string): void {
    for (const key of [...this.cache.keys()]) if (key === rel || key.startsWith(`${rel}/`)) this.cache.delete(key);
    for (const key of [...this.broken]) if (key === rel || key.startsWith(`${rel}/`)) this.broken.delete(key);
  }
}

function normal(rel: string): string {
  return relativeSegments(rel ?? '').join('/');
}

function join(folder: string, name: string): string {
  const f = normal(folder ?? '');
  return f ? `${f}/${name}` : name;
}

function parentOf(rel: string): string {
  const i = rel.lastIndexOf('/');
  return i < 0 ? '' : rel.slice(0, i);
}

async function exists(abs: string): Promise<boolean> {
  try {
    await stat(abs);
    return true;
  } catch {
    return false;
  }
}
