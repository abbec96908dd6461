/**
 * fast-check arbitraries for hostile channel traffic: messages that are NOT valid against a
 * contract schema. Most are near misses — a valid template with one field removed or replaced
 * by an arbitrary value, or its `type` changed — since those reach deepest into a receiver;
 * the rest are arbitrary values. Valid messages are filtered out, so every generated value
 * is one the receiver must drop (or, for a request, refuse).
 */
import fc from 'fast-check';
import type { TSchema } from '@sinclair/typebox';
import { matches } from '../../shared/protocol/contract/define';

type Path = (string | number)[];

/** Every path to a field of `v` (objects and arrays, depth first), the root excluded. */
function paths(v: unknown, at: Path = []): Path[] {
  if (!v || typeof v !== 'object') return [];
  const out: Path[] = [];
  for (const [k, child] of Object.entries(v)) {
    const p = [...at, Array.isArray(v) ? Number(k) : k];
    out.push(p, ...paths(child, p));
  }
  return out;
}

/** `template` with the field at `path` deleted (`value` undefined) or set to `value`. */
function mutate(template: unknown, path: Path, op: 'delete' | 'replace', value: unknown): unknown {
  const copy = structuredClone(template) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (op === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else parent[last] = value;
  return copy;
}

/** Values a field may be replaced with: JSON values, plus what structured clone adds. */
export const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(undefined, null, NaN, -1, 0, 1.5, 2 ** 53, '', 'x'.repeat(300), [], {}, new Date(0), new Map(), 10n),
);

/**
 * Messages that fail `schema`: near misses of `templates` and arbitrary values. `jsonOnly`
 * keeps every value JSON-serialisable (for channels that carry JSON).
 */
export function junk(schema: TSchema, templates: unknown[], opts: { jsonOnly?: boolean } = {}): fc.Arbitrary<unknown> {
  const value = opts.jsonOnly ? fc.jsonValue() : fieldValue;
  const nearMiss = fc
    .record({
      template: fc.constantFrom(...templates),
      pick: fc.nat(),
      op: fc.constantFrom<'delete' | 'replace'>('delete', 'replace', 'replace'),
      value,
    })
    .map(({ template, pick, op, value: v }) => {
      const all = paths(template);
      return mutate(template, all[pick % all.length], op, v);
    });
  const wrongType = fc
    .record({ template: fc.constantFrom(...templates), type: fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'toString')) })
    .map(({ template, type }) => ({ ...(template as object), type }));
  const anything = opts.jsonOnly ? fc.jsonValue() : fc.oneof(fc.anything(), fieldValue);
  return fc.oneof({ arbitrary: nearMiss, weight: 6 }, { arbitrary: wrongType, weight: 1 }, { arbitrary: anything, weight: 2 }).filter((m) => !matches(schema, m));
}

/** `v` with every string equal to a key of `values` replaced by its value, however deep. */
export function fill(v: unknown, values: Record<string, string>): unknown {
  if (typeof v === 'string') return Object.hasOwn(values, v) ? values[v] : v;
  if (Array.isArray(v)) return v.map((x) => fill(x, values));
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x, values)]));
  }
  return v;
}
