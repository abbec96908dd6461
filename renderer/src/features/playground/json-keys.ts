/**
 * A tool call's arguments are a `Y.Map` of JSON values in the thread's document, last writer
 * wins per key (docs/architecture.md#multi-window-editing). An edit of the arguments as JSON
 * text therefore sets only the keys the person changed, so keys another window changed in the
 * meantime are kept.
 */

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * Make `target` (the document's arguments, an Immer draft) take the change from `base` (what
 * the person's text was made from) to `next` (what it parses to now): keys `next` changed or
 * added are set, keys it removed are deleted, the others left as `target` has them. When
 * `base` is not an object every key of `next` is set and the keys it lacks deleted.
 */
export function setChangedKeys(target: Record<string, unknown>, base: unknown, next: Record<string, unknown>): void {
  const from = isRecord(base) ? base : undefined;
  for (const [k, v] of Object.entries(next)) if (!from || !(k in from) || !same(from[k], v)) target[k] = v;
  for (const k of Object.keys(from ?? target)) if (!(k in next)) delete target[k];
}
