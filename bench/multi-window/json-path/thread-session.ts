/* The JSON path as it was before the Yjs migration, kept for the multi-window benchmark only (docs/architecture.md#multi-window-editing). */
/**
 * One open thread in the renderer (docs/architecture.md#edits-and-undo): the thread atom and its
 * meta, edits as Immer patches, undo and redo through {@link UndoHistory}. Every change is sent
 * to the host, and patches from others and from runs are taken in, by the session's
 * {@link ThreadSync}.
 */
import { startTransition } from 'react';
import { atom, type PrimitiveAtom } from 'jotai';
import { applyPatches, enablePatches, produceWithPatches, type Draft, type Patch } from 'immer';
import type { Thread } from '../../../shared/thread/schema';
import type { ThreadPatch } from '../../../shared/protocol/envelopes';
import type { HostServices } from '../../../renderer/src/host/types';
import { UndoHistory, type UndoDirection, type UndoOptions } from './undo';
import { valueAt } from './rebase';
import { ThreadSync, type OpenedThread } from './thread-sync';
import type { ThreadMeta } from '../../../renderer/src/state/thread-meta';
import { keepsRepeats } from '../../../renderer/src/state/repeated-ids';
import type { AtomStore } from '../../../renderer/src/state/stream-store';

/**
 * Deep-freezes a thread the host sent (opened, reloaded) while the page is idle, in slices of
 * the idle time given (5 ms without requestIdleCallback). Immer freezes what it makes and stops
 * at frozen objects; a thread parsed from the host is not frozen, so the first change made with
 * Immer (an edit, a run's result) walked every message and every step of a script in the task
 * that made it (8 ms for a 1,000-step script). Parents are frozen before their children: a
 * change made before the last slice only skips the walk sooner.
 */
function freezeWhenIdle(doc: Thread): void {
  if (Object.isFrozen(doc)) return;
  const pending: object[] = [doc];
  const idle = (globalThis as { requestIdleCallback?: (cb: (d: { timeRemaining(): number }) => void, o: { timeout: number }) => number }).requestIdleCallback;
  const later = (run: (d?: { timeRemaining(): number }) => void) => (idle ? idle(run, { timeout: 2000 }) : setTimeout(run, 0));
  const slice = (deadline?: { timeRemaining(): number }) => {
    const until = performance.now() + (deadline ? Math.max(1, deadline.timeRemaining()) : 5);
    for (let n = 1; pending.length; n++) {
      const o = pending.pop()!;
      if (Object.isFrozen(o)) continue;
      Object.freeze(o);
      for (const v of Object.values(o)) if (v !== null && typeof v === 'object') pending.push(v);
      if (n % 256 === 0 && performance.now() > until) break;
    }
    if (pending.length) later(slice);
  };
  later(slice);
}

export type { ThreadMeta } from '../../../renderer/src/state/thread-meta';

enablePatches();

/** Edit session of one thread. */
export class ThreadSession {
  readonly threadAtom: PrimitiveAtom<Thread>;
  readonly metaAtom: PrimitiveAtom<ThreadMeta>;
  readonly history: UndoHistory;
  private readonly sync: ThreadSync;

  constructor(
    private readonly store: AtomStore,
    private readonly host: HostServices,
    opened: OpenedThread,
    undo: UndoOptions = {},
  ) {
    this.history = new UndoHistory(undo);
    this.threadAtom = atom(opened.thread);
    freezeWhenIdle(opened.thread);
    this.metaAtom = atom<ThreadMeta>({
      path: opened.path,
      version: opened.version,
      runningRunId: opened.running,
      canUndo: false,
      canRedo: false,
      undoneRuns: [],
    });
    this.sync = new ThreadSync(host, {
      id: () => this.id,
      path: () => this.meta.path,
      shown: () => this.thread,
      show: (doc) => {
        this.store.set(this.threadAtom, doc);
        freezeWhenIdle(doc);
      },
      setMeta: (patch) => this.setMeta(patch),
      followTexts: (before, after, patches) => this.followTexts(before, after, patches),
      recordRun: (forward, inverse, runId, current) => this.history.record(forward, inverse, { origin: 'run', runId, current }),
      clearHistory: () => this.history.clear(),
    }, opened);
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
  /** No edit of this window is on its way to the host. */
  get settled(): boolean {
    return this.sync.settled;
  }

  private setMeta(patch: Partial<ThreadMeta>): void {
    this.store.set(this.metaAtom, {
      ...this.meta,
      ...patch,
      canUndo: this.history.canUndo,
      canRedo: this.history.canRedo,
      version: this.sync.version,
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
    return this.commit(next, forward, inverse, key);
  }

  /**
   * Edit the thread with patches made by hand (an array item removed or moved as one index
   * patch, see array-edits.ts) and their inverse. Returns false when read-only or empty.
   */
  editPatches(forward: Patch[], inverse: Patch[], key?: string): boolean {
    if (this.readOnly || forward.length === 0) return false;
    return this.commit(applyPatches(this.thread, forward), forward, inverse, key);
  }

  /** Show an edit's result, record it as an undo step and send it. False when it changed nothing or keeps repeated ids. */
  private commit(next: Thread, forward: Patch[], inverse: Patch[], key: string | undefined): boolean {
    if (forward.length === 0 || keepsRepeats(this.thread, next)) return false;
    this.store.set(this.threadAtom, next);
    this.history.record(forward, inverse, { key, current: next });
    this.sync.send(forward);
    this.setMeta({});
    return true;
  }

  /** Undo the last step (applies its inverse patches and sends them as an ordinary edit). */
  undo(): boolean {
    return this.travel('undo');
  }

  /** Redo the last undone step. */
  redo(): boolean {
    return this.travel('redo');
  }

  /**
   * Undo or redo one step: apply the patches the history hands out for `direction` and send
   * them as an ordinary edit. A run's result undone is listed in `undoneRuns` until redone.
   * Refused (the step stays where it was) when it would keep repeated ids.
   */
  private travel(direction: UndoDirection): boolean {
    if (this.readOnly) return false;
    let step;
    try {
      step = this.history.take(direction, this.thread);
    } catch (err) {
      return this.historyBroken(err);
    }
    if (!step) return false;
    const next = applyPatches(this.thread, step.patches);
    if (keepsRepeats(this.thread, next)) {
      this.history.putBack(direction);
      return false;
    }
    this.store.set(this.threadAtom, next);
    this.sync.send(step.patches);
    const { runId } = step;
    const others = this.meta.undoneRuns.filter((r) => r !== runId);
    const undoneRuns = !runId ? this.meta.undoneRuns : direction === 'undo' ? [...others, runId] : others;
    this.setMeta({ undoneRuns });
    return true;
  }

  /** Another window changed what an undo step would restore: drop the history, say so. */
  private historyBroken(err: unknown): false {
    this.history.clear();
    this.setMeta({ error: { message: `Undo history cleared: another window changed the text it would restore (${(err as Error).message}).` } });
    return false;
  }

  /** The thread's file is now at `path` (workspace-relative): renamed or moved. */
  setPath(path: string): void {
    if (this.meta.path !== path) this.setMeta({ path });
  }

  /** Mark a run of this thread as running (read-only) or finished. */
  /**
   * The thread's running run (undefined: none). `later`: render it as a transition (a run's
   * end: the whole thread turns editable again, in slices); a run's start is shown at once.
   */
  setRunning(runId: string | undefined, later = false): void {
    if (later) startTransition(() => this.setMeta({ runningRunId: runId }));
    else this.setMeta({ runningRunId: runId });
  }

  /**
   * A `thread_patch` from the host. Anything at or below the known version is ignored; our own
   * echo confirms the batch in flight; a run's result becomes one undo step; another window's
   * edit is applied under ours (ours are replayed on it); a gap fetches the host's copy.
   */
  applyRemote(tp: ThreadPatch): void {
    this.sync.applyRemote(tp);
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
    this.sync.resync();
  }

  /**
   * Take up this session again (the window switched back to its thread) from the host's copy
   * `opened`: kept, with its undo history, when that copy is the document this session holds;
   * otherwise false, and the caller starts a new session (the history would not apply).
   */
  resume(opened: OpenedThread): boolean {
    return this.sync.resume(opened);
  }

  /** Load the host's copy again; the undo history is dropped (its patches no longer apply). */
  reload(): Promise<void> {
    return this.sync.reload();
  }
}
