/**
 * Values made from the contract's schemas (shared/protocol/contract), for tests that go over
 * every method: a valid value, and one that breaks exactly one property.
 */
import { KindGuard, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/** Candidates of the wrong type, tried in order. */
const WRONG: unknown[] = [42, 'not valid', null, [], {}];

/** A value `schema` refuses, or undefined when it takes anything (Unknown, Any). */
export function wrongValue(schema: TSchema): unknown {
  return WRONG.find((v) => !Value.Check(schema, v));
}

/**
 * Params that break `schema` in one place: a valid value (Value.Create) with its first
 * property that can be broken (required ones first) set to a value of the wrong type; for an
 * object without such a property, a string instead of the object. Returns what was broken.
 */
export function violation(schema: TSchema): { value: unknown; path: string } {
  if (KindGuard.IsObject(schema)) {
    const required = new Set(schema.required ?? []);
    const keys = Object.keys(schema.properties).sort((a, b) => Number(required.has(b)) - Number(required.has(a)));
    for (const key of keys) {
      const bad = wrongValue(schema.properties[key]);
      if (bad === undefined) continue;
      return { value: { ...(Value.Create(schema) as object), [key]: bad }, path: `/${key}` };
    }
  }
  return { value: 'not an object', path: '/' };
}
