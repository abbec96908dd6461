/**
 * How a message that crosses a process boundary is defined: once, as a TypeBox entry. The
 * TypeScript types, the allow-lists and the runtime checks are all derived from these entries
 * (docs/architecture.md#host-api). Checking uses `Value.Check` (no code generation), so it runs
 * in the sandboxed renderer under its CSP as well as in Node.
 */
import { Type as T, type Static, type TLiteral, type TLiteralValue, type TSchema, type TUnion } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/** A schema for exactly one of `values`: `literals('a', 'b')` is `T.Union([T.Literal('a'), T.Literal('b')])`. */
export function literals<const V extends TLiteralValue[]>(...values: V): TUnion<{ [K in keyof V]: TLiteral<V[K]> }> {
  return T.Union(values.map((v) => T.Literal(v))) as TUnion<{ [K in keyof V]: TLiteral<V[K]> }>;
}

/** One request/response method: its params and its result. */
export interface MethodEntry<P extends TSchema = TSchema, R extends TSchema = TSchema> {
  params: P;
  result: R;
  /** What the method does, for the architecture document and error messages. */
  doc: string;
}

/** Define one method entry (types are inferred from the schemas). */
export function method<P extends TSchema, R extends TSchema>(params: P, result: R, doc: string): MethodEntry<P, R> {
  return { params, result, doc };
}

/** A table of methods, keyed by name. */
export type MethodTable = Record<string, MethodEntry>;

/** `{ [name]: { params, result } }` as TypeScript types, derived from a table. */
export type MethodTypes<T extends MethodTable> = {
  [K in keyof T]: { params: Static<T[K]['params']>; result: Static<T[K]['result']> };
};

/**
 * The first few problems of `value` against `schema`, as `path: message` (empty when valid),
 * one per path (a missing property is reported once, not also as the wrong type). `path` is a
 * JSON pointer into `value`, `/` for `value` itself.
 */
export function problems(schema: TSchema, value: unknown, max = 3): string[] {
  if (Value.Check(schema, value)) return [];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const e of Value.Errors(schema, value)) {
    const where = e.path || '/';
    if (seen.has(where)) continue;
    seen.add(where);
    out.push(`${where}: ${e.message}`);
    if (out.length >= max) break;
  }
  return out.length ? out : ['/: does not match its schema'];
}

/** True when `value` matches `schema`. */
export function matches<S extends TSchema>(schema: S, value: unknown): value is Static<S> {
  return Value.Check(schema, value);
}

/** Messages keyed by their `type` (each entry an object schema with a `type` literal). */
export type MessageTable = Record<string, TSchema>;

/** The messages of a table, as one union type. */
export type MessageOf<M extends MessageTable> = Static<M[keyof M]>;

/** One schema any message of `table` matches: the union of its entries (the entry itself when there is one). */
export function unionOf<M extends MessageTable>(table: M) {
  return T.Union(Object.values(table) as M[keyof M][]);
}

/**
 * Why `msg` is not one of `table`'s messages (undefined when it is), as `path: problem`: the
 * entry is the one its `type` names, so the problems named are that entry's (up to `max`,
 * joined by `; `). Never throws.
 */
export function messageProblem(table: MessageTable, msg: unknown, max = 3): string | undefined {
  if (!msg || typeof msg !== 'object' || Array.isArray(msg)) return `/: not an object (${msg === null ? 'null' : Array.isArray(msg) ? 'an array' : typeof msg})`;
  const type = (msg as { type?: unknown }).type;
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(table, type)) {
    const what = typeof type === 'string' ? `unknown type ${JSON.stringify(type.slice(0, 60))}` : 'missing or not a string';
    return `/type: ${what} (expected ${Object.keys(table).join(', ')})`;
  }
  const found = problems(table[type], msg, max);
  return found.length ? found.join('; ') : undefined;
}
