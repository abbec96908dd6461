/**
 * How a message that crosses a process boundary is defined: once, as a TypeBox entry. The
 * TypeScript types, the allow-lists and the runtime checks are all derived from these entries
 * (docs/architecture.md#host-api). Checking uses `Value.Check` (no code generation), so it runs
 * in the sandboxed renderer under its CSP as well as in Node.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

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

/** The first few problems of `value` against `schema`, as `path: message` (empty when valid). */
export function problems(schema: TSchema, value: unknown, max = 3): string[] {
  if (Value.Check(schema, value)) return [];
  const out: string[] = [];
  for (const e of Value.Errors(schema, value)) {
    out.push(`${e.path || '/'}: ${e.message}`);
    if (out.length >= max) break;
  }
  return out;
}

/** True when `value` matches `schema`. */
export function matches<S extends TSchema>(schema: S, value: unknown): value is Static<S> {
  return Value.Check(schema, value);
}
