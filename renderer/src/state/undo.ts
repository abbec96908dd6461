/**
 * Undo history of one thread in one window (docs/architecture.md#edits-and-undo): a
 * `Y.UndoManager` over the thread's shared types that tracks only this window's own
 * transactions (its edits and its bound editors' typing) and the results of runs (origin {@link RunOrigin}), so undo takes out this
 * window's edits and never another window's. Consecutive edits of one field within `mergeMs`
 * are one step (typing); another field, or a pause, starts a new one; a run's result is one
 * step and never merges. The history keeps at most `maxSteps` undo steps (deleted items stay
 * in memory while a step holds them). Run records are not in the document, so undo never
 * rewinds run history.
 */
import * as Y from 'yjs';
import { rootList, type ThreadTypes } from '../../../shared/thread/y-thread';
import { FieldSync } from '../ui/text-binding';

export interface UndoOptions {
  /** Maximum undo steps kept. Default 500. */
  maxSteps?: number;
  /** Merge window for edits of one field, ms. Default 800. */
  mergeMs?: number;
  now?: () => number;
}

/** The origin of a run's result applied in this window (a step of its own, undoable). */
export class RunOrigin {
  constructor(readonly runId: string) {}
}

/** One window's undo history of a thread. */
export class UndoHistory {
  readonly manager: Y.UndoManager;
  private readonly maxSteps: number;
  private readonly mergeMs: number;
  private readonly now: () => number;
  private lastKey?: string;
  private lastAt = -Infinity;
  /** The step an undo or redo put on the other stack (it carries the run id on). */
  private added?: { meta: Map<string, unknown> };

  /** `local`: the origin of this window's own transactions. */
  constructor(types: ThreadTypes, local: object, opts: UndoOptions = {}) {
    this.maxSteps = opts.maxSteps ?? 500;
    this.mergeMs = opts.mergeMs ?? 800;
    this.now = opts.now ?? (() => Date.now());
    // Merging is decided here (field and time), so the manager's own timeout never splits a step.
    // Tracked: this window's edits, its bound editors' typing (FieldSync, ui/y-binding.ts) and runs' results.
    this.manager = new Y.UndoManager(rootList(types), { trackedOrigins: new Set<unknown>([local, FieldSync, RunOrigin]), captureTimeout: 2 ** 31 });
    this.manager.on('stack-item-added', ({ stackItem, origin, type }: { stackItem: { meta: Map<string, unknown> }; origin: unknown; type: 'undo' | 'redo' }) => {
      if (origin instanceof RunOrigin) stackItem.meta.set('runId', origin.runId);
      if (origin === this.manager) this.added = stackItem;
      const stack = type === 'undo' ? this.manager.undoStack : this.manager.redoStack;
      if (stack.length > this.maxSteps) stack.splice(0, stack.length - this.maxSteps);
    });
  }

  /**
   * Called before each edit of this window: `key` names the field (typing in one field within
   * `mergeMs` is one step); none starts a step of its own.
   */
  step(key: string | undefined): void {
    const now = this.now();
    if (key === undefined || key !== this.lastKey || now - this.lastAt > this.mergeMs) this.manager.stopCapturing();
    this.lastKey = key;
    this.lastAt = now;
  }

  /** Around a run's result: it is a step of its own. */
  seal(): void {
    this.manager.stopCapturing();
    this.lastKey = undefined;
  }

  get canUndo(): boolean {
    return this.manager.undoStack.length > 0;
  }
  get canRedo(): boolean {
    return this.manager.redoStack.length > 0;
  }
  /** Steps held (undo + redo). */
  get size(): number {
    return this.manager.undoStack.length + this.manager.redoStack.length;
  }

  /** Undo one step; false when there is none. `runId`: the step was that run's result. */
  undo(): { runId?: string } | null {
    return this.travel('undo');
  }

  /** Redo one step; false when there is none. */
  redo(): { runId?: string } | null {
    return this.travel('redo');
  }

  private travel(direction: 'undo' | 'redo'): { runId?: string } | null {
    this.seal();
    this.added = undefined;
    const item = direction === 'undo' ? this.manager.undo() : this.manager.redo();
    this.seal();
    if (!item) return null;
    const runId = item.meta.get('runId');
    const added = this.added as { meta: Map<string, unknown> } | undefined;
    if (typeof runId === 'string') added?.meta.set('runId', runId);
    return typeof runId === 'string' ? { runId } : {};
  }

  clear(): void {
    this.manager.clear();
  }

  destroy(): void {
    this.manager.destroy();
  }
}
