/**
 * ThreadStore (docs/architecture.md#edits-and-undo): the host's copy of each open thread. Edits are Immer patches made
 * by a client at a base version; the store applies them, bumps the version, validates the
 * result, saves debounced (~300 ms) and atomically, and reports `thread_patch` to subscribers.
 * A run's result is applied as one patch with origin `run:<runId>`. Edits are refused while
 * one of the thread's runs runs.
 *
 * With `watch`, the file of each open thread is watched: a change made outside the host is taken
 * as a new version (origin `file`, one patch per changed field); a file that no longer
 * loads is reported and never saved over until it loads again. The host's own writes are told
 * apart by content (what the store last wrote or read).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { applyPatches, enablePatches, produceWithPatches, type Patch } from 'immer';
import type { Thread, RunRef } from '../../../shared/thread/schema';
import type { RunResult, ThreadPatch } from '../../../shared/protocol/envelopes';
import { describeDuplicates, duplicateIds, validateThread } from '../../../shared/thread/validate';
import { HostError } from '../errors';
import { applyPatchesStrictly, PatchPathError } from './strict-patches';
import { watchFile, type FileWatch } from './file-watch';
import { fieldPatches, sameDoc } from './external-edit';

enablePatches();

/** How the store reads and writes thread files (main/core/threads/thread-file.ts by default). */
export interface ThreadIO {
  load(file: string): Promise<Thread>;
  save(file: string, thread: Thread): Promise<void>;
}

export interface ThreadStoreOptions {
  io: ThreadIO;
  /** Save delay after the last edit. Default 300 ms. */
  debounceMs?: number;
  /** Whether one of the thread's runs is running (edits are refused then). */
  isRunning?: (threadId: string) => boolean;
  /** Every applied patch (the host fans it out to the thread's subscribers). */
  onPatch?: (patch: ThreadPatch) => void;
  log?: (message: string) => void;
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
}

interface OpenThread {
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
  /** Versions given to recent edits by their `editId` (a resent edit is answered, not applied again). */
  edits: Map<string, number>;
  /** Settles once `onOpened` has run for this copy. */
  ready: Promise<void>;
}

/** How many recent edit ids each open thread remembers. */
const EDIT_IDS_KEPT = 200;

/** mtime, size and inode of `file`, or undefined when it cannot be stat'ed. */
async function fileStamp(file: string): Promise<string | undefined> {
  try {
    const st = await fs.stat(file);
    return `${st.mtimeMs}:${st.size}:${st.ino}`;
  } catch {
    return undefined;
  }
}

/** Paths a client may not change: the id is the thread's identity, the schema version is the store's. */
const LOCKED = new Set(['id', 'version']);

export class ThreadStore {
  private readonly byId = new Map<string, OpenThread>();
  private readonly byFile = new Map<string, string>();

  constructor(private readonly opts: ThreadStoreOptions) {}

  /** Open a thread file (or return the already open copy). Throws the loader's error for a bad file. */
  async open(file: string): Promise<{ thread: Thread; version: number; file: string }> {
    const abs = path.resolve(file);
    const known = this.byFile.get(abs);
    if (known) {
      const t = this.byId.get(known)!;
      t.opens++;
      await t.ready;
      return { thread: t.doc, version: t.version, file: t.file };
    }
    const stamp = await fileStamp(abs); // before reading: a change after it is seen as a change
    const doc = await this.opts.io.load(abs);
    const again = this.byFile.get(abs); // opened concurrently
    if (again) return this.open(abs);
    const other = this.byId.get(doc.id);
    if (other) throw new HostError('duplicate_thread_id', `${abs} has the same thread id as ${other.file} (${doc.id}); duplicate one of them to give it a new id`);
    const t: OpenThread = { file: abs, doc, version: 0, dirty: false, saving: Promise.resolve(), opens: 0, disk: doc, stamp, edits: new Map(), ready: Promise.resolve() };
    this.byId.set(doc.id, t);
    this.byFile.set(abs, doc.id);
    this.startWatch(t);
    const onOpened = this.opts.onOpened;
    if (onOpened) {
      t.ready = onOpened(doc.id).catch((err: unknown) => this.opts.log?.(`${abs}: after opening: ${(err as Error).message}`));
      await t.ready;
    }
    return { thread: t.doc, version: t.version, file: t.file };
  }

  /** The open thread, or throws `not_open`. */
  get(threadId: string): { thread: Thread; version: number; file: string } {
    const t = this.entry(threadId);
    return { thread: t.doc, version: t.version, file: t.file };
  }

  has(threadId: string): boolean {
    return this.byId.has(threadId);
  }

  /** Open thread id of a file, if open. */
  idOfFile(file: string): string | undefined {
    return this.byFile.get(path.resolve(file));
  }

  private entry(threadId: string): OpenThread {
    const t = this.byId.get(threadId);
    if (!t) throw new HostError('not_open', `thread ${threadId} is not open`);
    return t;
  }

  /**
   * Apply a client's patches made at `baseVersion`. Throws `version_mismatch` when the thread
   * moved on, `thread_running` while a run runs, `invalid_edit` when the result breaks the schema
   * (naming the JSON pointer) or a patch's path does not exist (`remove`/`replace` of a missing
   * index or key, `add` past an array's end: strict-patches.ts), `duplicate_ids` when the thread
   * repeats a message or tool call id and the edit does not end that (such a thread is read-only
   * until the repeats get new ids). Nothing changes on error, the version included. An `editId`
   * seen before (a resend after a lost connection) answers its first version, applying nothing.
   */
  edit(threadId: string, baseVersion: number, patches: Patch[], origin: string, editId?: string): { version: number } {
    const t = this.entry(threadId);
    const done = editId === undefined ? undefined : t.edits.get(editId);
    if (done !== undefined) return { version: done };
    if (this.opts.isRunning?.(threadId)) throw new HostError('thread_running', `thread ${threadId} is read-only while its run is running`);
    if (baseVersion !== t.version) {
      throw new HostError('version_mismatch', `thread ${threadId} is at version ${t.version}, the edit was made at ${baseVersion}; reload the thread`);
    }
    if (!Array.isArray(patches)) throw new HostError('invalid_edit', 'patches must be an array');
    for (const [i, p] of patches.entries()) {
      if (!p || typeof p !== 'object' || !Array.isArray(p.path) || !['add', 'remove', 'replace'].includes(p.op)) {
        throw new HostError('invalid_edit', `patches[${i}] is not an Immer patch ({ op, path, value })`);
      }
      if (p.path.length > 0 && LOCKED.has(String(p.path[0])) && p.path.length === 1) {
        throw new HostError('invalid_edit', `patches[${i}] changes /${p.path[0]}, which cannot be edited`);
      }
      if (p.path.length === 0) throw new HostError('invalid_edit', `patches[${i}] replaces the whole thread; edit its fields instead`);
    }
    const r = this.commit(t, patches, origin, true, true);
    if (editId !== undefined) {
      t.edits.set(editId, r.version);
      if (t.edits.size > EDIT_IDS_KEPT) t.edits.delete(t.edits.keys().next().value!);
    }
    return r;
  }

  /** `client`: a client's edit, applied strictly and refused on a thread that repeats ids unless it ends that. */
  private commit(t: OpenThread, patches: Patch[], origin: string, save = true, client = false): { version: number } {
    let next: Thread;
    try {
      next = client ? applyPatchesStrictly(t.doc, patches) : applyPatches(t.doc, patches);
    } catch (err) {
      const why = err instanceof PatchPathError ? `${err.message}; nothing was changed` : (err as Error).message;
      throw new HostError('invalid_edit', `the patches do not apply to thread ${t.doc.id}: ${why}`);
    }
    const checked = validateThread(next);
    if (!checked.ok) {
      const first = checked.errors[0];
      throw new HostError('invalid_edit', `the edit would make thread ${t.doc.id} invalid at ${first.pointer || '/'}: ${first.message}`);
    }
    if (client) {
      const repeated = duplicateIds(t.doc);
      if (repeated.length && duplicateIds(next).length) {
        throw new HostError('duplicate_ids', `thread ${t.doc.id} repeats ids (${describeDuplicates(repeated)}); it is read-only until they get new ids (Give duplicates new ids, in the playground)`);
      }
    }
    t.doc = next;
    t.version++;
    if (save) this.scheduleSave(t);
    this.opts.onPatch?.({ v: 1, type: 'thread_patch', threadId: t.doc.id, version: t.version, patches: patches as ThreadPatch['patches'], origin });
    return { version: t.version };
  }

  /**
   * Apply what a run adds — its messages, tool outputs and the `runRefs` entry — as one patch
   * with origin `run:<runId>`, on the current version. Without `result` only the run ref is
   * recorded. Tool outputs naming a missing message or call, or a call that has a result by
   * now (typed into the file while a crashed run waited to be settled), are skipped and logged.
   */
  applyRunResult(threadId: string, result: Pick<RunResult, 'messages' | 'toolOutputs'> | undefined, runRef: RunRef): { version: number } {
    const t = this.entry(threadId);
    const [, patches] = produceWithPatches(t.doc, (draft) => {
      if (result) {
        for (const m of result.messages) draft.context.messages.push(m);
        for (const out of result.toolOutputs ?? []) {
          const msg = draft.context.messages.find((m) => m.id === out.messageId);
          const call = msg && msg.role === 'assistant' ? msg.toolCalls?.find((c) => c.id === out.toolCallId) : undefined;
          if (call?.output) this.opts.log?.(`run ${runRef.id}: tool call ${out.toolCallId} already has a result; the run's was not applied over it`);
          else if (call) call.output = out.output;
          else this.opts.log?.(`run ${runRef.id}: no tool call ${out.toolCallId} in message ${out.messageId}; its output was not applied`);
        }
      }
      const i = draft.runRefs.findIndex((r) => r.id === runRef.id);
      if (i >= 0) draft.runRefs[i] = runRef;
      else draft.runRefs.push(runRef);
    });
    return this.commit(t, patches, `run:${runRef.id}`);
  }

  /** Drop a run's `runRefs` entry (the run was deleted), origin `host`. No-op when absent. */
  removeRunRef(threadId: string, runId: string): void {
    const t = this.entry(threadId);
    const i = t.doc.runRefs.findIndex((r) => r.id === runId);
    if (i < 0) return;
    this.commit(t, [{ op: 'remove', path: ['runRefs', i] }], 'host');
  }

  private scheduleSave(t: OpenThread): void {
    t.dirty = true;
    if (t.timer) clearTimeout(t.timer);
    t.timer = setTimeout(() => {
      t.timer = undefined;
      void this.save(t);
    }, this.opts.debounceMs ?? 300);
  }

  /**
   * Write the open copy, after the saves before it. A watched file whose stat changed since the
   * store last read or wrote it is read first: a change on disk not reported yet is taken
   * (never overwritten), and a file that does not load is not written over (the edits stay in
   * memory until it loads again).
   */
  private save(t: OpenThread): Promise<void> {
    if (!t.dirty) return t.saving;
    t.dirty = false;
    t.saving = t.saving
      .then(async () => {
        if (t.watch && (t.broken || !t.stamp || (await fileStamp(t.file)) !== t.stamp)) await this.reconcile(t, true);
        if (t.broken) {
          t.dirty = true;
          this.opts.log?.(`not saving ${t.file} over a file that does not load; the edits are kept until it is fixed`);
          return;
        }
        const doc = t.doc;
        await this.opts.io.save(t.file, doc);
        t.disk = doc;
        t.stamp = await fileStamp(t.file);
      })
      .catch((err: unknown) => {
        t.dirty = true;
        this.opts.log?.(`could not save ${t.file}: ${(err as Error).message}`);
      });
    return t.saving;
  }

  /** Save every pending edit now (shutdown, close). */
  async flush(threadId?: string): Promise<void> {
    const list = threadId ? [this.entry(threadId)] : [...this.byId.values()];
    await Promise.all(
      list.map((t) => {
        if (t.timer) clearTimeout(t.timer);
        t.timer = undefined;
        return this.save(t);
      }),
    );
  }

  /**
   * Save and forget a thread (the next open reads the file again). Opened again while it was
   * being saved (a reconnecting window), it stays open: whoever opened it holds it now.
   */
  async release(threadId: string): Promise<void> {
    const t = this.byId.get(threadId);
    if (!t) return;
    const opens = t.opens;
    await this.flush(threadId);
    if (t.opens !== opens || this.byId.get(threadId) !== t) return;
    if (t.dirty) this.opts.log?.(`${t.file} was closed with edits that could not be saved`);
    this.byId.delete(threadId);
    this.byFile.delete(t.file);
    this.stopWatch(t);
  }

  /** Stop watching every open thread's file (host shutdown); they stay open. */
  unwatchAll(): void {
    for (const t of this.byId.values()) this.stopWatch(t);
  }

  /** Follow a file that moved on disk (workspace rename/move). */
  moved(threadId: string, file: string): void {
    const t = this.byId.get(threadId);
    if (!t) return;
    this.byFile.delete(t.file);
    t.file = path.resolve(file);
    this.byFile.set(t.file, threadId);
    if (t.watch) {
      this.stopWatch(t);
      this.startWatch(t);
      this.checkFile(t); // a check of the old path may have found it gone
    }
  }

  private startWatch(t: OpenThread): void {
    if (!this.opts.watch) return;
    const debounceMs = typeof this.opts.watch === 'object' ? this.opts.watch.debounceMs : undefined;
    const file = t.file;
    try {
      t.watch = watchFile(file, () => this.checkFile(t), {
        debounceMs,
        onError: (err) => {
          if (t.watch) this.opts.log?.(`stopped watching ${file}: ${err.message}`);
          t.watch = undefined;
        },
      });
    } catch (err) {
      this.opts.log?.(`cannot watch ${file} for changes made outside Stepwise: ${(err as Error).message}`);
    }
  }

  private stopWatch(t: OpenThread): void {
    const w = t.watch;
    t.watch = undefined;
    w?.close();
  }

  /** The watcher saw the file change: read it after the saves already queued. */
  private checkFile(t: OpenThread): void {
    t.saving = t.saving
      .then(() => this.reconcile(t))
      .catch((err: unknown) => this.opts.log?.(`could not read ${t.file}: ${(err as Error).message}`));
  }

  /**
   * Compare the file with what the store last read or wrote. Another content that loads as this
   * thread becomes a new version (origin `file`): the fields changed on disk replace those of the
   * open copy, whose edits not saved yet stay on top. A file that does not load marks the thread
   * broken (reported once per problem) until it loads again. `fromSave`: the save that called
   * it writes next, so no save is scheduled here.
   */
  private async reconcile(t: OpenThread, fromSave = false): Promise<void> {
    let found: Thread;
    const stamp = await fileStamp(t.file);
    try {
      found = await this.opts.io.load(t.file);
    } catch (err) {
      if (t.watch) this.setProblem(t, (err as Error).message);
      return;
    }
    if (!t.watch) return; // released meanwhile
    if (found.id !== t.doc.id) {
      this.setProblem(t, `${t.file}: /id: the thread id changed from ${t.doc.id} to ${found.id} while the thread was open; change it back, or close the thread and open the file again`);
      return;
    }
    const wasBroken = !!t.broken;
    this.setProblem(t, undefined);
    t.stamp = stamp;
    if (sameDoc(found, t.disk)) {
      // The store's own write, or no change; edits held while the file was broken go out now.
      if (wasBroken && t.dirty && !fromSave) this.scheduleSave(t);
      return;
    }
    const base = t.disk;
    t.disk = found;
    const merged = fieldPatches(base, found, t.doc);
    try {
      if (merged.length) this.commit(t, merged, 'file', false);
    } catch {
      // The open copy's unsaved edits do not fit the new file: the file wins.
      const whole = fieldPatches(t.doc, found);
      if (whole.length) this.commit(t, whole, 'file', false);
    }
    this.opts.log?.(`took the changes made to ${t.file} outside Stepwise (now version ${t.version})`);
    if (!fromSave && !sameDoc(t.doc, found)) this.scheduleSave(t);
  }

  private setProblem(t: OpenThread, problem: string | undefined): void {
    if (t.broken === problem) return;
    t.broken = problem;
    if (problem) this.opts.log?.(`${problem} (not saving over it until it is fixed)`);
    this.opts.onFileProblem?.({ threadId: t.doc.id, file: t.file, problem });
  }
}
