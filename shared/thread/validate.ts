/**
 * Validation of a Thread document against `ThreadSchema` (TypeBox), with errors a person can
 * act on: each names a JSON pointer (RFC 6901) and what was expected there. Union noise is
 * resolved: a message whose `role` matches a variant is checked against that variant only, and
 * an unknown `role`/`type` is reported once, on that property, listing the accepted values.
 */
import { Value } from '@sinclair/typebox/value';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import type { TSchema } from '@sinclair/typebox';
import { ThreadSchema, type Thread } from './schema';

/** One problem in a document: where (JSON pointer, '' for the whole document) and what. */
export interface ThreadProblem {
  pointer: string;
  message: string;
}

export type ValidateResult = { ok: true; thread: Thread } | { ok: false; errors: ThreadProblem[] };

/** At most this many problems are reported; a wholly wrong document would otherwise list thousands. */
export const MAX_PROBLEMS = 50;

/** Checks `value` against the current Thread schema. Never throws. */
export function validateThread(value: unknown): ValidateResult {
  if (Value.Check(ThreadSchema, value)) return { ok: true, thread: value as Thread };
  return { ok: false, errors: schemaProblems(ThreadSchema, value) };
}

/** The problems of `value` against any TypeBox schema, union noise resolved, de-duplicated. */
export function schemaProblems(schema: TSchema, value: unknown, basePointer = ''): ThreadProblem[] {
  const out: ThreadProblem[] = [];
  const seen = new Set<string>();
  collect(schema, value, basePointer, out, seen);
  return out;
}

function collect(schema: TSchema, value: unknown, base: string, out: ThreadProblem[], seen: Set<string>): void {
  for (const error of Value.Errors(schema, value)) {
    if (out.length >= MAX_PROBLEMS) return;
    const pointer = base + error.path;
    // One problem per place: TypeBox reports a missing property twice (required, then its type).
    if ([...seen].some((p) => pointer === p || pointer.startsWith(p + '/'))) continue;
    if (error.type === ValueErrorType.Union) {
      const before = out.length;
      resolveUnion(error, pointer, out, seen);
      if (out.length > before) {
        seen.add(pointer);
        continue;
      }
    }
    seen.add(pointer);
    out.push({ pointer, message: describe(error) });
  }
}

/** Picks the variant the value meant (by a literal discriminator) and reports against it only. */
function resolveUnion(error: ValueError, pointer: string, out: ThreadProblem[], seen: Set<string>): void {
  const variants = (error.schema.anyOf ?? []) as TSchema[];
  const value = error.value;
  const objectVariants = variants.filter((v) => v.type === 'object' && v.properties);
  if (!isObject(value) || objectVariants.length !== variants.length || variants.length === 0) {
    out.push({ pointer, message: `expected ${variants.map(typeName).join(' or ')}, got ${kindOf(value)}` });
    return;
  }
  const key = discriminator(objectVariants);
  if (key) {
    const accepted = objectVariants.map((v) => (v.properties[key] as TSchema).const as string);
    const match = objectVariants.find((v) => (v.properties[key] as TSchema).const === value[key]);
    if (!match) {
      const got = value[key] === undefined ? 'it is missing' : `got ${JSON.stringify(value[key])}`;
      out.push({ pointer: `${pointer}/${key}`, message: `expected ${accepted.map((a) => JSON.stringify(a)).join(' or ')}, ${got}` });
      return;
    }
    collect(match, value, pointer, out, seen);
    return;
  }
  // No discriminator: report against the variant with the fewest problems.
  let best: ThreadProblem[] | undefined;
  for (const v of objectVariants) {
    const problems = schemaProblems(v, value, pointer);
    if (!best || problems.length < best.length) best = problems;
  }
  for (const p of best ?? []) if (out.length < MAX_PROBLEMS) out.push(p);
}

/** A property that every variant declares as a distinct string literal (`role`, `type`). */
function discriminator(variants: TSchema[]): string | undefined {
  for (const key of ['type', 'role', 'kind']) {
    const consts = variants.map((v) => (v.properties[key] as TSchema | undefined)?.const);
    if (consts.every((c) => typeof c === 'string') && new Set(consts).size === consts.length) return key;
  }
  return undefined;
}

function describe(error: ValueError): string {
  const s = error.schema;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return 'required property is missing';
    case ValueErrorType.Literal:
      return `expected ${JSON.stringify(s.const)}, got ${short(error.value)}`;
    case ValueErrorType.String:
    case ValueErrorType.Number:
    case ValueErrorType.Integer:
    case ValueErrorType.Boolean:
    case ValueErrorType.Array:
    case ValueErrorType.Object:
      return `expected ${typeName(s)}, got ${kindOf(error.value)}`;
    case ValueErrorType.StringMinLength:
      return s.minLength === 1 ? 'must not be empty' : `must be at least ${s.minLength} characters`;
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
      return `must be ≥ ${s.minimum}, got ${short(error.value)}`;
    case ValueErrorType.NumberExclusiveMinimum:
      return `must be > ${s.exclusiveMinimum}, got ${short(error.value)}`;
    case ValueErrorType.ObjectAdditionalProperties:
      return 'unexpected property';
    default:
      return error.message.charAt(0).toLowerCase() + error.message.slice(1);
  }
}

function typeName(s: TSchema): string {
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.anyOf) return (s.anyOf as TSchema[]).map(typeName).join(' or ');
  switch (s.type) {
    case 'string': return 'a string';
    case 'number': return 'a number';
    case 'integer': return 'an integer';
    case 'boolean': return 'true or false';
    case 'array': return 'an array';
    case 'object': return 'an object';
    default: return String(s.type ?? 'a value');
  }
}

function kindOf(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `a string ${short(v)}`;
  if (typeof v === 'number') return Number.isInteger(v) ? `the number ${v}` : `the number ${v}`;
  if (typeof v === 'boolean') return String(v);
  return 'an object';
}

function short(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 40 ? `${s.slice(0, 37)}…` : s;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
