/**
 * One open thread in the renderer (DESIGN §4): the thread atom, edits as Immer patches sent to
 * the host with their base version, undo/redo through {@link UndoHistory}, patches from others
 * and from runs applied with `applyPatches`, and a reload on `version_mismatch`.
 * Edits are sent one at a time; edits made while one is in flight are batched into the next.
 */
import { atom, type PrimitiveAtom } from 'jotai';
import { applyPatches, enablePatches, produceWithPatches, type Draft, type Patch } from 'immer';
import type { Thread } from '../../../shared/thread/schema';
import type { ThreadPatch } from '../../../shared/protocol/envelopes';
import type { HostServices } from '../host/types';
import { HostError } from '../host/types';
import { UndoHistory, type UndoOptions } from './undo';
import type { AtomStore } from './stream-store';

enablePatches();

/** What the playground shows besides the document. */
export interface ThreadMeta {
  path: string;
  version: number;
  /** Id of the run of this thread that is running; the thread is read-only meanwhile. */
  runningRunId?: string;
  canUndo: boolean;
  canRedo: boolean;
  /** Last failure (edit rejected, reload failed), for an inline error. */
  error?: { message: string; details?: string };
  /** Bumped when the document was replaced wholesale (reload): editors reset their text. */
  generation: number;
  /** Runs whose result was undone in this window (their records stay in run history). */
  undoneRuns: string[];
}

/** Edit session of one thread. */
export class ThreadSession {
  readonly threadAtom: PrimitiveAtom<Thread>;
  readonly metaAtom: PrimitiveAtom<ThreadMeta>;
  readonly history: UndoHistory;
  private version: number;
  /** The `origin` of this window's own edits in thread_patch. */
  private readonly origin: string | undefined;
  private inFlight: { base: number } | null = null;
  private outbox: Patch[] = [];

  constructor(
    private readonly store: AtomStore,
    private readonly host: HostServices,
    opened: { thread: Thread; version: number; path: string; running?: string; origin?: string },
    undo: UndoOptions = {},
  ) {
    this.version = opened.version;
    this.origin = opened.origin;
    this.history = new UndoHistory(undo);
    this.threadAtom = atom(opened.thread);
    this.metaAtom = atom<ThreadMeta>({
      path: opened.path,
      version: opened.version,
      runningRunId: opened.running,
      canUndo: false,
      canRedo: false,
      generation: 0,
      undoneRuns: [],
    });
  }

  get thread(): Thread {
    return this.store.get(this.threadAtom);
  }
  get meta(): ThreadMeta {
    return this.store.get(this.metaAtom);
  }
  get id(): string {
    return this.thread.id;
  }
  /** Edits are refused while a run of this thread runs, and in the read-only viewer. */
  get readOnly(): boolean {
    return this.host.presentational || !!this.meta.runningRunId;
  }

  private setMeta(patch: Partial<ThreadMeta>): void {
    this.store.set(this.metaAtom, {
      ...this.meta,
      ...patch,
      canUndo: this.history.canUndo,
      canRedo: this.history.canRedo,
      version: this.version,
    });
  }

  /**
   * Edit the thread. `key` names the field for undo merging (typing in one field within
   * 800 ms is one step). Returns false when the thread is read-only or nothing changed.
   */
  edit(recipe: (draft: Draft<Thread>) => void, key?: string): boolean {
    if (this.readOnly) return false;
    const [next, forward, inverse] = produceWithPatches(this.thread, recipe);
    if (forward.length === 0) return false;
    this.store.set(this.threadAtom, next);
    this.history.record(forward, inverse, { key, current: next });
    this.send(forward);
    this.setMeta({});
    return true;
  }

  /** Undo the last step (applies its inverse patches and sends them as an ordinary edit). */
  undo(): boolean {
    if (this.readOnly) return false;
    let step;
    try {
      step = this.history.undo(this.thread);
    } catch (err) {
      return this.historyBroken(err);
    }
    if (!step) return false;
    this.store.set(this.threadAtom, applyPatches(this.thread, step.inverse));
    this.send(step.inverse);
    const undoneRuns = step.runId ? [...this.meta.undoneRuns.filter((r) => r !== step.runId), step.runId] : this.meta.undoneRuns;
    this.setMeta({ generation: this.meta.generation + 1, undoneRuns });
    return true;
  }

  /** Redo the last undone step. */
  redo(): boolean {
    if (this.readOnly) return false;
    let step;
    try {
      step = this.history.redo(this.thread);
    } catch (err) {
      return this.historyBroken(err);
    }
    if (!step) return false;
    this.store.set(this.threadAtom, applyPatches(this.thread, step.forward));
    this.send(step.forward);
    const undoneRuns = step.runId ? this.meta.undoneRuns.filter((r) => r !== step.runId) : this.meta.undoneRuns;
    this.setMeta({ generation: this.meta.generation + 1, undoneRuns });
    return true;
  }

  /** Another window changed what an undo step would restore: drop the history, say so. */
  private historyBroken(err: unknown): false {
    this.history.clear();
    this.setMeta({ error: { message: `Undo history cleared: another window changed the text it would restore (${(err as Error).message}).` } });
    return false;
  }

  /** Mark a run of this thread as running (read-only) or finished. */
  setRunning(runId: string | undefined): void {
    this.setMeta({ runningRunId: runId });
  }

  /**
   * A `thread_patch` from the host. Our own echo and anything at or below the known version is
   * ignored; a run's result becomes one undo step; a gap reloads the thread.
   */
  applyRemote(tp: ThreadPatch): void {
    if (tp.threadId !== this.id || tp.version <= this.version) return;
    const isRun = tp.origin.startsWith('run:');
    if (this.origin ? tp.origin === this.origin : this.inFlight && tp.version === this.inFlight.base + 1 && !isRun) return; // our edit's echo
    if (tp.version !== this.version + 1 && !this.inFlight) {
      void this.reload();
      return;
    }
    try {
      const [next, forward, inverse] = produceWithPatches(this.thread, (d) => {
        applyPatches(d, tp.patches);
      });
      this.store.set(this.threadAtom, next);
      if (!this.inFlight) this.version = tp.version;
      if (isRun) this.history.record(forward, inverse, { origin: 'run', runId: tp.origin.slice('run:'.length), current: next });
      this.setMeta({ generation: this.meta.generation + 1 });
    } catch {
      void this.reload();
    }
  }

  /** No edit of this window is on its way to the host. */
  get settled(): boolean {
    return !this.inFlight && this.outbox.length === 0;
  }

  /**
   * Take up this session again (the window switched back to its thread) from the host's copy
   * `opened`: kept, with its undo history, when that copy is the document this session holds;
   * otherwise false, and the caller starts a new session (the history would not apply).
   */
  resume(opened: { thread: Thread; version: number; path: string; running?: string }): boolean {
    if (!this.settled || opened.thread.id !== this.id) return false;
    // Same content is what matters: the host may count versions afresh after it let the thread go.
    if (JSON.stringify(opened.thread) !== JSON.stringify(this.thread)) return false;
    this.version = opened.version;
    this.setMeta({ path: opened.path, runningRunId: opened.running, error: undefined });
    return true;
  }

  /** Load the host's copy again; the undo history is dropped (its patches no longer apply). */
  async reload(): Promise<void> {
    try {
      const r = await this.host.call('thread.open', { path: this.meta.path });
      this.version = r.version;
      this.inFlight = null;
      this.outbox = [];
      this.history.clear();
      this.store.set(this.threadAtom, r.thread);
      this.setMeta({ path: r.path, runningRunId: r.running, generation: this.meta.generation + 1, error: undefined });
    } catch (err) {
      this.setMeta({ error: { message: `Could not reload ${this.meta.path}: ${(err as Error).message}`, details: (err as Error).stack } });
    }
  }

  private send(patches: Patch[]): void {
    if (this.host.presentational) return;
    this.outbox.push(...patches);
    if (!this.inFlight) void this.pump();
  }

  private async pump(): Promise<void> {
    while (this.outbox.length > 0) {
      const patches = this.outbox;
      this.outbox = [];
      const base = this.version;
      this.inFlight = { base };
      try {
        const r = await this.host.call('thread.edit', { threadId: this.id, baseVersion: base, patches });
        this.version = Math.max(this.version, r.version);
        this.inFlight = null;
        this.setMeta({ error: undefined });
      } catch (err) {
        if (err instanceof HostError && err.code === 'version_mismatch') {
          // Another window edited first: replay our unsent edits on its version. New edits
          // meanwhile queue behind (inFlight stays set), and are replayed too.
          const ok = await this.rebase(patches);
          this.inFlight = null;
          if (ok) continue;
          return;
        }
        this.inFlight = null;
        this.outbox = [];
        this.setMeta({
          error: { message: `The edit was not saved: ${(err as Error).message}. The thread is reloaded from disk.`, details: (err as Error).stack },
        });
        await this.reload();
        return;
      }
    }
  }

  /**
   * Fetch the host's copy and apply `pending` (our edits the host has not taken) on top of it,
   * so concurrent edits from two windows both survive. Returns false (after a plain reload)
   * when our edits no longer apply.
   */
  private async rebase(sent: Patch[]): Promise<boolean> {
    let fresh: { thread: Thread; version: number };
    try {
      fresh = await this.host.call('thread.open', { path: this.meta.path });
    } catch {
      await this.reload();
      return false;
    }
    const pending = [...sent, ...this.outbox];
    let merged: Thread;
    try {
      merged = applyPatches(fresh.thread, pending);
    } catch {
      await this.reload();
      this.setMeta({ error: { message: 'Another window changed this thread in a way your latest edit cannot apply to; the thread was reloaded.' } });
      return false;
    }
    this.version = fresh.version;
    this.outbox = pending;
    this.store.set(this.threadAtom, merged);
    this.setMeta({ generation: this.meta.generation + 1 });
    return true;
  }
}
