/**
 * JSON text parsing with errors a person can find: line and column (1-based) of the first
 * problem, and whether the text simply ends early (a truncated file). `JSON.parse` does the
 * parsing; only when it fails does `jsonc-parser` (VS Code's JSON scanner, in strict JSON
 * mode) locate the problem, because V8's messages do not always carry a position.
 * Browser-safe.
 */
import { parse as scan, printParseErrorCode, type ParseError } from 'jsonc-parser';

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

function found(text: string, offset: number): string {
  if (offset >= text.length) return 'the end of the text';
  const m = /^[A-Za-z0-9_$.+-]+/.exec(text.slice(offset, offset + 20));
  return `'${m ? m[0] : text[offset]}'`;
}

function describe(e: ParseError, text: string): string {
  const here = found(text, e.offset);
  switch (printParseErrorCode(e.error)) {
    case 'ValueExpected':
      return `expected a value, found ${here}`;
    case 'PropertyNameExpected':
      return `expected a double-quoted property name, found ${here}`;
    case 'ColonExpected':
      return `expected ':' after the property name, found ${here}`;
    case 'CommaExpected':
      return containerAt(text, e.offset) === '{' ? `expected ',' or '}' after a property value, found ${here}` : `expected ',' or ']' after an array element, found ${here}`;
    case 'CloseBraceExpected':
      return `expected ',' or '}' after a property value, found ${here}`;
    case 'CloseBracketExpected':
      return `expected ',' or ']' after an array element, found ${here}`;
    case 'EndOfFileExpected':
      return `unexpected ${here} after the end of the JSON value`;
    case 'InvalidCommentToken':
      return 'comments are not allowed in JSON';
    case 'UnexpectedEndOfString':
      return 'a string is not closed';
    case 'UnexpectedEndOfNumber':
    case 'InvalidNumberFormat':
      return `invalid number at ${here}`;
    case 'InvalidUnicode':
    case 'InvalidEscapeCharacter':
      return `invalid escape sequence in a string at ${here}`;
    case 'InvalidCharacter':
      return `a control character inside a string at ${here} (escape it)`;
    default:
      return `unexpected ${here}`;
  }
}

/** The innermost open `{` or `[` at `offset` (strings skipped); only run on an error. */
function containerAt(text: string, offset: number): '{' | '[' | undefined {
  const stack: ('{' | '[')[] = [];
  for (let i = 0; i < offset; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < offset && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '{' || c === '[') stack.push(c);
    else if (c === '}' || c === ']') stack.pop();
  }
  return stack[stack.length - 1];
}

/** 1-based line and column of a UTF-16 offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/** Finds the first syntax error in `text`, or undefined when the text is valid JSON. */
export function locateJsonError(text: string): JsonSyntaxProblem | undefined {
  if (text.trim() === '') return { offset: 0, line: 1, column: 1, truncated: false, message: 'the file is empty: expected a JSON value' };
  const errors: ParseError[] = [];
  scan(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  return firstProblem(text, errors);
}

/**
 * Parses JSON with comments and trailing commas (JSONC: what VS Code and Cursor accept), with
 * the same errors as {@link parseJsonText}. A leading UTF-8 BOM is ignored. Never throws.
 */
export function parseJsoncText(text: string): JsonParseResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') return { ok: false, problem: { offset: 0, line: 1, column: 1, truncated: false, message: 'the file is empty: expected a JSON value' } };
  const errors: ParseError[] = [];
  const value: unknown = scan(body, errors, { disallowComments: false, allowTrailingComma: true, allowEmptyContent: false });
  const problem = firstProblem(body, errors);
  return problem ? { ok: false, problem } : { ok: true, value };
}

/** The first of the scanner's `errors` in `text`, said as a person can find it. */
function firstProblem(text: string, errors: ParseError[]): JsonSyntaxProblem | undefined {
  if (errors.length === 0) return undefined;
  const end = text.trimEnd().length;
  // Cut short only when the first problem is at the end: an earlier one is the real fault
  // (`{ not json` is an unquoted name at column 3, not a truncated file).
  const first = errors[0];
  const cut = first.offset >= end ? first : printParseErrorCode(first.error) === 'UnexpectedEndOfString' ? { ...first, offset: text.length } : undefined;
  const e = cut ?? errors[0];
  const offset = Math.min(e.offset, text.length);
  const message = cut ? `the text ends early (truncated?): ${describe(e, text)}` : describe(e, text);
  return { offset, ...lineColumn(text, offset), truncated: !!cut, message };
}
