/**
 * Text from input (dataset case ids, variant names, error messages and assertion reasons that
 * quote it) made safe to print on a terminal: control characters are shown as visible escapes
 * (`\u001b`, `\r`…) so a dataset cannot move the cursor, erase a line or recolour the output
 * (e.g. a case id holding `\r\u001b[2KPASS` turning an ERROR line into a PASS line).
 */

/** C0 controls, DEL and C1 controls (U+0080–U+009F), and the line/paragraph separators. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
/** The same, except line feed and tab. */
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const escape = (c: string): string => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** One field on one line (a case id, a variant name): every control character escaped, line feeds and tabs included. */
export function terminalField(s: string): string {
  return s.replace(CONTROL, escape);
}

/** Text that may span lines (a message of several problems): control characters escaped except line feeds and tabs. */
export function terminalText(s: string): string {
  return s.replace(CONTROL_BUT_LINES, escape);
}
