/**
 * JSON Schema validation (ajv), shared by the runner (tool-call arguments, checked before the call goes to
 * the server) and evaluation (assertions on a final text or a tool call's arguments); each problem names its path.
 * Draft-07 and 2020-12 schemas are supported; a schema ajv cannot compile is not enforced
 * (the server still validates).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;
const cache = new Map<string, ValidateFunction | null>();

function ajvFor(schema: Record<string, unknown>): Ajv | Ajv2020 {
  const s = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (s.includes('2020-12') || s.includes('2019-09')) {
    draft2020 ??= addFormats(new Ajv2020({ strict: false, allErrors: true }) as never) as unknown as Ajv2020;
    return draft2020;
  }
  draft07 ??= addFormats(new Ajv({ strict: false, allErrors: true }) as never) as unknown as Ajv;
  return draft07;
}

function compile(schema: Record<string, unknown>): ValidateFunction | null {
  const key = JSON.stringify(schema);
  if (!cache.has(key)) {
    let fn: ValidateFunction | null;
    try {
      fn = ajvFor(schema).compile(schema);
    } catch {
      fn = null;
    }
    if (cache.size > 500) cache.clear();
    cache.set(key, fn);
  }
  return cache.get(key)!;
}

function describe(e: ErrorObject): string {
  const at = e.instancePath || '(root)';
  if (e.keyword === 'required') return `${e.instancePath}/${(e.params as { missingProperty: string }).missingProperty} is required`;
  if (e.keyword === 'additionalProperties') return `${e.instancePath}/${(e.params as { additionalProperty: string }).additionalProperty} is not allowed (no such property)`;
  if (e.keyword === 'enum') return `${at} must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
  return `${at} ${e.message ?? 'is invalid'}`;
}

/**
 * Checks `args` against `schema`. Returns undefined when valid, else one line per problem,
 * each naming the JSON pointer of the failing value (e.g. `/a must be number`).
 */
export function validateArguments(schema: Record<string, unknown> | undefined, args: unknown): string[] | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const fn = compile(schema);
  if (!fn || fn(args)) return undefined;
  const lines = (fn.errors ?? []).map(describe);
  return [...new Set(lines)];
}

/** Why `schema` cannot be used as a JSON Schema (ajv's compile error), or undefined when it compiles. */
export function schemaProblem(schema: unknown): string | undefined {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return 'a JSON Schema is an object';
  try {
    ajvFor(schema as Record<string, unknown>).compile(schema as Record<string, unknown>);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
