/**
 * The workspace (docs/architecture.md#the-thread-document): a folder of thread files; sub-folders are the tree and the file
 * name is the title. Plain Node, used by both shells. Every client path is relative to the
 * workspace and confined to it (see `resolveInside`), and names on disk are matched after Unicode
 * NFC. New names follow names.ts: a thread's file name is made safe from its title, a folder name
 * that is not safe is refused. A thread file that fails to load is listed with its error and never
 * overwritten by `write`. Errors name workspace-relative paths only (see `workspaceFailure`).
 */
import path from 'node:path';
import { cp, mkdir, readdir, rename as fsRename, rm, stat } from 'node:fs/promises';
import type { WorkspaceEntry } from '../../../shared/protocol/host-api';
import { THREAD_VERSION, type Thread } from '../../../shared/thread/schema';
import { newId } from '../../../shared/thread/ids';
import { loadThreadFile, saveThreadFile, ThreadFileError } from '../threads/thread-file';
import { SpecialFileError, specialKind } from '../../../shared/regular-file.node.js';
import { resolveInside, relativeSegments } from '../../../shared/workspace/paths.node.js';
import { folderName, safeStem, THREAD_EXT as EXT, uniqueName } from './names';
import { DATASET_SUFFIX } from '../../../shared/eval/dataset';

/** The examples' folder of run records (the example batch's case runs), not copied into the workspace. */
export const EXAMPLE_RUNS_DIR = '.runs';
import { WorkspaceError, quoted, workspaceFailure } from '../../../shared/workspace/workspace-error';

/** A file name the workspace lists as a thread: `*.json`, except datasets (`*.dataset.json`, listed by the Evaluate view). */
const isThreadName = (name: string): boolean => name.toLowerCase().endsWith(EXT) && !name.toLowerCase().endsWith(DATASET_SUFFIX);

export { WorkspaceError } from '../../../shared/workspace/workspace-error';

/** The model a new thread gets when none is given: the offline scripted model (docs/architecture.md#providers). */
export const DEFAULT_MODEL: Thread['model'] = { provider: 'scripted', id: 'scripted', params: {} };

interface Cached {
  mtimeMs: number;
  size: number;
  entry: WorkspaceEntry;
}

/** A workspace path found on disk: its absolute path and its relative path as the disk spells it. */
interface Located {
  abs: string;
  rel: string;
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
    return (await this.locate(relPath)).abs;
  }

  /** Every folder and thread file, sorted by path; malformed thread files carry `error`. */
  async list(): Promise<WorkspaceEntry[]> {
    return guard('list', '', async () => {
      await mkdir(this.rootDir, { recursive: true });
      const out: WorkspaceEntry[] = [];
      await this.walk('', out);
      return out.sort((a, b) => a.path.localeCompare(b.path));
    });
  }

  private async walk(rel: string, out: WorkspaceEntry[]): Promise<void> {
    const dir = rel ? path.join(this.rootDir, rel) : this.rootDir;
    const children = await guard('list', rel, () => readdir(dir, { withFileTypes: true }));
    for (const d of children) {
      if (d.name.startsWith('.')) continue;
      const childRel = rel ? `${rel}/${d.name}` : d.name;
      let isDir = d.isDirectory();
      let isFile = d.isFile();
      let special = specialKind(d);
      if (d.isSymbolicLink()) {
        // Follow links only when they stay inside the workspace.
        try {
          const abs = await this.resolve(childRel);
          const st = await stat(abs);
          isDir = st.isDirectory();
          isFile = st.isFile();
          special = specialKind(st);
        } catch {
          continue;
        }
      }
      if (special && isThreadName(d.name)) {
        // A FIFO, socket or device named like a thread: listed with why it is skipped, never opened.
        out.push({ path: childRel, kind: 'thread', title: d.name.slice(0, -EXT.length), error: `${childRel}: ${new SpecialFileError(special).message}` });
        continue;
      }
      if (isDir) {
        out.push({ path: childRel, kind: 'folder', title: d.name });
        await this.walk(childRel, out);
      } else if (isFile && isThreadName(d.name)) {
        // Datasets (*.dataset.json) are not threads: the Evaluate view lists them.
        const entry = await this.entryOf(childRel).catch((err: unknown) => {
          // Gone since the folder was read: not listed.
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
          throw workspaceFailure(err, 'read', childRel);
        });
        if (entry) out.push(entry);
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
      // The thread's own title, the name the playground's header shows; the file name only
      // when the title is empty (a file written by hand). A rename makes both agree again.
      entry = { path: rel, kind: 'thread', title: thread.title.trim() ? thread.title : stem, id: thread.id, ...(thread.branchOf ? { branchOf: thread.branchOf } : {}) };
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
    const { abs, rel } = await this.locate(relPath);
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
    const { abs, rel } = await this.locate(relPath);
    if (this.broken.has(rel)) {
      throw new WorkspaceError('malformed', `refused to overwrite ${rel}: the file did not load, and writing would lose its content; fix or delete it first`);
    }
    await guard('save', rel, async () => {
      await mkdir(path.dirname(abs), { recursive: true });
      await saveThreadFile(abs, thread);
    });
  }

  /**
   * Creates a thread titled `title` (kept whole, in NFC) in `folder` ('' = the root; missing
   * folders are made, their names checked by `folderName`), from `partial` when given. The file
   * is `safeStem(title).json`, numbered ` 2`, ` 3`… when that name is taken.
   */
  async create(folder: string, title: string, partial: Partial<Thread> = {}): Promise<WorkspaceEntry> {
    const dir = await this.locate(folder ?? '');
    title = String(title).normalize('NFC');
    return guard('create a thread in', dir.rel, async () => {
      await this.makeFolders(dir);
      const thread: Thread = {
        version: THREAD_VERSION,
        id: newId(),
        title,
        model: partial.model ?? DEFAULT_MODEL,
        context: partial.context ?? { systemPrompt: '', tools: [], messages: [] },
        ...(partial.settings ? { settings: partial.settings } : {}),
        runRefs: [],
        ...(partial.branchOf ? { branchOf: partial.branchOf } : {}),
      };
      const rel = join(dir.rel, await uniqueName(dir.abs, safeStem(title), EXT));
      await this.write(rel, thread);
      return { path: rel, kind: 'thread', title, id: thread.id, ...(thread.branchOf ? { branchOf: thread.branchOf } : {}) };
    });
  }

  /** Writes a whole thread (an imported one: its id, runRefs and evaluations kept) as a new file in `folder`, named after its title. */
  async createWhole(folder: string, thread: Thread): Promise<WorkspaceEntry> {
    const dir = await this.locate(folder ?? '');
    const title = thread.title.normalize('NFC');
    return guard('create a thread in', dir.rel, async () => {
      await this.makeFolders(dir);
      const rel = join(dir.rel, await uniqueName(dir.abs, safeStem(title), EXT));
      await this.write(rel, { ...thread, title });
      return { path: rel, kind: 'thread', title, id: thread.id };
    });
  }

  /**
   * Creates a folder (and missing parents). Each new folder name is typed by the user and shown
   * as is, so one that is not safe (names.ts: device names, characters Windows refuses, a
   * trailing dot or space, over 255 bytes…) is refused, not renamed. Refuses a folder that
   * already exists, also under another Unicode normalisation of its name.
   */
  async createFolder(relPath: string): Promise<WorkspaceEntry> {
    const dir = await this.locate(relPath);
    if (!dir.rel) throw new WorkspaceError('invalid', 'a folder needs a name');
    return guard('create the folder', dir.rel, async () => {
      if (await exists(dir.abs)) throw new WorkspaceError('exists', `${dir.rel} already exists`);
      await this.makeFolders(dir);
      return { path: dir.rel, kind: 'folder', title: path.basename(dir.abs) };
    });
  }

  /**
   * Renames a thread (its file, and the title inside) or a folder. A thread's file becomes
   * `safeStem(title).json`; refused when another entry of the folder has that name. A folder
   * takes `title` itself as its name: refused when `folderName` refuses it or the name is taken
   * (compared after NFC, ignoring case: a case change is fine).
   */
  async rename(relPath: string, title: string): Promise<WorkspaceEntry> {
    const { abs, rel } = await this.existing(relPath);
    title = String(title).normalize('NFC');
    return guard('rename', rel, async () => {
      const dirRel = parentOf(rel);
      const where = dirRel ? quoted(dirRel) : 'the workspace root';
      if ((await stat(abs)).isDirectory()) {
        const name = folderName(title);
        if ((await uniqueName(path.dirname(abs), name, '', path.basename(abs))) !== name) {
          throw new WorkspaceError('exists', `Something named ${quoted(name)} already exists in ${where}; choose another name.`);
        }
        await fsRename(abs, path.join(path.dirname(abs), name));
        this.forget(rel);
        return { path: join(dirRel, name), kind: 'folder', title: name };
      }
      const stem = safeStem(title);
      const name = await uniqueName(path.dirname(abs), stem, EXT, path.basename(abs));
      if (name !== `${stem}${EXT}`) {
        // Another thread already has this title here: two entries that look the same would confuse.
        throw new WorkspaceError('exists', `A thread titled ${quoted(title)} already exists in ${where}; choose another title.`);
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
    });
  }

  /** Moves a thread or folder into `toFolder` ('' = the root), keeping its name (made unique). */
  async move(relPath: string, toFolder: string): Promise<WorkspaceEntry> {
    const { abs, rel } = await this.existing(relPath);
    const { abs: toAbs, rel: to } = await this.locate(toFolder ?? '');
    return guard('move', rel, async () => {
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
    });
  }

  /** Copies a thread next to itself with a new id and the title "<title> (copy)"; runs are not copied. */
  async duplicate(relPath: string): Promise<WorkspaceEntry> {
    const { abs, rel } = await this.locate(relPath);
    const thread = await this.read(rel);
    const title = `${thread.title} (copy)`.normalize('NFC');
    return guard('duplicate', rel, async () => {
      const newRel = join(parentOf(rel), await uniqueName(path.dirname(abs), safeStem(title), EXT));
      const copy: Thread = { ...thread, id: newId(), title, runRefs: [] };
      await this.write(newRel, copy);
      return { path: newRel, kind: 'thread', title, id: copy.id };
    });
  }

  /** Deletes a thread file or a folder with everything in it. */
  async delete(relPath: string): Promise<{ ok: true }> {
    if (!normal(relPath)) throw new WorkspaceError('invalid', 'refused to delete the workspace root');
    const { abs, rel } = await this.existing(relPath);
    await guard('delete', rel, () => rm(abs, { recursive: true }));
    this.forget(rel);
    return { ok: true };
  }

  /**
   * Copies the example threads (`*.json` in `fromDir`) into an empty workspace, each with a fresh
   * id, and the example projects (its sub-folders, such as `fix-a-test`, the working directory
   * of "Fix a failing test") as they are. Does nothing when the workspace already holds
   * anything. Returns the created thread entries.
   */
  async seedExamples(fromDir: string): Promise<WorkspaceEntry[]> {
    if ((await this.list()).length > 0) return [];
    const all = await readdir(fromDir, { withFileTypes: true });
    // `.runs` holds the example batch's run records, which go to the home's runs/ (seedExampleRuns).
    for (const d of all.filter((e) => e.isDirectory() && e.name !== EXAMPLE_RUNS_DIR)) {
      await cp(path.join(fromDir, d.name), path.join(this.rootDir, d.name), { recursive: true, force: false, errorOnExist: false });
    }
    const names = all.filter((e) => e.isFile() && e.name.toLowerCase().endsWith(EXT)).map((e) => e.name).sort();
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

  /**
   * The absolute path of `relPath` and its relative path as spelled on disk (see `resolveInside`:
   * confined to the workspace, names matched after NFC). Creates the workspace folder when missing.
   */
  private async locate(relPath: string): Promise<Located> {
    const rel = normal(relPath);
    const abs = await guard('look up', rel, async () => {
      await mkdir(this.rootDir, { recursive: true });
      return resolveInside(this.rootDir, rel);
    });
    return { abs, rel: path.relative(this.rootDir, abs).split(path.sep).join('/') };
  }

  /** `locate`, for a path that must exist; throws WorkspaceError 'not_found' otherwise. */
  private async existing(relPath: string): Promise<Located> {
    if (!normal(relPath)) throw new WorkspaceError('invalid', 'this operation needs a path inside the workspace, not its root');
    const found = await this.locate(relPath);
    if (!(await exists(found.abs))) throw new WorkspaceError('not_found', `${found.rel} does not exist`);
    return found;
  }

  /** Makes the folder `dir` and its missing parents, refusing a new name `folderName` refuses. */
  private async makeFolders(dir: Located): Promise<void> {
    let abs = this.rootDir;
    for (const name of dir.rel ? dir.rel.split('/') : []) {
      abs = path.join(abs, name);
      if (!(await exists(abs))) folderName(name);
    }
    await mkdir(dir.abs, { recursive: true });
  }

  private forget(rel: string): void {
    for (const key of [...this.cache.keys()]) if (key === rel || key.startsWith(`${rel}/`)) this.cache.delete(key);
    for (const key of [...this.broken]) if (key === rel || key.startsWith(`${rel}/`)) this.broken.delete(key);
  }
}

/** Runs `op`, turning a file-system error into a WorkspaceError naming `rel` (see `workspaceFailure`). */
async function guard<T>(action: string, rel: string, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    throw workspaceFailure(err, action, rel);
  }
}

function normal(rel: string): string {
  return relativeSegments(rel ?? '').join('/');
}

function join(folder: string, name: string): string {
  return folder ? `${folder}/${name}` : name;
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
