/**
 * A model call's raw request, stored as what changed since the run's previous call
 * (docs/architecture.md#stored-requests).
 *
 * Each request of an agent loop carries the whole conversation so far, so keeping every
 * request whole costs the square of the number of turns (a 1,000-turn run: 240 MB of run file).
 * A stored record ({@link StoredRequest}) keeps only what its request adds to the request of
 * the record before it in the same run: top-level values equal to the earlier request's are left
 * out, and an array whose first items are the earlier array's keeps only the rest. Expanding a
 * record ({@link requestAt}) gives back the request exactly as sent (same JSON text).
 *
 * A record without `requestBase` holds its request whole (every run file written before this
 * format, a first call, a request that is not a JSON object).
 */

/** How a stored request extends the request of an earlier record in the same run. */
export interface RequestBase {
  /** The earlier record: the nearest record before this one with this node id. */
  nodeId: string;
  /** The request's top-level keys in the order sent. */
  keys: string[];
  /** Keys whose value is the earlier request's, unchanged; they are not in `request`. */
  same: string[];
  /** Array-valued keys whose first `n` items are the earlier request's; `request[key]` holds the items after them. */
  prefix: Record<string, number>;
}

/** The request-bearing part of a stored record. */
export interface StoredRequest {
  nodeId: string;
  request: unknown;
  /** A {@link RequestBase}; anything else (a damaged file) makes the request unreadable, with a note. */
  requestBase?: unknown;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** JSON equality, key order included (so that an expanded request prints as it was sent). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i] || !sameJson((a as Json)[ka[i]], (b as Json)[kb[i]])) return false;
  }
  return true;
}

/** Sets an own enumerable property, even one named `__proto__` (as JSON.parse makes it). */
function put(o: Json, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** How the values of two requests compare, key by key (by their objects, or by their JSON text). */
interface Comparison {
  /** The key's value is an object or array that is the earlier request's, unchanged. */
  same(key: string): boolean;
  /** How many first items of the key's array are the earlier request's (0 when either is not an array). */
  prefix(key: string): number;
}

/** The stored form of `request` under `cmp` (see {@link compactRequest}). */
function compactBy(request: Json, cmp: Comparison, prevNodeId: string): { request: unknown; requestBase?: RequestBase } {
  const keys = Object.keys(request);
  const same: string[] = [];
  const prefix: Record<string, number> = {};
  const rest: Json = {};
  for (const key of keys) {
    const cur = request[key];
    if (typeof cur === 'object' && cur !== null && cmp.same(key)) {
      same.push(key);
      continue;
    }
    const n = Array.isArray(cur) ? cmp.prefix(key) : 0;
    if (n > 0) {
      put(prefix, key, n);
      put(rest, key, (cur as unknown[]).slice(n));
      continue;
    }
    put(rest, key, cur);
  }
  if (!same.length && !Object.keys(prefix).length) return { request };
  return { request: rest, requestBase: { nodeId: prevNodeId, keys, same, prefix } };
}

/**
 * The stored form of `request` given the whole request of the run's previous record
 * (`prev`, of node `prevNodeId`): `{ request }` alone when nothing large is shared (either is not
 * a JSON object, or only primitive values are equal), else the parts not shared plus `requestBase`.
 * Cost: linear in the size of the two requests.
 */
export function compactRequest(request: unknown, prev: unknown, prevNodeId: string): { request: unknown; requestBase?: RequestBase } {
  if (!isObject(request) || !isObject(prev)) return { request };
  const old = (key: string) => (Object.prototype.hasOwnProperty.call(prev, key) ? prev[key] : undefined);
  return compactBy(request, {
    same: (key) => sameJson(request[key], old(key)),
    prefix: (key) => {
      const cur = request[key] as unknown[];
      const was = old(key);
      if (!Array.isArray(was)) return 0;
      let n = 0;
      while (n < cur.length && n < was.length && sameJson(cur[n], was[n])) n++;
      return n;
    },
  }, prevNodeId);
}

/**
 * A request's top-level values as JSON text, an array's item by item: what a later request is
 * compared with when the objects of this one may change after it was sent (the runner's: its
 * messages are the agent loop's, which fills in tool results). Undefined for a request that is
 * not a JSON object. Cost: one `JSON.stringify` of the request.
 */
export type RequestPrint = Map<string, string | string[]>;

/** The {@link RequestPrint} of `request`. */
export function printRequest(request: unknown): RequestPrint | undefined {
  if (!isObject(request)) return undefined;
  const print: RequestPrint = new Map();
  for (const key of Object.keys(request)) {
    const v = request[key];
    print.set(key, Array.isArray(v) ? v.map((item) => JSON.stringify(item) ?? 'null') : (JSON.stringify(v) ?? ''));
  }
  return print;
}

/**
 * {@link compactRequest} with both requests compared by their prints (`print` is `request`'s,
 * `prev` the earlier one's): values are the same when their JSON text is.
 */
export function compactPrinted(request: unknown, print: RequestPrint | undefined, prev: RequestPrint | undefined, prevNodeId: string): { request: unknown; requestBase?: RequestBase } {
  if (!isObject(request) || !print || !prev) return { request };
  return compactBy(request, {
    same: (key) => {
      const a = print.get(key);
      const b = prev.get(key);
      if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]);
      return typeof b === 'string' && a === b;
    },
    prefix: (key) => {
      const a = print.get(key);
      const b = prev.get(key);
      if (!Array.isArray(a) || !Array.isArray(b)) return 0;
      let n = 0;
      while (n < a.length && n < b.length && a[n] === b[n]) n++;
      return n;
    },
  }, prevNodeId);
}

function isRequestBase(v: unknown): v is RequestBase {
  if (!isObject(v) || typeof v.nodeId !== 'string' || !isObject(v.prefix)) return false;
  const strings = (a: unknown) => Array.isArray(a) && a.every((x) => typeof x === 'string');
  return strings(v.keys) && strings(v.same) && Object.values(v.prefix).every((n) => Number.isInteger(n) && (n as number) >= 0);
}

/**
 * `stored` expanded on the whole request of its base record, or why it cannot be: every part
 * the record names must be where it says (a damaged file must not show a wrong request).
 */
function expandOn(stored: StoredRequest, base: unknown): RequestResult {
  const rb = stored.requestBase as RequestBase;
  const bad = (why: string): RequestResult => ({ ok: false, error: `the record of node ${stored.nodeId} does not fit the request it extends (${why})` });
  if (!isObject(stored.request)) return bad('its request is not an object');
  if (!isObject(base)) return bad('the earlier request is not an object');
  const part = stored.request;
  const own = (o: Json, key: string) => Object.prototype.hasOwnProperty.call(o, key);
  const listed = new Set(rb.keys);
  for (const key of Object.keys(part)) if (!listed.has(key)) return bad(`"${key}" is not one of its keys`);
  const out: Json = {};
  for (const key of rb.keys) {
    if (rb.same.includes(key)) {
      if (own(part, key)) return bad(`"${key}" is both kept and unchanged`);
      if (!own(base, key)) return bad(`the earlier request has no "${key}"`);
      put(out, key, base[key]);
    } else if (own(rb.prefix, key)) {
      const n = rb.prefix[key];
      const head = base[key];
      const tail = part[key];
      if (!Array.isArray(head) || head.length < n) return bad(`the earlier "${key}" has fewer than ${n} items`);
      if (!Array.isArray(tail)) return bad(`its "${key}" is not a list`);
      put(out, key, head.slice(0, n).concat(tail));
    } else if (own(part, key)) put(out, key, part[key]);
    else return bad(`"${key}" is missing`);
  }
  for (const key of [...rb.same, ...Object.keys(rb.prefix)]) if (!listed.has(key)) return bad(`"${key}" is not one of its keys`);
  return { ok: true, request: out };
}

/** A whole request already expanded: record `index` of a run, and its request. */
export interface ExpandedRequest {
  index: number;
  request: unknown;
}

/** What {@link requestAt} gives: the request as sent, or why it cannot be rebuilt. */
export type RequestResult = { ok: true; request: unknown } | { ok: false; error: string };

/**
 * The request of `records[index]` as it was sent. Walks back through the records it extends to
 * one stored whole (or to `known`, a request expanded earlier: pass the last result when reading
 * records in order, so each step costs one record). Errors (as data) when a base record is
 * missing. Cost: linear in the requests along the chain.
 */
export function requestAt(records: readonly StoredRequest[], index: number, known?: ExpandedRequest): RequestResult {
  const chain: number[] = [];
  let i = index;
  let request: unknown;
  for (;;) {
    if (known && known.index === i) {
      request = known.request;
      break;
    }
    const rec = records[i];
    if (!rec) return { ok: false, error: `no record at index ${i}` };
    if (!rec.requestBase) {
      request = rec.request;
      break;
    }
    if (!isRequestBase(rec.requestBase)) return { ok: false, error: `the record of node ${rec.nodeId} has a malformed requestBase` };
    chain.push(i);
    let j = i - 1;
    while (j >= 0 && records[j]?.nodeId !== rec.requestBase.nodeId) j--;
    if (j < 0) return { ok: false, error: `the request of node ${rec.nodeId} extends the request of node ${rec.requestBase.nodeId}, which has no earlier record in this run` };
    i = j;
  }
  for (let k = chain.length - 1; k >= 0; k--) {
    const r = expandOn(records[chain[k]], request);
    if (!r.ok) return r;
    request = r.request;
  }
  return { ok: true, request };
}

/**
 * Reads the requests of one run's records, keeping the last one expanded so that reading
 * records in order (replay, time travel) costs one record per step.
 */
export class RequestReader {
  private last: ExpandedRequest | undefined;

  constructor(private readonly records: readonly StoredRequest[]) {}

  /** The request of `records[index]` as sent, or `{ omitted }` saying why it cannot be rebuilt. */
  at(index: number): unknown {
    const r = requestAt(this.records, index, this.last);
    if (!r.ok) return { omitted: `Not kept: ${r.error}.` };
    this.last = { index, request: r.request };
    return r.request;
  }
}
