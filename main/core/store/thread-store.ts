/**
 * ThreadStore (docs/architecture.md#edits-and-undo): the host's copy of each open thread. Edits are Immer patches made
 * by a client at a base version; the store applies them, bumps the version, validates the
 * result, saves debounced (~300 ms) and atomically, and reports `thread_patch` to subscribers.
 * A run's result is applied as one patch with origin `run:<runId>`. Edits are refused while
 * one of the thread's runs runs.
 *
 * With `editLogDir`, every change is also appended to the thread's edit log (edit-log.ts) and
 * `edit` resolves only once that append is on disk, so an acknowledged edit survives a crash;
 * logs left by a host that stopped are replayed by `recover` (at start) and `open`.
 *
 * With `watch`, the file of each open thread is watched (outside-changes.ts): a change made
 * outside the host is taken as a new version (origin `file`, one patch per changed field); a
 * file that no longer loads is reported and never saved over until it loads again. The host's
 * own writes are told apart by content (what the store last wrote or read).
 */
import path from 'node:path';
import { applyPatches, enablePatches, produceWithPatches, type Patch } from 'immer';
import type { Thread, RunRef } from '../../../shared/thread/schema';
import type { RunResult, ThreadPatch } from '../../../shared/protocol/envelopes';
import { describeDuplicates, duplicateIds, validateThread } from '../../../shared/thread/validate';
import { createdRepeats, repeatKeys } from './repeat-guard';
import { checkEditData } from './data-guard';
import { HostError } from '../errors';
import { applyPatchesStrictly, PatchPathError } from './strict-patches';
import { docHash, type EditLog } from './edit-log';
import type { Recovery } from './edit-recovery';
import { EditLogs } from './edit-logs';
import { fileStamp, type OpenThread } from './open-thread';
import { OutsideChanges } from './outside-changes';
import { ThreadYjs } from './thread-yjs';
import type { ThreadStoreOptions } from './thread-store-options';

export type { ThreadIO, ThreadStoreOptions } from './thread-store-options';

enablePatches();

/** How many recent edit ids each open thread remembers. */
const EDIT_IDS_KEPT = 200;

/** Paths a client may not change: the id is the thread's identity, the schema version is the store's. */
const LOCKED = new Set(['id', 'version']);

export class ThreadStore {
  private readonly byId = new Map<string, OpenThread>();
  private readonly byFile = new Map<string, string>();
  private readonly opening = new Map<string, Promise<void>>();
  private readonly logs?: EditLogs;

  private readonly outside: OutsideChanges;
  private readonly yjs: ThreadYjs;

  constructor(private readonly opts: ThreadStoreOptions) {
    this.yjs = new ThreadYjs(opts, { commit: (t, patches, origin) => this.commit(t, patches, origin, true, true, undefined, true), onDisk: (t, r) => this.onDisk(t, r) });
    if (opts.editLogDir) this.logs = new EditLogs(opts.editLogDir, opts.io, opts.log);
    this.outside = new OutsideChanges(opts, { commit: (t, patches, origin) => void this.commit(t, patches, origin, false), scheduleSave: (t) => this.scheduleSave(t) });
  }

  /** Replay the edit logs a stopped host left (once, at start, before any open): edit-recovery.ts. */
  recover(): Promise<Recovery[]> {
    return this.logs?.recoverAll() ?? Promise.resolve([]);
  }

  /** Why edits of `threadId` from before a crash were not applied (for a client opening it). */
  recoveryNotes(threadId: string): string[] {
    return this.logs?.notesOf(threadId) ?? [];
  }

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
    let loading = this.opening.get(abs); // opened concurrently: one load (and one log replay)
    if (!loading) {
      loading = this.load(abs).finally(() => this.opening.delete(abs));
      this.opening.set(abs, loading);
    }
    await loading;
    return this.open(abs);
  }

  /**
   * Holds `thread` as open at `file` without touching the disk: no read, no save (edits and a
   * run's result stay in memory), no watch, no edit log; {@link release} forgets it. For an
   * evaluation case's thread, which its batch keeps in its case store (docs/architecture.md#evaluation).
   * Throws `duplicate_thread_id` when a thread with its id is open, and when `file` is open.
   */
  openInMemory(file: string, thread: Thread): { thread: Thread; version: number; file: string } {
    const abs = path.resolve(file);
    const other = this.byId.get(thread.id) ?? (this.byFile.has(abs) ? this.byId.get(this.byFile.get(abs)!) : undefined);
    if (other) throw new HostError('duplicate_thread_id', `${abs}: thread ${thread.id} is open already (${other.file})`);
    const t: OpenThread = { file: abs, doc: thread, version: 0, dirty: false, saving: Promise.resolve(), opens: 1, disk: thread, edits: new Map(), savedVersion: 0, ready: Promise.resolve(), memory: true, knownRepeats: new Set(repeatKeys(thread)) };
    this.byId.set(thread.id, t);
    this.byFile.set(abs, thread.id);
    return { thread: t.doc, version: 0, file: abs };
  }

  private async load(abs: string): Promise<void> {
    let stamp = await fileStamp(abs); // before reading: a change after it is seen as a change
    let doc = await this.opts.io.load(abs);
    const other = this.byId.get(doc.id);
    if (other) throw new HostError('duplicate_thread_id', `${abs} has the same thread id as ${other.file} (${doc.id}); duplicate one of them to give it a new id`);
    const knownRepeats = repeatKeys(doc); // as the file has them, before its edit log is replayed
    const edits: OpenThread['edits'] = new Map();
    let log: EditLog | undefined;
    if (this.logs) {
      const r = await this.logs.open(abs, doc, stamp);
      ({ doc, log, stamp } = r);
      for (const id of r.editIds) edits.set(id, { version: 0, durable: Promise.resolve() }); // in the file now
    }
    const t: OpenThread = { file: abs, doc, version: 0, dirty: false, saving: Promise.resolve(), opens: 0, disk: doc, stamp, edits, log, savedVersion: 0, ready: Promise.resolve(), knownRepeats: new Set([...knownRepeats, ...repeatKeys(doc)]) };
    await this.yjs.load(t);
    this.byId.set(doc.id, t);
    this.byFile.set(abs, doc.id);
    this.outside.start(t);
    const onOpened = this.opts.onOpened;
    if (onOpened) {
      t.ready = onOpened(doc.id).catch((err: unknown) => this.opts.log?.(`${abs}: after opening: ${(err as Error).message}`));
      await t.ready;
    }
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
   * until the repeats get new ids), `invalid_data` when the thread holds image, audio or document
   * data that is not base64 (read-only, naming the pointer: data-guard.ts). Nothing changes on error, the version included. An `editId`
   * seen before (a resend after a lost connection) answers its first version, applying nothing.
   * The edit is applied (and broadcast) at once; the promise resolves when it is on disk (edit
   * log appended, or else the thread saved), and rejects `not_saved` when neither could be written.
   */
  async edit(threadId: string, baseVersion: number, patches: Patch[], origin: string, editId?: string): Promise<{ version: number }> {
    const t = this.entry(threadId);
    const done = editId === undefined ? undefined : t.edits.get(editId);
    if (done !== undefined) {
      await done.durable;
      return { version: done.version };
    }
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
    const r = this.commit(t, patches, origin, true, true, editId);
    const durable = this.onDisk(t, r);
    if (editId !== undefined) {
      t.edits.set(editId, { version: r.version, durable });
      if (t.edits.size > EDIT_IDS_KEPT) t.edits.delete(t.edits.keys().next().value!);
    }
    await durable;
    return { version: r.version };
  }

  /**
   * Join the Yjs document of an open thread (thread-yjs.ts; made on first use): the update a
   * document at state vector `sv` (empty: none) lacks, the host's state vector, the document's
   * id and the thread's version.
   */
  sync(threadId: string, sv: Uint8Array): { update: Uint8Array; stateVector: Uint8Array; docId: string; version: number } {
    return this.yjs.sync(this.entry(threadId), sv);
  }

  /**
   * Apply a window's Yjs update (made on document `docId`), origin `client:<id>`: its changes
   * become the next version, checked, logged and saved as an edit by patches is, and the promise
   * resolves once they are on disk. Refused — and reverted in every window by a host
   * transaction — while a run runs (`read_only`), when the thread would be invalid or repeat
   * ids (`invalid_edit`, `duplicate_ids`), on a thread holding data that is not base64
   * (`invalid_data`), or for bytes that are not an update of the document
   * (`invalid_edit`); `stale_doc` when it was made on another document (the host restarted, the
   * thread was closed and opened again): the window syncs afresh.
   */
  update(threadId: string, docId: string, bytes: Uint8Array, origin: string): Promise<{ version: number }> {
    return this.yjs.update(this.entry(threadId), docId, bytes, origin);
  }

  /** Resolves when version `r.version` is on disk: its log append flushed, or else a save of it done. */
  private async onDisk(t: OpenThread, r: { version: number; logged: Promise<void> }): Promise<void> {
    try {
      await r.logged;
    } catch (err) {
      this.opts.log?.(`could not append to the edit log of ${t.file} (${(err as Error).message}); saving the thread instead`);
      await this.flush(t.doc.id).catch(() => {});
      if (t.savedVersion < r.version) {
        const why = `edit log: ${(err as NodeJS.ErrnoException).code ?? 'error'}; save: ${t.saveError ?? 'not done'}`;
        throw new HostError('not_saved', `edit ${r.version} of thread ${t.doc.id} is applied but could not be written to disk (${why}); Stepwise keeps it and saves it again with the next edit`);
      }
    }
  }

  /**
   * Apply `patches` as the next version. `save`: a change to save and log (not one taken from
   * the file). `client`: a client's edit, applied strictly and refused on a thread that repeats
   * ids unless it ends that. `logged` resolves when the change is in the edit log (at once
   * without one).
   */
  private commit(t: OpenThread, patches: Patch[], origin: string, save = true, client = false, editId?: string, fromY = false): { version: number; logged: Promise<void> } {
    let next: Thread;
    try {
      next = client && !fromY ? applyPatchesStrictly(t.doc, patches) : applyPatches(t.doc, patches);
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
      const created = createdRepeats(t.doc, next, t.knownRepeats);
      if (created.length) throw new HostError('duplicate_ids', `the edit would repeat ${describeDuplicates(created)} in thread ${t.doc.id}; ids must be unique in a thread, so nothing was changed`);
      checkEditData(t.doc, next);
    } else {
      for (const k of repeatKeys(next)) t.knownRepeats.add(k);
    }
    const before = t.doc;
    t.doc = next;
    t.version++;
    if (!fromY) t.y?.mirror(patches, origin, next, before);
    let logged = Promise.resolve();
    if (save) {
      this.scheduleSave(t);
      if (t.log) logged = t.log.append({ version: t.version, origin, editId, patches }, () => ({ version: t.version - 1, stamp: t.stamp ?? null }));
    }
    this.opts.onPatch?.({ v: 1, type: 'thread_patch', threadId: t.doc.id, version: t.version, patches: patches as ThreadPatch['patches'], origin });
    return { version: t.version, logged };
  }

  /**
   * Apply what a run adds — its messages, tool outputs and the `runRefs` entry — as one patch
   * with origin `run:<runId>`, on the current version. Without `result` only the run ref is
   * recorded. Tool outputs naming a missing message or call, or a call that has a result by
   * now (typed into the file while a crashed run waited to be settled), are skipped and logged.
   * With `replaceAfter` (a time-travel run: the ids of the messages it started from), the
   * messages after those are dropped first, in the same patch; throws when the thread no longer
   * starts with them.
   */
  applyRunResult(threadId: string, result: Pick<RunResult, 'messages' | 'toolOutputs'> | undefined, runRef: RunRef, replaceAfter?: string[]): { version: number } {
    const t = this.entry(threadId);
    const [, patches] = produceWithPatches(t.doc, (draft) => {
      if (result) {
        if (replaceAfter) {
          // A time-travel run: the messages after the ones it started from are replaced by its own.
          const ids = draft.context.messages.map((m) => m.id);
          if (replaceAfter.some((id, i) => ids[i] !== id)) throw new Error('the thread no longer starts with the messages the run started from');
          draft.context.messages.splice(replaceAfter.length);
        }
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
    const r = this.commit(t, patches, `run:${runRef.id}`);
    r.logged.catch((err: Error) => this.opts.log?.(`could not append run ${runRef.id}'s result to the edit log of ${t.file}: ${err.message}`));
    return { version: r.version };
  }

  /**
   * Drop a run's `runRefs` entry (the run was deleted), origin `host`; resolves when that is on
   * disk (as {@link edit}: edit log, or else a save; `not_saved` when neither). No-op when absent.
   */
  async removeRunRef(threadId: string, runId: string): Promise<void> {
    const t = this.entry(threadId);
    const i = t.doc.runRefs.findIndex((r) => r.id === runId);
    if (i < 0) return;
    await this.onDisk(t, this.commit(t, [{ op: 'remove', path: ['runRefs', i] }], 'host'));
  }

  private scheduleSave(t: OpenThread): void {
    if (t.memory) return;
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
    if (t.memory) t.dirty = false;
    if (!t.dirty) return t.saving;
    t.saving = t.saving.then(() => this.write(t));
    return t.saving;
  }

  /** The body of a save ({@link save}), run in turn on `t.saving`: writes the open copy when it has changes not saved. Never rejects. */
  private write(t: OpenThread): Promise<void> {
    if (!t.dirty) return Promise.resolve();
    t.dirty = false;
    return Promise.resolve()
      .then(async () => {
        if (t.watch && (t.broken || !t.stamp || (await fileStamp(t.file)) !== t.stamp)) await this.outside.reconcile(t, true);
        if (t.broken) {
          t.dirty = true;
          this.opts.log?.(`not saving ${t.file} over a file that does not load; the edits are kept until it is fixed`);
          return;
        }
        const doc = t.doc;
        const version = t.version;
        const yState = this.yjs.snapshot(t, doc);
        // A marker first: a crash after the save but before the log is updated must not replay it twice.
        await t.log?.saving(version, () => docHash(doc)).catch(() => {});
        await this.opts.io.save(t.file, doc);
        t.disk = doc;
        t.savedVersion = version;
        t.saveError = undefined;
        t.stamp = await fileStamp(t.file);
        await yState?.();
        await t.log?.saved(version, t.stamp).catch((err: Error) => this.opts.log?.(`could not trim the edit log of ${t.file}: ${err.message}`));
      })
      .catch((err: unknown) => {
        t.dirty = true;
        t.saveError = (err as NodeJS.ErrnoException).code ?? (err as Error).name; // told to clients: no path
        this.opts.log?.(`could not save ${t.file}: ${(err as Error).message}`);
      });
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
    if (t.dirty) this.opts.log?.(`${t.file} was closed with edits that could not be saved (its edit log keeps them)`);
    this.byId.delete(threadId);
    this.byFile.delete(t.file);
    this.outside.stop(t);
    t.y?.destroy();
    await t.log?.close().catch(() => {});
  }

  /** Stop watching every open thread's file and close the edit logs (host shutdown); they stay open. */
  async unwatchAll(): Promise<void> {
    for (const t of this.byId.values()) this.outside.stop(t);
    await Promise.all([...this.byId.values()].map((t) => t.log?.close().catch(() => {})));
  }

  /**
   * Rename or move an open thread's file as the host (workspace rename/move): `move` does it and
   * returns the new path (`file`) with what the caller wants back (`value`). It runs after the
   * save under way and before any later one (edits not saved yet stay so, and are saved under
   * the new name), with the file not watched: the old name going away is not a file gone, and
   * what `move` wrote (the title of a renamed thread) is read back as the host's change, origin
   * `host`, not as a change made outside. Throws what `move` throws (nothing moved then).
   * `rewrite`: how `move` changes the document the file holds (a rename: its title). The edit
   * log records the document the file will then hold before `move` runs (EditLog.rewriting), so
   * a host killed between the rewrite and the log's update still replays the edits not saved
   * yet onto the renamed file, their edit ids with them (a resend is answered, not applied twice).
   */
  async relocate<T>(threadId: string, move: () => Promise<{ file: string; value: T }>, rewrite?: (onDisk: Thread) => Thread): Promise<T> {
    const t = this.entry(threadId);
    const watched = !!t.watch;
    const moving = t.saving.then(async () => {
      this.outside.stop(t);
      t.relocating = true;
      let moved: { file: string; value: T };
      try {
        if (rewrite && t.log) await t.log.rewriting(() => docHash(rewrite(t.disk))).catch(() => {});
        moved = await move();
        this.repoint(t, moved.file);
      } finally {
        t.relocating = false;
        if (watched) this.outside.start(t);
      }
      await t.log?.moved(t.file).catch(() => {});
      if (t.watch) await this.outside.reconcile(t, false, 'host');
      return moved.value;
    });
    t.saving = moving.then(() => {}, () => {});
    return moving;
  }

  /** `t` is now at `file` (absolute or relative to the working folder). */
  private repoint(t: OpenThread, file: string): void {
    this.byFile.delete(t.file);
    t.file = path.resolve(file);
    this.byFile.set(t.file, t.doc.id);
  }

  /**
   * Follow a file that moved on disk outside the host (the workspace watch saw it). Resolves
   * once the edit log names the new path and the file has been read again (a rename that
   * rewrote it, e.g. its title, is taken, and the edit log restarts from it). Ignored while the
   * host moves the file itself ({@link relocate}).
   */
  moved(threadId: string, file: string): Promise<void> {
    const t = this.byId.get(threadId);
    if (!t || t.relocating) return Promise.resolve();
    this.repoint(t, file);
    if (t.watch) {
      this.outside.stop(t);
      this.outside.start(t);
      this.outside.check(t); // a check of the old path may have found it gone
    }
    const logged = t.log?.moved(t.file).catch(() => {});
    return Promise.all([logged, t.saving]).then(() => {});
  }
}
