/**
 * Generators for streamed-JSON tests: arbitrary JSON documents written out with arbitrary
 * whitespace, escapes and number spellings (RFC 8259), ways to cut a text into deltas, and the
 * normalisation the partial-json oracle needs.
 */
import fc from 'fast-check';

/** A JSON syntax tree whose leaves keep their written form (a number's text, a string's code units). */
type Node =
  | { t: 'str'; s: string }
  | { t: 'num'; text: string }
  | { t: 'lit'; text: 'true' | 'false' | 'null' }
  | { t: 'arr'; items: Node[] }
  | { t: 'obj'; entries: [string, Node][] };

/** One code unit of string content, biased towards the awkward ones (quotes, escapes, spaces JS trims, surrogate halves). */
const stringUnit = fc.oneof(
  fc.constantFrom(' ', '\u00a0', '\u2028', '\ufeff', '"', '\\', '/', '\n', '\t', '\u0000', '\ud83d', '\ude00', 'e', 'E', 'u', '0'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const str = fc.string({ unit: stringUnit, maxLength: 12 });

/** A number as written, from the RFC 8259 grammar (both exponent letters, signs, leading zero). */
const numberText = fc
  .tuple(
    fc.boolean(),
    fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9][0-9]{0,5}$/)),
    fc.option(fc.stringMatching(/^[0-9]{1,4}$/), { nil: undefined }),
    fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.stringMatching(/^[0-9]{1,3}$/)), { nil: undefined }),
  )
  .map(([neg, int, frac, exp]) => `${neg ? '-' : ''}${int}${frac !== undefined ? `.${frac}` : ''}${exp ? exp.join('') : ''}`);

const tree = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    str.map((s): Node => ({ t: 'str', s })),
    numberText.map((text): Node => ({ t: 'num', text })),
    fc.constantFrom<Node>({ t: 'lit', text: 'true' }, { t: 'lit', text: 'false' }, { t: 'lit', text: 'null' }),
    fc.array(tie('node'), { maxLength: 4 }).map((items): Node => ({ t: 'arr', items })),
    fc.array(fc.tuple(fc.oneof(str, fc.constantFrom('a', 'b', 'name')), tie('node')), { maxLength: 4 }).map((entries): Node => ({ t: 'obj', entries })),
  ),
})).node;

const SPACES = ['', '', '', ' ', '\n', '\t', '\r\n', '  '];
const SHORT: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Writes `node` using `choice()` for every free decision (whitespace, escapes). */
function write(node: Node, choice: () => number): string {
  const ws = () => SPACES[choice() % SPACES.length];
  const writeStr = (s: string): string => {
    let out = '"';
    for (const ch of s) {
      for (let k = 0; k < ch.length; k++) {
        const u = ch.charCodeAt(k);
        const c = ch[k];
        const mustEscape = u < 0x20 || c === '"' || c === '\\';
        const how = choice() % 4;
        if (how === 0 || (mustEscape && !SHORT[c])) out += `\\u${u.toString(16).padStart(4, '0')}`;
        else if (mustEscape) out += SHORT[c];
        else if (how === 1 && c === '/') out += '\\/';
        else out += c;
      }
    }
    return `${out}"`;
  };
  switch (node.t) {
    case 'str':
      return writeStr(node.s);
    case 'num':
    case 'lit':
      return node.text;
    case 'arr':
      return `[${ws()}${node.items.map((n) => `${write(n, choice)}${ws()}`).join(`,${ws()}`)}]`;
    case 'obj':
      return `{${ws()}${node.entries.map(([k, v]) => `${writeStr(k)}${ws()}:${ws()}${write(v, choice)}${ws()}`).join(`,${ws()}`)}}`;
  }
}

/** An arbitrary JSON document: `text` is valid JSON, written with arbitrary whitespace and escapes. */
export const jsonDocument: fc.Arbitrary<{ text: string }> = fc
  .tuple(tree, fc.array(fc.nat(), { minLength: 1, maxLength: 64 }), fc.constantFrom('', ' ', '\n  '))
  .map(([node, choices, outer]) => {
    let k = 0;
    const choice = () => choices[k++ % choices.length] + k;
    return { text: `${outer}${write(node, choice)}${outer}` };
  });

/** Cuts `text` into consecutive deltas whose lengths cycle through `sizes`. */
export function splitText(text: string, sizes: number[]): string[] {
  const parts: string[] = [];
  for (let i = 0, k = 0; i < text.length; k++) {
    const n = Math.max(1, sizes[k % sizes.length]);
    parts.push(text.slice(i, i + n));
    i += n;
  }
  return parts;
}

/**
 * `text` with every empty array written with whitespace inside (`[ ]`) written `[]`, outside
 * strings. partial-json mis-reads `[ ]` (it ends the enclosing container there) but reads `[]`
 * right, so tests compare with partial-json on this form.
 */
export function collapseEmptyArrays(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if (c === '[') {
      let j = i + 1;
      while (j < text.length && ' \t\n\r'.includes(text[j])) j++;
      if (j > i + 1 && text[j] === ']') {
        out += '[]';
        i = j;
        continue;
      }
    }
    out += c;
  }
  return out;
}
