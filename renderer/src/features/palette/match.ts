/**
 * The command palette's matcher (cmdk's `filter`): every word typed must match one word of the
 * item — from that word's first letter, its letters in order (an abbreviation: "rct" finds
 * "ReAct", "tls" "tools"). A query word is never spread over several words of the item, so
 * "share" does not find "Switch to dark theme" (s…h…a…r…e across four words), as cmdk's own
 * loose match did.
 */

/** The words of `text`, lower case: runs of letters and digits ("ReAct" is one word). */
export function paletteWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** How well `query` (one typed word) matches `word`: 3 whole word, 2 prefix, 1 abbreviation from the first letter, 0 none. */
function wordScore(query: string, word: string): number {
  if (word[0] !== query[0]) return 0;
  if (word === query) return 3;
  if (word.startsWith(query)) return 2;
  let at = 1;
  for (const ch of query.slice(1)) {
    at = word.indexOf(ch, at) + 1;
    if (at === 0) return 0;
  }
  return 1;
}

/**
 * cmdk filter: a score in 0..1 for an item (`value` and its `keywords`) against the search text;
 * 0 hides the item. Items whose first word the query starts with rank first ("run" → Run, Run all
 * tools, before "Auto-run tools").
 */
export function paletteMatch(value: string, search: string, keywords: readonly string[] = []): number {
  const typed = paletteWords(search);
  if (typed.length === 0) return 1;
  const words = paletteWords([value, ...keywords].join(' '));
  let total = 0;
  for (const q of typed) {
    let best = 0;
    for (const w of words) best = Math.max(best, wordScore(q, w));
    if (best === 0) return 0;
    total += best;
  }
  const first = words[0] && wordScore(typed[0], words[0]) >= 2 ? 1 : 0;
  // 0.1..1: more exact word matches and a matching first word rank higher.
  return 0.1 + 0.9 * ((total / (3 * typed.length)) * 0.7 + first * 0.3);
}
