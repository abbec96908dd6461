/**
 * Splits a command line's arguments the way a POSIX shell does for quoting: unquoted
 * whitespace separates words; 'single quotes' keep everything literally; "double quotes"
 * keep whitespace, and in them a backslash escapes only `"`, `\`, `$` and `` ` ``; outside
 * quotes a backslash escapes the next character. Quotes group, and are removed, so
 * `--x="a b" c` is `--x=a b` and `c`. No variables, globs or other expansion.
 */

export type SplitArgsResult = { ok: true; args: string[] } | { ok: false; error: string };

/** Characters a backslash escapes inside double quotes (elsewhere it stays a backslash). */
const DOUBLE_QUOTE_ESCAPES = new Set(['"', '\\', '$', '`']);

/** Splits `line` into arguments; an unterminated quote or a trailing backslash is an error naming where. */
export function splitArgs(line: string): SplitArgsResult {
  const args: string[] = [];
  let word = '';
  /** The current word has begun (so `''` is an empty argument, not nothing). */
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (inWord) args.push(word);
      word = '';
      inWord = false;
    } else if (c === '\\') {
      if (i + 1 >= line.length) return { ok: false, error: `A backslash at the end (column ${i + 1}) escapes nothing: write \\\\ for a backslash` };
      word += line[++i];
      inWord = true;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) return { ok: false, error: `The single quote at column ${i + 1} is not closed` };
      word += line.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (c === '"') {
      const start = i;
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === '\\' && i + 1 < line.length && DOUBLE_QUOTE_ESCAPES.has(line[i + 1])) i++;
        word += line[i];
      }
      if (i >= line.length) return { ok: false, error: `The double quote at column ${start + 1} is not closed` };
      inWord = true;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) args.push(word);
  return { ok: true, args };
}
