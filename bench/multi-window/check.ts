/**
 * What the multi-window runs check, on texts whose every character is unique (each keystroke
 * types a character no one else types): the properties of the two-windows tests
 * (renderer/src/state/two-windows-sync.test.ts) — the windows converge on the host's
 * document and every typed character is there once, in the order it was typed — widened to
 * deletes at any position: a character someone deleted stays deleted ("resurrected"
 * otherwise), one nobody deleted stays ("lost"), and two characters any window ever showed in
 * one order keep that order ("reordered").
 */
import { splice } from '../../shared/thread/text-splice';
import type { Model } from './model';

/** Window `w`'s `k`-th typed character: a block of code points per window, all in the BMP. */
export function uniqueChar(w: number, k: number): string {
  const blocks = [0x4e00, 0xac00, 0x1100];
  if (w >= blocks.length || k >= 10_000) throw new Error(`no unique character for window ${w}, key ${k}`);
  return String.fromCodePoint(blocks[w] + k);
}

/** A base text of `n` unique characters from the `from`-th on, none of which any window types. */
export function uniqueBase(n: number, from = 0): string {
  if (from + n > 6_000) throw new Error(`unique base texts have 6,000 characters, not ${from + n}`);
  return Array.from({ length: n }, (_, i) => String.fromCodePoint(0x3400 + from + i)).join('');
}

/** `s` with unique characters shown readably: the base as a–z, window 0's keys as A–Z, window 1's as 0–9 (then `·`). */
export function readable(s: string | undefined): string {
  if (s === undefined) return '(message gone)';
  const show = (c: string) => {
    const n = c.codePointAt(0)!;
    const pick = (set: string, i: number) => (i < set.length ? set[i] : '·');
    if (n >= 0x4e00 && n < 0x4e00 + 10_000) return pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ', n - 0x4e00);
    if (n >= 0xac00 && n < 0xac00 + 10_000) return pick('0123456789', n - 0xac00);
    if (n >= 0x3400 && n < 0x3400 + 6_000) return pick('abcdefghijklmnopqrstuvwxyz', n - 0x3400);
    return c;
  };
  return `"${[...s].map(show).join('')}"`;
}

/**
 * Each window's cursor in the field, following the other windows' edits as CodeMirror maps a
 * cursor through a change applied as the smallest splice (ui/code-editor.tsx; `mapPos` with assoc -1):
 * a change before it shifts it, an insert at it leaves it before the inserted text, a removed
 * range around it moves it to the range's start.
 */
export class Cursors {
  readonly pos: number[];
  private seen: (string | undefined)[];

  /** `fields[w]`: the message window `w` types into; `starts[w]`: its cursor at first. */
  constructor(
    private readonly model: Model,
    private readonly fields: string[],
    starts: number[],
  ) {
    this.seen = fields.map((id, w) => model.textOf(w, id));
    this.pos = starts.map((s, w) => Math.min(s, this.seen[w]?.length ?? 0));
  }

  private text(w: number): string | undefined {
    return this.model.textOf(w, this.fields[w]);
  }

  /** Map every cursor through what changed in its window since the last call. */
  follow(): void {
    for (let w = 0; w < this.pos.length; w++) {
      const now = this.text(w);
      const was = this.seen[w];
      if (now === was) continue;
      this.seen[w] = now;
      if (now === undefined) continue;
      if (was === undefined) {
        this.pos[w] = Math.min(this.pos[w], now.length);
        continue;
      }
      const d = splice(was, now);
      const c = this.pos[w];
      const end = d.at + d.remove.length;
      if (c < d.at || (c === d.at && d.remove.length === 0)) continue;
      this.pos[w] = c < end ? d.at : c + d.insert.length - d.remove.length;
    }
  }

  /** Window `w` typed: `insert` at its cursor, after removing `removed` characters before it. */
  typed(w: number, removed: number, inserted: number): void {
    this.pos[w] += inserted - removed;
    this.seen[w] = this.text(w);
  }
}

/** Counted violations of one run. */
export interface Verdict {
  diverged: boolean;
  /** The characters lost and resurrected, for the printout. */
  missing: string[];
  extra: string[];
  lost: number;
  resurrected: number;
  duplicated: number;
  reordered: number;
  errors: string[];
}

export const clean = (v: Verdict): boolean => !v.diverged && v.lost + v.resurrected + v.duplicated + v.reordered === 0 && v.errors.length === 0;

/** Records what each window typed, deleted and showed; judges the final text. */
export class Checker {
  /** Character → the window that typed it (-1: the base text). */
  readonly typedBy = new Map<string, number>();
  /** Character → the windows that deleted it (two may delete one character at once). */
  readonly deletedBy = new Map<string, Set<number>>();
  private readonly shown: Set<string>[];

  /** Judges the text of message `field`, whose text was `base` at first. */
  constructor(
    private readonly model: Model,
    private readonly field: string,
    base: string,
  ) {
    for (const c of base) this.typedBy.set(c, -1);
    this.shown = Array.from({ length: model.windows }, () => new Set([base]));
  }

  insert(w: number, c: string): void {
    this.typedBy.set(c, w);
  }

  remove(w: number, c: string): void {
    const by = this.deletedBy.get(c) ?? new Set<number>();
    by.add(w);
    this.deletedBy.set(c, by);
  }

  /** Note what every window shows now (call after every step). */
  observe(): void {
    for (let w = 0; w < this.model.windows; w++) {
      const t = this.model.textOf(w, this.field);
      if (t !== undefined) this.shown[w].add(t);
    }
  }

  /**
   * What should remain after window `w` undid all its steps: its typing gone and its deletes
   * back; what the other windows typed and deleted kept.
   */
  afterUndo(w: number): (c: string) => boolean | undefined {
    return (c) => {
      const by = this.deletedBy.get(c) ?? new Set<number>();
      if (this.typedBy.get(c) === w) return false; // its own typing goes
      if (by.has(w) && by.size > 1) return undefined; // deleted in two windows at once: either way is right
      return by.size === 0 || by.has(w); // kept, or deleted by it and back; deleted by another: stays deleted
    };
  }

  /**
   * Judge the host's text of the field after everything settled. By default a character
   * should be there when nobody deleted it; `expect` may say otherwise (after an undo), or
   * return undefined where either is right.
   */
  verdict(expect: (c: string) => boolean | undefined = (c) => !this.deletedBy.has(c)): Verdict {
    const final = this.model.hostTextOf(this.field);
    const v: Verdict = { diverged: false, missing: [], extra: [], lost: 0, resurrected: 0, duplicated: 0, reordered: 0, errors: this.model.errors() };
    const host = this.model.hostThreadJson();
    for (let w = 0; w < this.model.windows; w++) if (this.model.threadJson(w) !== host) v.diverged = true;
    const text = final ?? '';
    const at = new Map<string, number>();
    [...text].forEach((c, i) => {
      if (at.has(c)) v.duplicated++;
      at.set(c, i);
    });
    for (const c of this.typedBy.keys()) {
      const want = expect(c);
      if (want === false && at.has(c)) v.extra.push(c);
      else if (want === true && !at.has(c)) v.missing.push(c);
    }
    v.lost = v.missing.length;
    v.resurrected = v.extra.length;
    for (const views of this.shown)
      for (const view of views) {
        let last = -1;
        for (const c of view) {
          const i = at.get(c);
          if (i === undefined) continue;
          if (i < last) {
            v.reordered++;
            break;
          }
          last = i;
        }
      }
    return v;
  }
}
