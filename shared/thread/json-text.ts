/**
 * JSON text parsing with errors a person can find: line and column (1-based) of the first
 * problem, and whether the text simply ends early (a truncated file). `JSON.parse` does the
 * parsing; only when it fails does a small scanner walk the text to locate the problem, because
 * V8's messages do not always carry a position. Browser-safe.
 */

/** Where and why JSON text failed to parse. */
export interface JsonSyntaxProblem {
  /** 0-based UTF-16 offset of the problem. */
  offset: number;
  line: number;
  column: number;
  /** The text ended before the JSON value was complete. */
  truncated: boolean;
  /** e.g. `expected ',' or '}' after a property value, found 'x'`. */
  message: string;
}

export type JsonParseResult = { ok: true; value: unknown } | { ok: false; problem: JsonSyntaxProblem };

/** Parses JSON text (a leading UTF-8 BOM is ignored). Never throws. */
export function parseJsonText(text: string): JsonParseResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (err) {
    const found = locateJsonError(body);
    if (found) return { ok: false, problem: found };
    // The scanner accepted what JSON.parse refused: report V8's words without a position.
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, problem: { offset: 0, line: 1, column: 1, truncated: false, message } };
  }
}

/** Finds the first syntax error in `text`, or undefined when the text is valid JSON. */
export function locateJsonError(text: string): JsonSyntaxProblem | undefined {
  const s = new Scanner(text);
  try {
    s.ws();
    if (s.i >= text.length) s.fail('the file is empty: expected a JSON value');
    s.value();
    s.ws();
    if (s.i < text.length) s.fail(`unexpected ${s.here()} after the end of the JSON value`);
    return undefined;
  } catch (e) {
    if (e instanceof Located) return e.problem;
    throw e;
  }
}

class Located {
  constructor(readonly problem: JsonSyntaxProblem) {}
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

class Scanner {
  i = 0;
  /** Cached position of the next backslash at or after `i` (-1: none left), so scanning stays linear. */
  private nextBackslash = -2;
  constructor(private readonly t: string) {}

  fail(message: string): never {
    const truncated = this.i >= this.t.length;
    const { line, column } = lineColumn(this.t, Math.min(this.i, this.t.length));
    throw new Located({
      offset: this.i,
      line,
      column,
      truncated,
      message: truncated && this.t.trim() !== '' ? `the text ends early (truncated?): ${message}` : message,
    });
  }

  here(): string {
    if (this.i >= this.t.length) return 'end of file';
    return `'${this.t[this.i]}'`;
  }

  ws(): void {
    while (this.i < this.t.length && WS.has(this.t.charCodeAt(this.i))) this.i++;
  }

  value(): void {
    const c = this.t[this.i];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    for (const word of ['true', 'false', 'null']) {
      if (this.t.startsWith(word, this.i)) {
        this.i += word.length;
        return;
      }
      const rest = this.t.slice(this.i);
      if (rest.length < word.length && word.startsWith(rest) && rest.length > 0) {
        this.i = this.t.length;
        this.fail(`expected '${word}'`);
      }
    }
    this.fail(`expected a value, found ${this.here()}`);
  }

  object(): void {
    this.i++;
    this.ws();
    if (this.t[this.i] === '}') {
      this.i++;
      return;
    }
    for (;;) {
      this.ws();
      if (this.t[this.i] !== '"') this.fail(`expected a double-quoted property name, found ${this.here()}`);
      this.string();
      this.ws();
      if (this.t[this.i] !== ':') this.fail(`expected ':' after the property name, found ${this.here()}`);
      this.i++;
      this.ws();
      if (this.i >= this.t.length) this.fail('expected a value');
      this.value();
      this.ws();
      const c = this.t[this.i];
      if (c === ',') {
        this.i++;
        continue;
      }
      if (c === '}') {
        this.i++;
        return;
      }
      this.fail(`expected ',' or '}' after a property value, found ${this.here()}`);
    }
  }

  array(): void {
    this.i++;
    this.ws();
    if (this.t[this.i] === ']') {
      this.i++;
      return;
    }
    for (;;) {
      this.ws();
      if (this.i >= this.t.length) this.fail('expected a value');
      this.value();
      this.ws();
      const c = this.t[this.i];
      if (c === ',') {
        this.i++;
        continue;
      }
      if (c === ']') {
        this.i++;
        return;
      }
      this.fail(`expected ',' or ']' after an array element, found ${this.here()}`);
    }
  }

  string(): void {
    // Fast path: jump from quote to the next quote or backslash (large base64 strings).
    this.i++;
    for (;;) {
      const q = this.t.indexOf('"', this.i);
      if (this.nextBackslash !== -1 && this.nextBackslash < this.i) this.nextBackslash = this.t.indexOf('\\', this.i);
      const b = this.nextBackslash;
      if (q < 0) {
        this.i = this.t.length;
        this.fail("expected '\"' to close the string");
      }
      const ctl = firstControl(this.t, this.i, b >= 0 && b < q ? b : q);
      if (ctl >= 0) {
        this.i = ctl;
        this.fail('unescaped control character in a string');
      }
      if (b >= 0 && b < q) {
        this.i = b + 1;
        const e = this.t[this.i];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.t.slice(this.i + 1, this.i + 5))) {
            if (this.i + 5 > this.t.length) this.i = this.t.length;
            this.fail('expected four hex digits after \\u');
          }
          this.i += 5;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          this.i++;
        } else {
          this.fail(`invalid escape '\\${e ?? ''}' in a string`);
        }
        continue;
      }
      this.i = q + 1;
      return;
    }
  }

  number(): void {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.t.slice(this.i, this.i + 400));
    if (!m) {
      if (this.t[this.i] === '-' && this.i + 1 >= this.t.length) {
        this.i++;
        this.fail('expected a digit');
      }
      this.fail(`invalid number at ${this.here()}`);
    }
    this.i += m[0].length;
    const next = this.t[this.i];
    if (next === '.' || next === 'e' || next === 'E') {
      if (this.i + 1 >= this.t.length) this.i = this.t.length;
      this.fail('incomplete number');
    }
  }
}

function firstControl(t: string, from: number, to: number): number {
  for (let i = from; i < to; i++) if (t.charCodeAt(i) < 0x20) return i;
  return -1;
}

/** 1-based line and column of a 0-based offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
