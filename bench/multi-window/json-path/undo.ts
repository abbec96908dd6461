/* The JSON path as it was before the Yjs migration, kept for the multi-window benchmark only (docs/architecture.md#multi-window-editing). */
/**
 * Undo history of one thread (docs/architecture.md#edits-and-undo). A step holds the forward and inverse Immer patches of
 * an edit, never a copy of the thread. Consecutive edits of one field within `mergeMs` merge
 * into one step (typing is one step); a run's result is one step and never merges. The history
 * is capped by step count and by the bytes of images that only the history still references
 * (images the current thread uses are free). Run records are not in the document, so undo
 * never rewinds run history.
 */
import type { Patch } from 'immer';
import { compact, expand, invertText, sameReplaceTargets, splice, type StoredPatch, type TextPatch } from './text-patch';

const NONE: StoredPatch[] = [];
const NO_IMAGES: string[] = [];

/** Which way a step is taken: back (`undo`, its inverse patches) or forward again (`redo`). */
export type UndoDirection = 'undo' | 'redo';

/** One step as {@link UndoHistory.take} hands it out: the ordinary Immer patches to apply. */
export interface UndoStep {
  /** The step's inverse patches for `undo`, its forward patches for `redo`. */
  patches: Patch[];
  origin: 'edit' | 'run';
  /** For a run's result: the run. */
  runId?: string;
}

/** A step as the history keeps it: sealed steps hold text edits as splices. */
interface StoredStep {
  forward: StoredPatch[];
  inverse: StoredPatch[];
  /** Compacted (no longer the top step that typing merges into). */
  sealed?: boolean;
  /** Every patch is a text splice: `inverse` is derived from `forward` and not stored. */
  textOnly?: boolean;
  /** Field key for merging (e.g. `messages/<id>/content/0/text`); none = never merges. */
  key?: string;
  /** ms timestamp of the last edit merged into this step. */
  at: number;
  origin: 'edit' | 'run';
  runId?: string;
  /** Base64 image data strings the step's patches carry. */
  images: string[];
}

export interface UndoOptions {
  /** Maximum steps kept (undo + redo). Default 500. */
  maxSteps?: number;
  /** Budget for image bytes referenced only by the history. Default 64 MiB. */
  maxImageBytes?: number;
  /** Merge window for edits of one field, ms. Default 800. */
  mergeMs?: number;
  now?: () => number;
}

/** Decoded byte size of a base64 string. */
export function base64Bytes(data: string): number {
  const pad = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - pad);
}

/** Every image `data` string inside a value (image parts: `{ type: 'image', data }`). */
export function collectImages(value: unknown, out: Set<string> = new Set(), depth = 0): Set<string> {
  if (depth > 64 || value === null || typeof value !== 'object') return out;
  if (Array.isArray(value)) {
    for (const v of value) collectImages(v, out, depth + 1);
    return out;
  }
  const o = value as Record<string, unknown>;
  if (o.type === 'image' && typeof o.data === 'string') {
    out.add(o.data);
    return out;
  }
  for (const v of Object.values(o)) collectImages(v, out, depth + 1);
  return out;
}

function patchImages(patches: StoredPatch[]): Set<string> {
  const s = new Set<string>();
  for (const p of patches) if (p.op !== 'text' && 'value' in p) collectImages(p.value, s);
  return s;
}

/** Undo/redo stacks with merging and caps. */
export class UndoHistory {
  private undoStack: StoredStep[] = [];
  private redoStack: StoredStep[] = [];
  private readonly maxSteps: number;
  private readonly maxImageBytes: number;
  private readonly mergeMs: number;
  private readonly now: () => number;

  constructor(opts: UndoOptions = {}) {
    this.maxSteps = Math.max(1, opts.maxSteps ?? 500);
    this.maxImageBytes = opts.maxImageBytes ?? 64 * 1024 * 1024;
    this.mergeMs = opts.mergeMs ?? 800;
    this.now = opts.now ?? Date.now;
  }

  get canUndo(): boolean {
    return this.undoStack.length > 0;
  }
  get canRedo(): boolean {
    return this.redoStack.length > 0;
  }
  get undoCount(): number {
    return this.undoStack.length;
  }
  get redoCount(): number {
    return this.redoStack.length;
  }

  /**
   * Record an edit. `key` names the edited field; an edit of the same field within the merge
   * window extends the top step instead of adding one. `current` is the thread after the edit
   * (for the image budget). A new edit clears the redo stack.
   */
  record(forward: Patch[], inverse: Patch[], opts: { key?: string; origin?: 'edit' | 'run'; runId?: string; current?: unknown } = {}): void {
    if (forward.length === 0) return;
    const now = this.now();
    const origin = opts.origin ?? 'edit';
    const top = this.undoStack[this.undoStack.length - 1];
    this.redoStack = [];
    if (top && !top.sealed && origin === 'edit' && top.origin === 'edit' && opts.key && top.key === opts.key && now - top.at <= this.mergeMs) {
      // Typing: the merged step goes from the first edit's old value to the latest new one.
      if (sameReplaceTargets(top.forward, forward)) {
        top.forward = forward;
      } else {
        top.forward = top.forward.concat(forward);
        top.inverse = [...inverse, ...top.inverse];
      }
      top.at = now;
      top.images = [...new Set([...top.images, ...patchImages(forward), ...patchImages(inverse)])];
    } else {
      if (top) this.seal(top);
      this.undoStack.push({
        forward,
        inverse,
        key: origin === 'edit' ? opts.key : undefined,
        at: now,
        origin,
        ...(opts.runId ? { runId: opts.runId } : {}),
        images: [...new Set([...patchImages(forward), ...patchImages(inverse)])],
      });
    }
    this.enforce(opts.current);
  }

  private seal(step: StoredStep): void {
    if (step.sealed) return;
    const c = compact(step.forward, step.inverse);
    step.forward = c.forward;
    step.inverse = c.inverse;
    step.sealed = true;
    if (step.forward.every((p) => p.op === 'text') && step.inverse.length === step.forward.length && step.inverse.every((p) => p.op === 'text')) {
      step.textOnly = true;
      step.inverse = NONE;
    }
    if (step.images.length === 0) step.images = NO_IMAGES;
    step.key = undefined;
  }

  /**
   * Take the next step `direction` (the top of the undo stack, or of the redo stack) and move it
   * to the other stack. Its patches for that direction (inverse for undo, forward for redo) are
   * expanded against `current`, the document now. Throws when a text splice no longer matches
   * `current` (another window changed that text); the step has moved all the same.
   */
  take(direction: UndoDirection, current: unknown): UndoStep | undefined {
    const [from, to] = direction === 'undo' ? [this.undoStack, this.redoStack] : [this.redoStack, this.undoStack];
    const step = from.pop();
    if (!step) return undefined;
    this.seal(step); // a sealed step never merges with the next edit (a redone one was sealed when undone)
    to.push(step);
    const stored = direction === 'redo' ? step.forward : step.textOnly ? (step.forward as TextPatch[]).map(invertText).reverse() : step.inverse;
    return { patches: expand(stored, current), origin: step.origin, runId: step.runId };
  }

  /** The step the last {@link take} `took` goes back where it was: its patches were not applied. */
  putBack(took: UndoDirection): void {
    const [from, to] = took === 'undo' ? [this.redoStack, this.undoStack] : [this.undoStack, this.redoStack];
    const step = from.pop();
    if (step) to.push(step);
  }

  /**
   * Another window (or a run) changed the text at `path` from `before` to `after`. The steps'
   * splices of that text after the changed region move with it, so undoing this window's
   * typing takes out exactly that typing and keeps the other edit. Steps are sealed first (a
   * step still open for typing holds whole strings, whose undo would put back the text
   * without the other edit). A splice that overlaps the change is left: undoing it reports
   * that the text no longer matches.
   */
  rebaseText(path: (string | number)[], before: string, after: string): void {
    if (before === after) return;
    const d = splice(before, after);
    const delta = d.insert.length - d.remove.length;
    const same = (p: (string | number)[]) => p.length === path.length && p.every((k, i) => k === path[i]);
    // Only splices wholly after the change move; one that overlaps it stays, to fail its check.
    const shift = (p: StoredPatch) => {
      if (p.op === 'text' && same(p.path) && d.at + d.remove.length <= p.at) p.at += delta;
    };
    for (const step of [...this.undoStack, ...this.redoStack]) {
      this.seal(step);
      step.forward.forEach(shift);
      step.inverse.forEach(shift);
    }
  }

  /** Drop everything (after a reload). */
  clear(): void {
    this.undoStack = [];
    this.redoStack = [];
  }

  /** Bytes of images referenced by the history and not by `current`. */
  historyImageBytes(current?: unknown): number {
    // No image in the history (the usual case): nothing to weigh, and no walk of the whole
    // thread, which a run's result of thousands of messages paid for on every step it recorded.
    const steps = [...this.undoStack, ...this.redoStack];
    if (steps.every((s) => s.images.length === 0)) return 0;
    const live = current === undefined ? new Set<string>() : collectImages(current);
    const seen = new Set<string>();
    let bytes = 0;
    for (const s of steps)
      for (const img of s.images) {
        if (live.has(img) || seen.has(img)) continue;
        seen.add(img);
        bytes += base64Bytes(img);
      }
    return bytes;
  }

  /** Apply the caps: oldest undo steps go first, then the farthest redo steps. */
  enforce(current?: unknown): void {
    while (this.undoStack.length + this.redoStack.length > this.maxSteps) this.dropOldest();
    if (this.maxImageBytes === Infinity) return;
    while (this.undoStack.length + this.redoStack.length > 0 && this.historyImageBytes(current) > this.maxImageBytes) this.dropOldest();
  }

  private dropOldest(): void {
    if (this.undoStack.length > 0) this.undoStack.shift();
    else this.redoStack.shift();
  }
}
