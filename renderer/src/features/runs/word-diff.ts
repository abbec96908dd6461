/**
 * A word-level diff of two texts (Compare runs): the longest common subsequence of their
 * words, as runs of kept, removed (only in A) and added (only in B) text. Whitespace stays
 * attached to the word before it, so joining the parts of one side gives that side's text.
 * Own code rather than a dependency: the `diff` package is not installed, and the texts
 * compared (a run's final message and tool calls) are bounded by {@link MAX_WORDS}.
 */

/** One run of the diff. */
export interface DiffPart {
  op: 'same' | 'removed' | 'added';
  text: string;
}

/** Above this many words on either side the texts are shown as one removal and one addition. */
export const MAX_WORDS = 4000;

function words(text: string): string[] {
  return text.match(/\s+|\S+\s*/g) ?? [];
}

function push(out: DiffPart[], op: DiffPart['op'], text: string): void {
  const last = out.at(-1);
  if (last?.op === op) last.text += text;
  else out.push({ op, text });
}

/** The parts turning `a` into `b`, in order (removals before additions at a change). */
export function wordDiff(a: string, b: string): DiffPart[] {
  const x = words(a);
  const y = words(b);
  const out: DiffPart[] = [];
  if (x.length > MAX_WORDS || y.length > MAX_WORDS) {
    if (a) out.push({ op: 'removed', text: a });
    if (b) out.push({ op: 'added', text: b });
    return a === b ? (a ? [{ op: 'same', text: a }] : []) : out;
  }
  // lcs[i][j]: length of the LCS of x[i..] and y[j..] (a flat array, row-major).
  const w = y.length + 1;
  const lcs = new Uint32Array((x.length + 1) * w);
  for (let i = x.length - 1; i >= 0; i--)
    for (let j = y.length - 1; j >= 0; j--)
      lcs[i * w + j] = x[i] === y[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) {
      push(out, 'same', x[i]);
      i++;
      j++;
    } else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) push(out, 'removed', x[i++]);
    else push(out, 'added', y[j++]);
  }
  while (i < x.length) push(out, 'removed', x[i++]);
  while (j < y.length) push(out, 'added', y[j++]);
  return out;
}
