/**
 * Ids for threads, messages and tool calls. Browser-safe: uses the global Web Crypto
 * `crypto.randomUUID()` (Node ≥ 19 and every current browser).
 */

/** A fresh random id: a plain uuid, or `<prefix>_<uuid>` when a prefix is given (e.g. `msg`). */
export function newId(prefix?: string): string {
  const uuid = globalThis.crypto.randomUUID();
  return prefix ? `${prefix}_${uuid}` : uuid;
}

/**
 * A deterministic uuid-shaped id derived from `seed` (FNV-1a, not cryptographic). Used where an
 * id must come out the same on every read of the same input, e.g. migrating a legacy file that
 * has no ids, so reloading it without saving does not change them.
 */
export function stableId(seed: string): string {
  // Four 32-bit FNV-1a lanes with different offsets give 128 bits of spread.
  const lanes = [0x811c9dc5, 0x01000193 ^ 0x5bd1e995, 0x2f693b47, 0x9e3779b9];
  for (let i = 0; i < seed.length; i++) {
    const c = seed.charCodeAt(i);
    for (let l = 0; l < 4; l++) lanes[l] = Math.imul(lanes[l] ^ (c + l), 0x01000193) >>> 0;
  }
  const hex = lanes.map((n) => n.toString(16).padStart(8, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
