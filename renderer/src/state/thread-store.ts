/**
 * One open thread in the renderer (docs/architecture.md#edits-and-undo): the thread atom, edits as Immer patches sent to
 * the host with their base version, undo/redo through {@link UndoHistory}, patches from others
 * and from runs applied with `applyPatches`.
 * Edits are sent one at a time; edits made while one is in flight are batched into the next.
 * The session keeps the host's document as it last knew it (`confirmed`, at `version`) beside
 * what the window shows (confirmed + this window's unconfirmed edits). When another window's
 * edit lands first, this window's edits are replayed on it ({@link rebasePending}: a text
 * field both typed into is merged, not overwritten) and sent again.
 */
import { atom, type PrimitiveAtom } from 'jotai';
import { applyPatches, enablePatches, produceWithPatches, type Draft, type Patch } from 'immer';
import type { Thread } from '../../../shared/thread/schema';
import type { ThreadPatch } from '../../../shared/protocol/envelopes';
import { newId } from '../../../shared/thread/ids';
import type { HostServices } from '../host/types';
import { HostError } from '../host/types';
import { UndoHistory, type UndoOptions } from './undo';
import { rebasePending, valueAt } from './rebase';
import { transformPending } from './array-edits';
import type { ThreadMeta } from './thread-meta';
import { keepsRepeats } from './repeated-ids';

export type { ThreadMeta } from './thread-meta';
import type { AtomStore } from './stream-store';

enablePatches();

/** A batch of edits sent to the host and not yet answered. */
interface InFlight {
  base: number;
  patches: Patch[];
  /** Makes a resend of this batch (after a lost connection) idempotent at the host. */
  editId: string;
  /**
   * sent: awaiting the host; acked: our echo came first; replayed: moved back to the outbox
   * after a conflict; dropped: the thread was reloaded meanwhile.
   */
  state: 'sent' | 'acked' | 'replayed' | 'dropped';
}

/** Edit session of one thread. */
export class ThreadSession {
  readonly threadAtom: PrimitiveAtom<Thread>;
  readonly metaAtom: PrimitiveAtom<ThreadMeta>;
  readonly history: UndoHistory;
  private version: number;
  /** The `origin` of this window's own edits in thread_patch. */
  private readonly origin: string | undefined;
  /** The host's document at `version`, as far as this window knows. */
  private confirmed: Thread;
  /** The batch on its way to the host; `patches` were made on version `base`. */
  private inFlight: InFlight | null = null;
  /** Edits not sent yet (made after the batch in flight, or replayed after a conflict). */
  private outbox: Patch[] = [];
  /** A thread_patch was skipped (a gap) while a batch was in flight: fetch the host's copy after. */
  private stale = false;

  constructor(
    private readonly store: AtomStore,
    private readonly host: HostServices,
    opened: { thread: Thread; version: number; path: string; running?: string; origin?: string },
    undo: UndoOptions = {},
  ) {
    this.version = opened.version;
    this.confirmed = opened.thread;
    this.origin = opened.origin;
    this.history = new UndoHistory(undo);
    this.threadAtom = atom(opened.thread);
    this.metaAtom = atom<ThreadMeta>({
      path: opened.path,
      version: opened.version,
      runningRunId: opened.running,
      canUndo: false,
      canRedo: false,
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
   * 800 ms is one step). Returns false when the thread is read-only or nothing changed. A
   * thread that repeats message or tool call ids takes only an edit that leaves none
   * (repeated-ids.ts); the host refuses the others too.
   */
  edit(recipe: (draft: Draft<Thread>) => void, key?: string): boolean {
    if (this.readOnly) return false;
    const [next, forward, inverse] = produceWithPatches(this.thread, recipe);
    if (forward.length === 0 || keepsRepeats(this.thread, next)) return false;
    this.store.set(this.threadAtom, next);
    this.history.record(forward, inverse, { key, current: next });
    this.send(forward);
    this.setMeta({});
    return true;
  }

  /**
   * Edit the thread with patches made by hand (an array item removed or moved as one index
   * patch, see array-edits.ts) and their inverse. Returns false when read-only or empty.
   */
  editPatches(forward: Patch[], inverse: Patch[], key?: string): boolean {
    if (this.readOnly || forward.length === 0) return false;
    const next = applyPatches(this.thread, forward);
    if (keepsRepeats(this.thread, next)) return false;
    this.store.set(this.threadAtom, next);
    this.history.record(forward, inverse, { key, current: next });
    this.send(forward);
    this.setMeta({});
    return true;
  }

  /** Undo the last step (applies its inverse patches and sends them as an ordinary edit). */
  undo(): boolean {
    return this.takeStep('undo');
  }

  /** Redo the last undone step. */
  redo(): boolean {
    return this.takeStep('redo');
  }

  /** Undo or redo one step; refused (the step stays where it was) when it would keep repeated ids. */
  private takeStep(dir: 'undo' | 'redo'): boolean {
    if (this.readOnly) return false;
    let step;
    try {
      step = dir === 'undo' ? this.history.undo(this.thread) : this.history.redo(this.thread);
    } catch (err) {
      return this.historyBroken(err);
    }
    if (!step) return false;
    const patches = dir === 'undo' ? step.inverse : step.forward;
    const next = applyPatches(this.thread, patches);
    if (keepsRepeats(this.thread, next)) {
      this.history.putBack(dir);
      return false;
    }
    this.store.set(this.threadAtom, next);
    this.send(patches);
    const others = this.meta.undoneRuns.filter((r) => r !== step.runId);
    this.setMeta({ undoneRuns: !step.runId ? this.meta.undoneRuns : dir === 'undo' ? [...others, step.runId] : others });
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
   * A `thread_patch` from the host. Anything at or below the known version is ignored; our own
   * echo confirms the batch in flight; a run's result becomes one undo step; another window's
   * edit is applied under ours (ours are replayed on it); a gap fetches the host's copy.
   */
  applyRemote(tp: ThreadPatch): void {
    if (tp.threadId !== this.id || tp.version <= this.version) return;
    const isRun = tp.origin.startsWith('run:');
    const ours = this.origin ? tp.origin === this.origin : !!this.inFlight && this.inFlight.state === 'sent' && !isRun;
    if (ours) {
      if (this.inFlight?.state === 'sent' && tp.version === this.inFlight.base + 1) this.confirm(this.inFlight, tp.version);
      else this.stale = true; // an echo we cannot place: settle it with the host's copy
      if (this.settled && this.stale) void this.refresh();
      return;
    }
    if (tp.version !== this.version + 1) {
      if (this.settled) void this.reload();
      else this.stale = true;
      return;
    }
    if (!this.settled) {
      // Another window's edit landed before ours: show it under our edits, send ours again.
      let theirs: Thread;
      try {
        theirs = applyPatches(this.confirmed, tp.patches);
      } catch {
        void this.reload();
        return;
      }
      this.replayOn(theirs, tp.version, this.inFlight, tp.patches);
      return;
    }
    try {
      const [next, forward, inverse] = produceWithPatches(this.thread, (d) => {
        applyPatches(d, tp.patches);
      });
      if (!isRun) this.followTexts(this.thread, next, tp.patches);
      this.store.set(this.threadAtom, next);
      this.confirmed = next;
      this.version = tp.version;
      if (isRun) this.history.record(forward, inverse, { origin: 'run', runId: tp.origin.slice('run:'.length), current: next });
      this.setMeta({});
    } catch {
      void this.reload();
    }
  }

  /**
   * Texts another window changed (at the string paths of `patches`) move this window's undo
   * steps along ({@link UndoHistory.rebaseText}), so undo takes out only this window's typing.
   */
  private followTexts(before: Thread, after: Thread, patches: Patch[]): void {
    const seen = new Set<string>();
    for (const p of patches) {
      if (p.op !== 'replace' || typeof p.value !== 'string') continue;
      const k = JSON.stringify(p.path);
      if (seen.has(k)) continue;
      seen.add(k);
      const a = valueAt(before, p.path);
      const b = valueAt(after, p.path);
      if (typeof a === 'string' && typeof b === 'string') this.history.rebaseText(p.path, a, b);
    }
  }

  /**
   * The connection to the host came back: patches pushed meanwhile were lost, so catch up with
   * the host's copy (now, or after the edit in flight is answered).
   */
  resync(): void {
    if (this.settled && !this.pumping) void this.refresh();
    else this.stale = true;
  }

  /** No edit of this window is on its way to the host. */
  get settled(): boolean {
    return (!this.inFlight || this.inFlight.state !== 'sent') && this.outbox.length === 0;
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
    this.confirmed = opened.thread;
    this.setMeta({ path: opened.path, runningRunId: opened.running, error: undefined });
    return true;
  }

  /** Load the host's copy again; the undo history is dropped (its patches no longer apply). */
  async reload(): Promise<void> {
    try {
      const r = await this.host.call('thread.open', { path: this.meta.path });
      this.version = r.version;
      this.confirmed = r.thread;
      if (this.inFlight?.state === 'sent') this.inFlight.state = 'dropped';
      this.inFlight = null;
      this.outbox = [];
      this.stale = false;
      this.history.clear();
      this.store.set(this.threadAtom, r.thread);
      this.setMeta({ path: r.path, runningRunId: r.running, error: undefined });
    } catch (err) {
      this.setMeta({ error: { message: `Could not reload ${this.meta.path}: ${(err as Error).message}`, details: (err as Error).stack } });
    }
  }

  private send(patches: Patch[]): void {
    if (this.host.presentational) return;
    this.outbox.push(...patches);
    void this.pumpIfIdle();
  }

  private async pump(): Promise<void> {
    while (this.outbox.length > 0) {
      const batch: InFlight = { base: this.version, patches: this.outbox, editId: newId(), state: 'sent' };
      this.outbox = [];
      this.inFlight = batch;
      try {
        const r = await this.host.call('thread.edit', { threadId: this.id, baseVersion: batch.base, patches: batch.patches, editId: batch.editId });
        if (batch.state === 'sent') this.confirm(batch, r.version);
        else if (batch.state !== 'acked') this.stale = true; // taken after all: only the host's copy can say what it holds
        this.setMeta({ error: undefined });
      } catch (err) {
        if (err instanceof HostError && err.code === 'version_mismatch') {
          // Another window edited first. If its patch already came, our batch is back in the
          // outbox; otherwise fetch the host's copy and replay our edits on it. The batch
          // stays in flight meanwhile, so a patch arriving now is replayed under it too.
          const ok = batch.state !== 'sent' || (await this.refresh(batch));
          if (this.inFlight === batch) this.inFlight = null;
          if (!ok) return;
          continue;
        }
        if (this.inFlight === batch) this.inFlight = null;
        if (batch.state === 'dropped') return;
        if (err instanceof HostError && (err.code === 'disconnected' || err.code === 'session_ended')) {
          // The host is out of reach: keep the edits (shown, and in the outbox), reload nothing.
          if (batch.state === 'sent') this.outbox = [...batch.patches, ...this.outbox];
          this.setMeta({ error: { message: `This edit is not saved: ${(err as Error).message}` } });
          return;
        }
        this.outbox = [];
        this.setMeta({
          error: { message: `The edit was not saved: ${(err as Error).message}. The thread is reloaded from disk.`, details: (err as Error).stack },
        });
        await this.reload();
        return;
      }
      if (this.inFlight === batch) this.inFlight = null;
      if (this.stale && this.outbox.length === 0 && !(await this.refresh())) return;
    }
  }

  /** The host took `batch` as `version`. */
  private confirm(batch: InFlight, version: number): void {
    this.confirmed = applyPatches(this.confirmed, batch.patches);
    this.version = version;
    batch.state = 'acked';
    this.setMeta({});
  }

  /**
   * Replay our unconfirmed edits (the batch in flight, if `batch` is it, and the outbox) on
   * `theirs`, the host's document at `version`; they go back to the outbox to be sent again.
   * Reloads and returns false when they no longer apply.
   */
  private replayOn(theirs: Thread, version: number, batch: InFlight | null = this.inFlight, remote?: Patch[]): boolean {
    const sent = batch && batch.state === 'sent' ? batch.patches : [];
    let r;
    try {
      // With the other window's patches at hand, our paths follow its inserts and removals.
      const moved = transformPending([...sent, ...this.outbox], remote ?? []);
      const pending = moved.map((m) => m.patch);
      const shifted = new Set(moved.flatMap((m, i) => (m.moved ? [i] : [])));
      r = rebasePending(this.confirmed, this.thread, theirs, pending, shifted);
    } catch {
      void this.reload().then(() =>
        this.setMeta({ error: { message: 'Another window changed this thread in a way your latest edit cannot apply to; the thread was reloaded.' } }),
      );
      return false;
    }
    if (batch && batch.state === 'sent') batch.state = 'replayed';
    this.followTexts(this.thread, r.doc, [...(remote ?? []), ...r.pending]);
    this.confirmed = theirs;
    this.version = version;
    this.outbox = r.pending;
    this.store.set(this.threadAtom, r.doc);
    this.setMeta({});
    if (!this.inFlight || this.inFlight.state !== 'sent') void this.pumpIfIdle();
    return true;
  }

  /**
   * Fetch the host's copy and replay our unconfirmed edits on it. Returns false when that
   * failed (the thread was reloaded instead).
   */
  private async refresh(batch: InFlight | null = null): Promise<boolean> {
    this.stale = false;
    let fresh: { thread: Thread; version: number };
    try {
      fresh = await this.host.call('thread.open', { path: this.meta.path });
    } catch {
      await this.reload();
      return false;
    }
    if (fresh.version <= this.version && batch?.state !== 'sent') return true;
    if (this.settled && !batch) {
      this.confirmed = fresh.thread;
      this.version = fresh.version;
      this.store.set(this.threadAtom, fresh.thread);
      this.setMeta({});
      return true;
    }
    return this.replayOn(fresh.thread, fresh.version, batch);
  }

  private pumping = false;
  /** Start the send loop unless it runs. */
  private async pumpIfIdle(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      await this.pump();
    } finally {
      this.pumping = false;
    }
  }
}
