/** The one splice that turns one string into another (common prefix and suffix kept). */

/** The splice that turns `from` into `to`: at offset `at`, `remove` becomes `insert`. */
export function splice(from: string, to: string): { at: number; remove: string; insert: string } {
  let p = 0;
  const max = Math.min(from.length, to.length);
  while (p < max && from.charCodeAt(p) === to.charCodeAt(p)) p++;
  let s = 0;
  while (s < max - p && from.charCodeAt(from.length - 1 - s) === to.charCodeAt(to.length - 1 - s)) s++;
  return { at: p, remove: from.slice(p, from.length - s), insert: to.slice(p, to.length - s) };
}
