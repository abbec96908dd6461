/**
 * One open thread in the renderer (docs/architecture.md#edits-and-undo,
 * docs/architecture.md#multi-window-editing): the window's `Y.Doc` of the thread, a peer of the
 * host's, and beside it the immutable thread React renders (the thread atom), kept up to date
 * from the document's events as Immer patches (shared/thread/y-events.ts). An edit is an Immer
 * recipe, carried into the document as Yjs operations (shared/thread/y-patches.ts) and sent by
 * the session's {@link ThreadSync}; undo and redo are a `Y.UndoManager` of this window's own
 * changes and of runs' results ({@link UndoHistory}).
 */
import { startTransition } from 'react';
import * as Y from 'yjs';
import { atom, type PrimitiveAtom } from 'jotai';
import { applyPatches, enablePatches, produceWithPatches, type Draft } from 'immer';
import type { Thread } from '../../../shared/thread/schema';
import type { ThreadUpdate } from '../../../shared/protocol/envelopes';
import { alive, newThreadDoc, threadTypes, type ThreadTypes } from '../../../shared/thread/y-thread';
import { applyPatchesToY } from '../../../shared/thread/y-patches';
import { observePatches } from '../../../shared/thread/y-events';
import type { HostServices } from '../host/types';
import { RunOrigin, UndoHistory, type UndoOptions } from './undo';
import { fromBase64, REMOTE, ThreadSync, type OpenedThread } from './thread-sync';
import type { ThreadMeta } from './thread-meta';
import { keepsRepeats } from './repeated-ids';
import { FieldSync, type BoundText, type TextField } from '../ui/text-binding';
import type { AtomStore } from './stream-store';

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

export type { ThreadMeta } from './thread-meta';
export type { OpenedThread } from './thread-sync';

enablePatches();

/** Edit session of one thread. */
export class ThreadSession {
  readonly threadAtom: PrimitiveAtom<Thread>;
  readonly metaAtom: PrimitiveAtom<ThreadMeta>;
  private readonly sync: ThreadSync;
  /** The origin of this window's own transactions. */
  private readonly local = { window: true };
  private ydoc!: Y.Doc;
  private types!: ThreadTypes;
  private undoHistory!: UndoHistory;
  private stopObserving = () => {};
  /** Messages of the document by id, as last looked up (checked at each use, made again on a miss). */
  private messageMaps = new Map<string, Y.Map<unknown>>();
  /** The binding of each field's `Y.Text`, the same object while the text is (editors' props). */
  private bindings = new WeakMap<Y.Text, BoundText>();

  constructor(
    private readonly store: AtomStore,
    private readonly host: HostServices,
    opened: OpenedThread,
    private readonly undoOptions: UndoOptions = {},
  ) {
    this.threadAtom = atom(opened.thread);
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
      doc: () => this.ydoc,
      setMeta: (patch) => this.setMeta(patch),
      restart: (o) => this.start(o),
    }, opened);
    this.start(opened);
  }

  /** Make the window's document from the host's (or, in the viewer, from the thread itself). */
  private start(opened: OpenedThread): void {
    this.stopObserving();
    this.undoHistory?.destroy();
    this.ydoc?.destroy();
    if (opened.yjs) {
      this.ydoc = new Y.Doc();
      Y.applyUpdate(this.ydoc, fromBase64(opened.yjs.update), REMOTE);
    } else this.ydoc = newThreadDoc(opened.thread, REMOTE);
    this.types = threadTypes(this.ydoc);
    this.undoHistory = new UndoHistory(this.types, this.local, this.undoOptions);
    const stop = observePatches(this.ydoc, (patches, tr) => this.took(patches, tr.origin));
    const onUpdate = (update: Uint8Array, origin: unknown) => {
      if (origin !== REMOTE && !(origin instanceof RunOrigin)) this.sync.send(update);
    };
    // A run's result is a step of its own: it never merges with the typing before or after it.
    const seal = (tr: Y.Transaction) => {
      if (tr.origin instanceof RunOrigin) this.undoHistory.seal();
    };
    // A bound editor's typing (ui/y-binding.ts) is a step of its field, as an edit's key is.
    const before = (tr: Y.Transaction) => {
      if (tr.origin instanceof FieldSync) this.undoHistory.step(tr.origin.key);
      else seal(tr);
    };
    this.ydoc.on('update', onUpdate);
    this.ydoc.on('beforeTransaction', before);
    this.ydoc.on('afterTransaction', seal);
    this.stopObserving = () => {
      stop();
      this.ydoc.off('update', onUpdate);
      this.ydoc.off('beforeTransaction', before);
      this.ydoc.off('afterTransaction', seal);
    };
    this.messageMaps = new Map();
    this.store.set(this.threadAtom, opened.thread);
    freezeWhenIdle(opened.thread);
    this.setMeta({ undoneRuns: [] });
  }

  /**
   * A transaction changed the document: the thread React renders follows (this window's own
   * edit is shown already). A run's result lands as a transition (it can add a thousand
   * messages: React renders them in slices between which the page answers input), with the meta
   * in the same transition (a render for the meta alone would read the new thread and render it
   * all at once).
   */
  private took(patches: Parameters<typeof applyPatches>[1], origin: unknown): void {
    if (origin === this.local) return;
    const land = () => {
      this.store.set(this.threadAtom, applyPatches(this.thread, patches));
      this.setMeta({});
    };
    if (origin instanceof RunOrigin) startTransition(land);
    else land();
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
  /** The window's undo history. */
  get history(): UndoHistory {
    return this.undoHistory;
  }
  /** The window's Yjs document of the thread (the editors bind to its texts). */
  get doc(): Y.Doc {
    return this.ydoc;
  }
  /**
   * The `Y.Text` of `field` with this window's undo, for its editor to bind to (ui/y-binding.ts);
   * undefined when the field has none (the message is gone, the part is not text). The same
   * object while the field's `Y.Text` is the same one; a new one after the field was made again
   * (an undone delete brings back a new message, a reload a new document): the editor binds again.
   */
  boundText(field: TextField): BoundText | undefined {
    let ytext: Y.Text | undefined;
    let key: string;
    if (field === 'systemPrompt') {
      ytext = this.types.systemPrompt;
      key = 'systemPrompt';
    } else if (field.field === 'result') {
      ytext = this.resultText(field.messageId, field.callId);
      // As the tool call card's result edits name the field.
      key = `result.${field.callId}`;
    } else {
      const content = this.messageMap(field.messageId)?.get('content');
      const part = content instanceof Y.Array ? content.get(field.part) : undefined;
      const t = part instanceof Y.Map ? part.get(field.field) : undefined;
      ytext = t instanceof Y.Text ? t : undefined;
      // As the message card's edits name the field (undo merges typing per field).
      key = field.field === 'text' ? `msg.${field.messageId}.text` : `msg.${field.messageId}.${field.part}.${field.field}`;
    }
    if (!ytext) return undefined;
    let bound = this.bindings.get(ytext);
    if (!bound || bound.key !== key) {
      const typed = field !== 'systemPrompt' && field.field === 'result' ? this.markResultTyped(field.messageId, field.callId, key) : undefined;
      bound = { ytext, key, undo: () => this.reachable && this.undo(), redo: () => this.reachable && this.redo(), readOnly: () => this.readOnly, typed };
      this.bindings.set(ytext, bound);
    }
    return bound;
  }

  /**
   * The `Y.Text` of the result of tool call `callId` of message `messageId`: its output's one
   * text part (a result with several text parts, or none, is edited as a whole instead).
   */
  private resultText(messageId: string, callId: string): Y.Text | undefined {
    const calls = this.messageMap(messageId)?.get('toolCalls');
    if (!(calls instanceof Y.Array)) return undefined;
    let output: unknown;
    for (const c of calls) if (c instanceof Y.Map && c.get('id') === callId) output = c.get('output');
    const content = output instanceof Y.Map ? output.get('content') : undefined;
    if (!(content instanceof Y.Array)) return undefined;
    const texts = content.toArray().filter((p) => p instanceof Y.Map && p.get('type') === 'text');
    const t = texts.length === 1 ? (texts[0] as Y.Map<unknown>).get('text') : undefined;
    return t instanceof Y.Text ? t : undefined;
  }

  /**
   * What typing into a result does besides the text: a result a tool run produced becomes one
   * the person typed, a template (docs/architecture.md#templates), in the same undo step.
   */
  private markResultTyped(messageId: string, callId: string, key: string): () => void {
    return () => {
      const msg = this.thread.context.messages.find((m) => m.id === messageId);
      const call = msg?.role === 'assistant' ? msg.toolCalls?.find((c) => c.id === callId) : undefined;
      if (!call?.output || call.output.typed === true) return;
      this.edit((d) => {
        const m = d.context.messages.find((x) => x.id === messageId);
        const c = m?.role === 'assistant' ? m.toolCalls?.find((x) => x.id === callId) : undefined;
        if (c?.output) c.output.typed = true;
      }, key);
    };
  }

  /** The message `id` of the document: the one last found if still there, else looked up again. */
  private messageMap(id: string): Y.Map<unknown> | undefined {
    const known = this.messageMaps.get(id);
    if (known && known.doc === this.ydoc && known.get('id') === id && alive(known)) return known;
    this.messageMaps = new Map();
    for (const m of this.types.messages) {
      const mid = m instanceof Y.Map ? m.get('id') : undefined;
      if (typeof mid === 'string' && !this.messageMaps.has(mid)) this.messageMaps.set(mid, m);
    }
    return this.messageMaps.get(id);
  }

  /** The host is in reach (undo and redo wait while it is not, as the window's actions do). */
  private get reachable(): boolean {
    return (this.host.connection?.().state ?? 'open') === 'open';
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
      canUndo: this.undoHistory?.canUndo ?? false,
      canRedo: this.undoHistory?.canRedo ?? false,
      version: this.sync?.version ?? this.meta.version,
    });
  }

  /**
   * Edit the thread. `key` names the field for undo merging (typing in one field within
   * 800 ms is one step). Returns false when the thread is read-only or nothing changed. A
   * thread that repeats message or tool call ids takes only an edit that leaves none
   * (repeated-ids.ts); the host refuses the others too. Removing an array item is a Yjs
   * delete; moving one is a delete and an insert of a copy (Yjs has no move).
   */
  edit(recipe: (draft: Draft<Thread>) => void, key?: string): boolean {
    if (this.readOnly) return false;
    const before = this.thread;
    const [next, patches] = produceWithPatches(before, recipe);
    if (patches.length === 0 || keepsRepeats(before, next)) return false;
    this.store.set(this.threadAtom, next);
    this.undoHistory.step(key);
    try {
      this.ydoc.transact(() => applyPatchesToY(this.ydoc, patches, before, next), this.local);
    } catch (err) {
      // The document and the thread disagree (a bug): start again from the host's copy.
      this.setMeta({ error: { message: `The edit could not be made: ${(err as Error).message}. The thread is reloaded.` } });
      void this.reload();
      return false;
    }
    this.setMeta({});
    return true;
  }

  /** Undo this window's last step (sent to the host as an ordinary update). */
  undo(): boolean {
    return this.travel('undo');
  }

  /** Redo the last undone step. */
  redo(): boolean {
    return this.travel('redo');
  }

  /**
   * Undo or redo one step. A run's result undone is listed in `undoneRuns` until redone. On a
   * thread that repeats ids, a step that would keep them is taken back at once (refused).
   */
  private travel(direction: 'undo' | 'redo'): boolean {
    if (this.readOnly) return false;
    const before = this.thread;
    const step = direction === 'undo' ? this.undoHistory.undo() : this.undoHistory.redo();
    if (!step) return false;
    if (keepsRepeats(before, this.thread)) {
      // It would keep ids repeated (the host refuses that too): taken back, the step stays where it was.
      if (direction === 'undo') this.undoHistory.redo();
      else this.undoHistory.undo();
      return false;
    }
    const { runId } = step;
    const others = this.meta.undoneRuns.filter((r) => r !== runId);
    const undoneRuns = !runId ? this.meta.undoneRuns : direction === 'undo' ? [...others, runId] : others;
    this.setMeta({ undoneRuns });
    return true;
  }

  /** The thread's file is now at `path` (workspace-relative): renamed or moved. */
  setPath(path: string): void {
    if (this.meta.path !== path) this.setMeta({ path });
  }

  /**
   * The thread's running run (undefined: none). `later`: render it as a transition (a run's
   * end: the whole thread turns editable again, in slices); a run's start is shown at once.
   */
  setRunning(runId: string | undefined, later = false): void {
    if (later) startTransition(() => this.setMeta({ runningRunId: runId }));
    else this.setMeta({ runningRunId: runId });
  }

  /** A `thread_update` from the host: another window's change, a run's result, the file changed outside, a revert. */
  applyRemote(push: ThreadUpdate): void {
    this.sync.applyRemote(push);
  }

  /** The connection to the host came back: join the host's document again. */
  resync(): void {
    void this.sync.resync();
  }

  /**
   * Take up this session again (the window switched back to its thread) from the host's copy
   * `opened`: kept, with its undo history, when that copy is the same host document;
   * otherwise false, and the caller starts a new session.
   */
  resume(opened: OpenedThread): boolean {
    return this.sync.resume(opened);
  }

  /** Load the host's copy again; the undo history is dropped. */
  reload(): Promise<void> {
    return this.sync.reload();
  }
}
