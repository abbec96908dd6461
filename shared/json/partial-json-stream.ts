/**
 * Incremental partial-JSON parsing for streamed text such as tool-call arguments: feed the text
 * delta by delta with {@link PartialJsonStream.push}, read the value of the text so far with
 * {@link PartialJsonStream.value}. The cost of a delta is proportional to its length, whatever
 * came before it (a resumable state machine keeps a stack of open containers and the partial
 * token); `value()` rebuilds only the open path, sharing every closed subtree.
 *
 * Results follow the `partial-json` package (`parse(text)` with `Allow.ALL`, v0.1.7) on every
 * prefix of a valid JSON text (RFC 8259):
 * - an open string shows what is decoded so far, without a cut escape (`\`, `\u12`) and without
 *   trailing whitespace (partial-json trims the text first); an open key is left out;
 * - an open number shows its value when it parses (`-1`, `1.5`), else its part before a
 *   lowercase `e` (`1e`, `1.5e-` → 1, 1.5), else nothing (`-`, `1.`, `1E`);
 * - a cut literal shows its value (`t` → true, `nu` → null);
 * - an open array or object shows its closed members plus the open one when that shows a value.
 * One deliberate difference: partial-json drops the rest of the enclosing container after an
 * empty array with whitespace inside (`{"a":[ ],"b":1}` → `{a: []}`); here it is `{a: [], b: 1}`,
 * as `JSON.parse` says.
 *
 * Text that is not a prefix of valid JSON puts the stream in an error state (reported by
 * `value()` and {@link PartialJsonStream.error}); later deltas are ignored. Browser-safe.
 */
import { hexValue, isTrimSpace, numberValue, NUM_END, numNext, ParseError, SIMPLE_ESCAPES } from './partial-json-tokens';

/** What {@link PartialJsonStream.value} returns. */
export type PartialJsonResult =
  /** The value partial-json would return for the text so far. */
  | { ok: true; value: unknown }
  /** Nothing to show yet: the text is empty or blank, or its only value is cut where nothing
   * parses (`-`, `1.`); partial-json throws on such text. */
  | { ok: false; reason: 'incomplete' }
  /** The text is not a prefix of valid JSON; `message` says what was wrong and where. */
  | { ok: false; reason: 'invalid'; message: string };

/** Work done so far, in units that do not depend on timing (tests use them). */
export interface PartialJsonWork {
  /** Character reads by `push`: each character of each delta once, plus one re-read of the
   * character that ends a number. */
  scanned: number;
  /** Containers rebuilt plus members copied by `value()`. */
  built: number;
}

type Frame = ArrayFrame | ObjectFrame;
interface ArrayFrame {
  array: true;
  items: unknown[];
}
interface ObjectFrame {
  array: false;
  /** Closed members in arrival order, applied by assignment as partial-json does. */
  entries: [string, unknown][];
  /** The key whose value is being read (set once the key's string closed). */
  key?: string;
}

const enum Mode {
  /** Expecting a value: top level, after `:`, after `,` in an array. */
  Value,
  /** After `[`: a value or `]`. */
  ArrayFirst,
  /** After `{`: a key or `}`. */
  ObjectFirst,
  /** After `,` in an object: a key. */
  Key,
  /** After a key: `:`. */
  Colon,
  /** After a member: `,` or the closing bracket. */
  After,
  String,
  Number,
  Literal,
  /** The top-level value is complete: only whitespace may follow. */
  Done,
  Error,
}

const LITERALS: Record<string, { word: string; value: unknown }> = {
  t: { word: 'true', value: true },
  f: { word: 'false', value: false },
  n: { word: 'null', value: null },
};

/** Incremental parser of one growing JSON text (see the module comment). */
export class PartialJsonStream {
  private mode = Mode.Value;
  private readonly stack: Frame[] = [];
  private root: unknown;
  private err?: string;
  /** Characters pushed so far. */
  private pos = 0;

  // The open string: decoded text up to its last non-space character, then the trailing run of
  // raw spaces (kept apart so showing the trimmed value never copies the text).
  private strHead = '';
  private strSpace = '';
  private strIsKey = false;
  /** 0: none; 1: after `\`; 2–5: inside `\u` with (n - 2) hex digits read. */
  private esc = 0;
  private uAcc = 0;

  // The open number or literal.
  private numText = '';
  private numState = 0;
  private lit = LITERALS.t;
  private litPos = 0;

  private cached?: PartialJsonResult;
  /** See {@link PartialJsonWork}. */
  readonly work: PartialJsonWork = { scanned: 0, built: 0 };

  /** Characters pushed so far. */
  get length(): number {
    return this.pos;
  }

  /** Why the text is not a prefix of valid JSON, once it is not. */
  get error(): string | undefined {
    return this.err;
  }

  /** Append `delta` to the text. After an error the delta is ignored. */
  push(delta: string): void {
    if (delta.length === 0) return;
    this.cached = undefined;
    const start = this.pos;
    this.pos += delta.length;
    if (this.mode === Mode.Error) return;
    try {
      this.scan(delta, start);
    } catch (e) {
      if (!(e instanceof ParseError)) throw e;
      this.mode = Mode.Error;
      this.err = e.message;
    }
  }

  /** The value of the text so far (see {@link PartialJsonResult}). The same object is returned
   * until the next non-empty push; closed subtrees are shared between calls. */
  value(): PartialJsonResult {
    return (this.cached ??= this.build());
  }

  private scan(s: string, offset: number): void {
    const n = s.length;
    let i = 0;
    while (i < n) {
      if (this.mode === Mode.String) {
        i = this.scanString(s, i, offset);
        continue;
      }
      const c = s.charCodeAt(i);
      this.work.scanned++;
      switch (this.mode) {
        case Mode.Number: {
          const next = numNext(this.numState, c);
          if (next >= 0) {
            this.numState = next;
            this.numText += s[i];
            i++;
            continue;
          }
          if (!NUM_END[this.numState]) throw unexpected(s, i, offset, 'a digit');
          this.close(Number(this.numText));
          continue; // the character that ended the number is read again
        }
        case Mode.Literal:
          if (s[i] !== this.lit.word[this.litPos]) throw unexpected(s, i, offset, `"${this.lit.word}"`);
          if (++this.litPos === this.lit.word.length) this.close(this.lit.value);
          i++;
          continue;
        case Mode.Done:
          if (!isTrimSpace(c)) throw unexpected(s, i, offset, 'the end of the text');
          i++;
          continue;
        default:
          this.structural(s, i, c, offset);
          i++;
      }
    }
  }

  /** Whitespace and punctuation between tokens, and the first character of a token. */
  private structural(s: string, i: number, c: number, offset: number): void {
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) return;
    const top = this.stack[this.stack.length - 1];
    switch (this.mode) {
      case Mode.Value:
        // partial-json trims the text, so any JS whitespace may come before the top-level value.
        if (!top && isTrimSpace(c)) return;
        return this.startValue(s, i, c, offset);
      case Mode.ArrayFirst:
        if (c === 0x5d) return this.close(this.pop<ArrayFrame>().items);
        return this.startValue(s, i, c, offset);
      case Mode.ObjectFirst:
        if (c === 0x7d) return this.close(this.closeObject(this.pop<ObjectFrame>()));
        return this.startKey(s, i, c, offset);
      case Mode.Key:
        return this.startKey(s, i, c, offset);
      case Mode.Colon:
        if (c !== 0x3a) throw unexpected(s, i, offset, '":"');
        this.mode = Mode.Value;
        return;
      case Mode.After:
        if (c === 0x2c) {
          this.mode = top.array ? Mode.Value : Mode.Key;
          return;
        }
        if (top.array && c === 0x5d) return this.close(this.pop<ArrayFrame>().items);
        if (!top.array && c === 0x7d) return this.close(this.closeObject(this.pop<ObjectFrame>()));
        throw unexpected(s, i, offset, top.array ? '"," or "]"' : '"," or "}"');
    }
  }

  private startValue(s: string, i: number, c: number, offset: number): void {
    if (c === 0x22) return this.openString(false);
    if (c === 0x5b) {
      this.stack.push({ array: true, items: [] });
      this.mode = Mode.ArrayFirst;
      return;
    }
    if (c === 0x7b) {
      this.stack.push({ array: false, entries: [] });
      this.mode = Mode.ObjectFirst;
      return;
    }
    const lit = LITERALS[s[i]];
    if (lit) {
      this.lit = lit;
      this.litPos = 1;
      this.mode = Mode.Literal;
      return;
    }
    const num = numNext(0, c);
    if (num >= 0) {
      this.numState = num;
      this.numText = s[i];
      this.mode = Mode.Number;
      return;
    }
    throw unexpected(s, i, offset, 'a value');
  }

  private startKey(s: string, i: number, c: number, offset: number): void {
    if (c !== 0x22) throw unexpected(s, i, offset, 'a key (a string)');
    this.openString(true);
  }

  private openString(isKey: boolean): void {
    this.strHead = '';
    this.strSpace = '';
    this.strIsKey = isKey;
    this.esc = 0;
    this.mode = Mode.String;
  }

  /** Reads string content from `s[i]`; returns the index after what it read. */
  private scanString(s: string, i: number, offset: number): number {
    const n = s.length;
    const from = i;
    while (i < n && this.esc > 0) this.escapeChar(s, i++, offset);
    // A run of plain characters is appended as one slice.
    const run = i;
    let lastSolid = -1;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c === 0x22 || c === 0x5c) break;
      if (c < 0x20) throw unexpected(s, i, offset, 'a string character (control characters must be escaped)');
      if (!isTrimSpace(c)) lastSolid = i;
    }
    if (lastSolid >= 0) {
      this.strHead += this.strSpace + s.slice(run, lastSolid + 1);
      this.strSpace = s.slice(lastSolid + 1, i);
    } else if (i > run) {
      this.strSpace += s.slice(run, i);
    }
    this.work.scanned += Math.min(i + 1, n) - from;
    if (i === n) return i;
    if (s.charCodeAt(i) === 0x5c) {
      this.esc = 1;
      return i + 1;
    }
    // The closing quote.
    const text = this.strHead + this.strSpace;
    this.strHead = this.strSpace = '';
    if (this.strIsKey) {
      (this.stack[this.stack.length - 1] as ObjectFrame).key = text;
      this.mode = Mode.Colon;
    } else {
      this.close(text);
    }
    return i + 1;
  }

  /** One character of an escape sequence (after `\`); a complete escape adds its character. */
  private escapeChar(s: string, i: number, offset: number): void {
    const c = s.charCodeAt(i);
    let ch: string;
    if (this.esc === 1) {
      if (c === 0x75) {
        this.esc = 2;
        this.uAcc = 0;
        return;
      }
      const simple = SIMPLE_ESCAPES[s[i]];
      if (simple === undefined) throw unexpected(s, i, offset, 'an escape character (one of "\\/bfnrtu)');
      ch = simple;
    } else {
      const h = hexValue(c);
      if (h < 0) throw unexpected(s, i, offset, 'a hex digit of a \\u escape');
      this.uAcc = this.uAcc * 16 + h;
      if (++this.esc < 6) return;
      ch = String.fromCharCode(this.uAcc);
    }
    this.esc = 0;
    // An escaped character is never trimmed, even an escaped space.
    this.strHead += this.strSpace + ch;
    this.strSpace = '';
  }

  private pop<F extends Frame>(): F {
    return this.stack.pop() as F;
  }

  private closeObject(f: ObjectFrame): Record<string, unknown> {
    const o: Record<string, unknown> = {};
    for (const [k, v] of f.entries) o[k] = v;
    return o;
  }

  /** A value ended: it becomes the root or a member of the open container. */
  private close(v: unknown): void {
    const top = this.stack[this.stack.length - 1];
    if (!top) {
      this.root = v;
      this.mode = Mode.Done;
      return;
    }
    if (top.array) top.items.push(v);
    else {
      top.entries.push([top.key!, v]);
      top.key = undefined;
    }
    this.mode = Mode.After;
  }

  private build(): PartialJsonResult {
    if (this.mode === Mode.Error) return { ok: false, reason: 'invalid', message: this.err! };
    if (this.mode === Mode.Done) return { ok: true, value: this.root };
    let has = false;
    let v: unknown;
    if (this.mode === Mode.String && !this.strIsKey) {
      has = true;
      // partial-json trims the text: trailing spaces go, unless a cut escape follows them.
      v = this.esc > 0 ? this.strHead + this.strSpace : this.strHead;
    } else if (this.mode === Mode.Number) {
      const num = numberValue(this.numText, this.numState);
      if (num !== undefined) {
        has = true;
        v = num;
      }
    } else if (this.mode === Mode.Literal) {
      has = true;
      v = this.lit.value;
    }
    for (let d = this.stack.length - 1; d >= 0; d--) {
      const f = this.stack[d];
      if (f.array) {
        const items = f.items.slice();
        if (has) items.push(v);
        v = items;
        this.work.built += 1 + items.length;
      } else {
        const o = this.closeObject(f);
        if (has && f.key !== undefined) o[f.key] = v;
        v = o;
        this.work.built += 1 + f.entries.length;
      }
      has = true;
    }
    return has ? { ok: true, value: v } : { ok: false, reason: 'incomplete' };
  }
}

function unexpected(s: string, i: number, offset: number, expected: string): ParseError {
  return new ParseError(`unexpected ${JSON.stringify(s[i])} at offset ${offset + i}: expected ${expected}`);
}
