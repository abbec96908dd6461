/**
 * Applying a client's Immer patches with JSON Patch's rules for paths (RFC 6902 §4): `remove`
 * and `replace` need their target to exist; `add` needs its parent to exist and, in an array, an
 * index from 0 to the array's length (or "-", the end). Each patch is checked against the
 * document as the patches before it left it.
 *
 * Immer's `applyPatches` (11.x) is lenient where the thread must not be: a `remove` past an
 * array's end does nothing, a `remove` of a non-index key in an array removes item 0 and of -1
 * the last item, a `replace` past the end pads the array with holes, a `replace` of a missing key
 * creates it, an `add` past the end appends, and `replace` of "length" truncates an array. Only a
 * path through a missing parent makes it throw, with a message that names no patch.
 */
import { applyPatches, produce, type Patch } from 'immer';

/** A patch whose path does not resolve: which one (`index` in the batch), its path as a JSON pointer, why. */
export class PatchPathError extends Error {
  constructor(
    readonly index: number,
    readonly pointer: string,
    readonly reason: string,
    op: string,
  ) {
    super(`patches[${index}] (${op} ${pointer}): ${reason}`);
    this.name = 'PatchPathError';
  }
}

/** Keys Immer refuses to patch; refused here first, with a message naming the patch. */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

/** A path segment as JSON Pointer writes it (RFC 6901: "~" → "~0", "/" → "~1"). */
const escape = (seg: string | number): string => String(seg).replace(/~/g, '~0').replace(/\//g, '~1');

/** `path` as a JSON pointer; '' for the whole document. */
export function toPointer(path: readonly (string | number)[]): string {
  return path.map((s) => `/${escape(s)}`).join('');
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The array index a path segment names (a non-negative integer, also as canonical digits), or undefined. */
function indexOf(seg: string | number): number | undefined {
  if (typeof seg === 'number') return Number.isSafeInteger(seg) && seg >= 0 ? seg : undefined;
  return /^(0|[1-9]\d{0,15})$/.test(seg) ? Number(seg) : undefined;
}

const items = (n: number): string => `${n} item${n === 1 ? '' : 's'}`;

/** Why the container `parent` (at `at`) has no member `seg`, or undefined when it has. */
function missingMember(parent: unknown, seg: string | number, at: string, adding: boolean): string | undefined {
  const where = at || 'the thread';
  if (Array.isArray(parent)) {
    if (adding && seg === '-') return undefined;
    const i = indexOf(seg);
    if (i === undefined) return `${JSON.stringify(seg)} is not an index of the array ${where}`;
    if (adding ? i > parent.length : i >= parent.length) return `there is no item ${i}: ${where} has ${items(parent.length)}`;
    return undefined;
  }
  if (isRecord(parent)) {
    const key = String(seg);
    if (RESERVED.has(key)) return `${JSON.stringify(key)} is a reserved name`;
    if (!adding && !Object.prototype.hasOwnProperty.call(parent, key)) return `there is no ${JSON.stringify(key)} in ${where}`;
    return undefined;
  }
  return `${where} is not an object or an array`;
}

/** Throws PatchPathError when `patch` (number `index` of its batch) does not resolve in `doc`. */
function checkPath(doc: unknown, patch: Patch, index: number): void {
  const path = patch.path;
  let node = doc;
  for (let k = 0; k < path.length; k++) {
    const seg = path[k];
    const last = k === path.length - 1;
    const why = typeof seg === 'string' || typeof seg === 'number'
      ? missingMember(node, seg, toPointer(path.slice(0, k)), last && patch.op === 'add')
      : `path segment ${k} is not a string or a number`;
    if (why) throw new PatchPathError(index, toPointer(path), why, patch.op);
    if (!last) node = (node as Record<string | number, unknown>)[seg];
  }
}

/**
 * Applies `patches` to `base` like Immer's `applyPatches`, refusing (PatchPathError, `base`
 * untouched) the first patch whose path does not exist as its op requires.
 */
export function applyPatchesStrictly<T extends object>(base: T, patches: readonly Patch[]): T {
  return produce(base, (draft) => {
    patches.forEach((p, i) => {
      checkPath(draft, p, i);
      applyPatches(draft, [p]);
    });
  });
}
