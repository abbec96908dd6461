/**
 * Where a window is — the open thread (its workspace path), the shown run and the selected node —
 * as the address keeps it: the URL's fragment, `#thread=<path>&run=<runId>&node=<nodeId>`
 * (percent-encoded). A fragment is never sent to the host and survives the web host's token
 * handling (host/web-token.ts takes only `token` out of the URL). Pure string work.
 */

/** A window's place; every part optional (no thread open, no run shown, no node selected). */
export interface Place {
  thread?: string;
  run?: string;
  node?: string;
}

const KEYS = ['thread', 'run', 'node'] as const;
/** Longest part kept from an address (a workspace path, a run or node id). */
const MAX_PART = 2000;

/** The place a URL fragment (`#…`, with or without the `#`) names; unknown keys and empty or oversized values are ignored. */
export function placeFromHash(hash: string): Place {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const place: Place = {};
  for (const k of KEYS) {
    const v = params.get(k);
    if (v && v.length <= MAX_PART) place[k] = v;
  }
  // A node without its run, or a run without its thread, cannot be found.
  if (!place.thread) return {};
  if (!place.run) delete place.node;
  return place;
}

/**
 * `hash` (the current fragment) with the place's keys set to `place`; other keys are kept. Returns
 * the new fragment with its `#`, or '' when nothing is left.
 */
export function hashWithPlace(hash: string, place: Place): string {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  for (const k of KEYS) params.delete(k);
  for (const k of KEYS) if (place[k]) params.set(k, place[k]!);
  const s = params.toString();
  return s ? `#${s}` : '';
}

/** Whether two places are the same. */
export function samePlace(a: Place, b: Place): boolean {
  return KEYS.every((k) => (a[k] ?? '') === (b[k] ?? ''));
}

/** A place read back from storage (JSON); {} for anything that is not one. */
export function placeFromJson(text: string | null | undefined): Place {
  if (!text) return {};
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    if (!v || typeof v !== 'object') return {};
    return placeFromHash(hashWithPlace('', { thread: str(v.thread), run: str(v.run), node: str(v.node) }));
  } catch {
    return {};
  }
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
