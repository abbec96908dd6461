/* The JSON path as it was before the Yjs migration, kept for the multi-window benchmark only (docs/architecture.md#multi-window-editing). */
/**
 * The exchange of one open thread with the host (docs/architecture.md#multi-window-editing):
 * this window's edits go out as Immer patches with their base version, one batch at a time
 * (edits made while one is in flight are batched into the next); `thread_patch`es from other
 * windows and from runs come in. It keeps the host's document as it last knew it (`confirmed`,
 * at `version`) beside what the window shows (confirmed + this window's unconfirmed edits).
 * When another window's edit lands first, this window's edits are replayed on it
 * ({@link rebasePending}: a text field both typed into is merged, not overwritten) and sent
 * again. The session it serves ({@link ThreadSession}) owns the document atom and the undo
 * history and reaches this class only through {@link SyncedSession}.
 */
import { applyPatches, type Patch } from 'immer';
import { startTransition } from 'react';
import type { Thread } from '../../../shared/thread/schema';
import type { ThreadPatch } from '../../../shared/protocol/envelopes';
import { newId } from '../../../shared/thread/ids';
import type { HostServices } from '../../../renderer/src/host/types';
import { HostCallError } from '../../../renderer/src/host/types';
import { rebasePending } from './rebase';
import { applyWithPatches } from './append-patches';
import { transformPending } from './array-edits';
import type { ThreadMeta } from '../../../renderer/src/state/thread-meta';

/** The host's answer to `thread.open`, as a session starts from it. */
export interface OpenedThread {
  thread: Thread;
  version: number;
  path: string;
  /** The run of this thread that is running, if any. */
  running?: string;
  /** The `origin` of this window's own edits in thread_patch. */
  origin?: string;
}

/** What the sync reads and changes of the session it serves. */
export interface SyncedSession {
  /** The thread's id. */
  id(): string;
  /** The thread's workspace path. */
  path(): string;
  /** The document the window shows. */
  shown(): Thread;
  /** Show `doc` in the window. */
  show(doc: Thread): void;
  /** Publish the meta (with the sync's version) after a change. */
  setMeta(patch: Partial<ThreadMeta>): void;
  /** Texts another window changed at the string paths of `patches`: move the undo steps along. */
  followTexts(before: Thread, after: Thread, patches: Patch[]): void;
  /** A run's result became part of the document: one undo step of its own. */
  recordRun(forward: Patch[], inverse: Patch[], runId: string, current: Thread): void;
  /** The host's copy replaced the document: the undo history no longer applies. */
  clearHistory(): void;
}

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

/** One open thread's edits on their way to the host, and the host's patches on their way in. */
export class ThreadSync {
  /** The host's version of the document this window last knew. */
  version: number;
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
  private pumping = false;

  constructor(
    private readonly host: HostServices,
    private readonly session: SyncedSession,
    opened: OpenedThread,
  ) {
    this.version = opened.version;
    this.confirmed = opened.thread;
    this.origin = opened.origin;
  }

  /** No edit of this window is on its way to the host. */
  get settled(): boolean {
    return (!this.inFlight || this.inFlight.state !== 'sent') && this.outbox.length === 0;
  }

  /** Send this window's edit (its forward patches, made on the document shown). */
  send(patches: Patch[]): void {
    if (this.host.presentational) return;
    this.outbox.push(...patches);
    void this.pumpIfIdle();
  }

  /**
   * A `thread_patch` from the host. Anything at or below the known version is ignored; our own
   * echo confirms the batch in flight; a run's result becomes one undo step; another window's
   * edit is applied under ours (ours are replayed on it); a gap fetches the host's copy.
   */
  applyRemote(tp: ThreadPatch): void {
    if (tp.threadId !== this.session.id() || tp.version <= this.version) return;
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
      const shown = this.session.shown();
      // A run's result appends its messages in one copy (append-patches.ts).
      const [next, forward, inverse] = applyWithPatches(shown, tp.patches);
      if (!isRun) this.session.followTexts(shown, next, tp.patches);
      this.confirmed = next;
      this.version = tp.version;
      if (isRun) this.session.recordRun(forward, inverse, tp.origin.slice('run:'.length), next);
      // A run's result can add a thousand messages: the page renders them as a transition, in
      // slices between which it answers input, not in one long task. The meta (version, undo)
      // changes in the same transition: a render for it alone would read the new thread too
      // (atoms hold the latest value) and render it all at once.
      const land = () => {
        this.session.show(next);
        this.session.setMeta({});
      };
      if (isRun) startTransition(land);
      else land();
    } catch {
      void this.reload();
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

  /**
   * Take up the session again from the host's copy `opened`: true when that copy is the
   * document the window shows (same content: the host may count versions afresh after it let
   * the thread go) and nothing is on its way; false otherwise.
   */
  resume(opened: OpenedThread): boolean {
    if (!this.settled || opened.thread.id !== this.session.id()) return false;
    if (JSON.stringify(opened.thread) !== JSON.stringify(this.session.shown())) return false;
    this.version = opened.version;
    this.confirmed = opened.thread;
    this.session.setMeta({ path: opened.path, runningRunId: opened.running, error: undefined });
    return true;
  }

  /** Load the host's copy again; the undo history is dropped (its patches no longer apply). */
  async reload(): Promise<void> {
    try {
      const r = await this.host.call('thread.open', { path: this.session.path() });
      this.version = r.version;
      this.confirmed = r.thread;
      if (this.inFlight?.state === 'sent') this.inFlight.state = 'dropped';
      this.inFlight = null;
      this.outbox = [];
      this.stale = false;
      this.session.clearHistory();
      this.session.show(r.thread);
      this.session.setMeta({ path: r.path, runningRunId: r.running, error: undefined });
    } catch (err) {
      this.session.setMeta({ error: { message: `Could not reload ${this.session.path()}: ${(err as Error).message}`, details: (err as Error).stack } });
    }
  }

  private async pump(): Promise<void> {
    while (this.outbox.length > 0) {
      const batch: InFlight = { base: this.version, patches: this.outbox, editId: newId(), state: 'sent' };
      this.outbox = [];
      this.inFlight = batch;
      try {
        const r = await this.host.call('thread.edit', { threadId: this.session.id(), baseVersion: batch.base, patches: batch.patches, editId: batch.editId });
        if (batch.state === 'sent') this.confirm(batch, r.version);
        else if (batch.state !== 'acked') this.stale = true; // taken after all: only the host's copy can say what it holds
        this.session.setMeta({ error: undefined });
      } catch (err) {
        if (err instanceof HostCallError && err.code === 'version_mismatch') {
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
        if (err instanceof HostCallError && (err.code === 'disconnected' || err.code === 'session_ended')) {
          // The host is out of reach: keep the edits (shown, and in the outbox), reload nothing.
          if (batch.state === 'sent') this.outbox = [...batch.patches, ...this.outbox];
          this.session.setMeta({ error: { message: `This edit is not saved: ${(err as Error).message}` } });
          return;
        }
        this.outbox = [];
        this.session.setMeta({
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
    this.session.setMeta({});
  }

  /**
   * Replay our unconfirmed edits (the batch in flight, if `batch` is it, and the outbox) on
   * `theirs`, the host's document at `version`; they go back to the outbox to be sent again.
   * Reloads and returns false when they no longer apply.
   */
  private replayOn(theirs: Thread, version: number, batch: InFlight | null = this.inFlight, remote?: Patch[]): boolean {
    const sent = batch && batch.state === 'sent' ? batch.patches : [];
    const shown = this.session.shown();
    let r;
    try {
      // With the other window's patches at hand, our paths follow its inserts and removals.
      const moved = transformPending([...sent, ...this.outbox], remote ?? []);
      const pending = moved.map((m) => m.patch);
      const shifted = new Set(moved.flatMap((m, i) => (m.moved ? [i] : [])));
      r = rebasePending(this.confirmed, shown, theirs, pending, shifted);
    } catch {
      void this.reload().then(() =>
        this.session.setMeta({ error: { message: 'Another window changed this thread in a way your latest edit cannot apply to; the thread was reloaded.' } }),
      );
      return false;
    }
    if (batch && batch.state === 'sent') batch.state = 'replayed';
    this.session.followTexts(shown, r.doc, [...(remote ?? []), ...r.pending]);
    this.confirmed = theirs;
    this.version = version;
    this.outbox = r.pending;
    this.session.show(r.doc);
    this.session.setMeta({});
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
      fresh = await this.host.call('thread.open', { path: this.session.path() });
    } catch {
      await this.reload();
      return false;
    }
    if (fresh.version <= this.version && batch?.state !== 'sent') return true;
    if (this.settled && !batch) {
      this.confirmed = fresh.thread;
      this.version = fresh.version;
      this.session.show(fresh.thread);
      this.session.setMeta({});
      return true;
    }
    return this.replayOn(fresh.thread, fresh.version, batch);
  }

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
