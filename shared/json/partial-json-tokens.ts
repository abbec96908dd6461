/**
 * Token-level pieces of {@link PartialJsonStream} (`partial-json-stream.ts`): the number grammar
 * of RFC 8259 §6 as a state machine, the value partial-json gives a cut number, escapes (§7) and
 * the whitespace `String.prototype.trim` removes. Browser-safe.
 */

/** The text is not a prefix of valid JSON. The message names what was found and where. */
export class ParseError extends Error {}

/**
 * Number states: 1 after `-`, 2 a leading `0`, 3 integer digits, 4 after `.`, 5 fraction digits,
 * 6 after `e`/`E`, 7 after the exponent's sign, 8 exponent digits (0 is "before the number").
 */
const enum N {
  Start,
  Sign,
  Zero,
  Int,
  Dot,
  Frac,
  Exp,
  ExpSign,
  ExpDigits,
}

/** States in which the number may end (the text so far is a whole number). */
export const NUM_END: readonly boolean[] = [false, false, true, true, false, true, false, false, true];

/** The state after reading character code `c` in number state `state`, or -1 when `c` does not continue the number. */
export function numNext(state: number, c: number): number {
  const digit = c >= 0x30 && c <= 0x39;
  switch (state as N) {
    case N.Start:
      if (c === 0x2d) return N.Sign;
      return c === 0x30 ? N.Zero : digit ? N.Int : -1;
    case N.Sign:
      return c === 0x30 ? N.Zero : digit ? N.Int : -1;
    case N.Zero:
      return c === 0x2e ? N.Dot : c === 0x65 || c === 0x45 ? N.Exp : -1;
    case N.Int:
      return digit ? N.Int : c === 0x2e ? N.Dot : c === 0x65 || c === 0x45 ? N.Exp : -1;
    case N.Dot:
      return digit ? N.Frac : -1;
    case N.Frac:
      return digit ? N.Frac : c === 0x65 || c === 0x45 ? N.Exp : -1;
    case N.Exp:
      return c === 0x2b || c === 0x2d ? N.ExpSign : digit ? N.ExpDigits : -1;
    case N.ExpSign:
    case N.ExpDigits:
      return digit ? N.ExpDigits : -1;
  }
}

/**
 * The value partial-json shows for number text `text` (in state `state`) at the end of the
 * text: the number when it is whole; with a cut exponent, the part before a lowercase `e`
 * (`1.5e-` → 1.5; partial-json cuts at the text's last `e`, so `1E` shows nothing); otherwise
 * undefined (`-`, `1.`: partial-json throws).
 */
export function numberValue(text: string, state: number): number | undefined {
  if (NUM_END[state]) return Number(text);
  if (state === N.Exp || state === N.ExpSign) {
    const e = text.lastIndexOf('e');
    if (e > 0) return Number(text.slice(0, e));
  }
  return undefined;
}

/** Characters of the one-character escapes (`\n` → newline). */
export const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** The value of hex digit character code `c`, or -1. */
export function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

/** Whether character code `c` is whitespace that `String.prototype.trim` removes (ECMA-262 WhiteSpace and LineTerminator). */
export function isTrimSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}
