/**
 * Validate tool-call arguments against a tool's JSON Schema. The renderer's CSP forbids
 * `unsafe-eval`, which rules out validators that generate code (ajv compiles schemas with
 * `new Function`), so this is a small interpreter of the JSON Schema keywords tools use
 * (draft-07 / 2020-12 subset): type, enum, const, properties, required, additionalProperties,
 * items / prefixItems, min/max length, items and properties, pattern, numeric bounds,
 * multipleOf, allOf / anyOf / oneOf / not, and local `$ref` (`#/definitions/…`, `#/$defs/…`).
 * Unknown keywords (format, …) are accepted, never guessed.
 */
import type { Tool } from '../../../../shared/thread/tools';

type Schema = Record<string, unknown> | boolean;

/** The JSON Schema of a tool's arguments, if it has one. */
export function toolSchema(tool: Tool | undefined): Record<string, unknown> | undefined {
  if (!tool) return undefined;
  return tool.type === 'mcp' ? tool.inputSchema : tool.parameters;
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

const matchesType = (v: unknown, t: string): boolean => {
  const actual = typeOf(v);
  return actual === t || (t === 'number' && actual === 'integer');
};

const equal = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let cur: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur as Schema | undefined;
}

/** Every violation of `schema` by `value`, as "/path message" strings (empty when valid). */
export function validateJson(schema: Schema, value: unknown, root: Schema = schema, path = '', depth = 0): string[] {
  if (schema === true) return [];
  if (schema === false) return [`${path || '(arguments)'} is not allowed`];
  if (depth > 50) return [];
  const s = schema;
  const at = path || '(arguments)';
  const errs: string[] = [];
  if (typeof s.$ref === 'string') {
    const target = resolveRef(root, s.$ref);
    if (target === undefined) errs.push(`${at}: cannot resolve $ref ${s.$ref}`);
    else errs.push(...validateJson(target, value, root, path, depth + 1));
  }
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (!types.some((t) => matchesType(value, t))) {
      errs.push(`${at} must be ${types.join(' or ')} (got ${typeOf(value)})`);
      return errs;
    }
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => equal(e, value))) errs.push(`${at} must be one of ${JSON.stringify(s.enum)}`);
  if ('const' in s && !equal(s.const, value)) errs.push(`${at} must be ${JSON.stringify(s.const)}`);
  if (typeof value === 'string') {
    if (typeof s.minLength === 'number' && value.length < s.minLength) errs.push(`${at} must have at least ${s.minLength} characters`);
    if (typeof s.maxLength === 'number' && value.length > s.maxLength) errs.push(`${at} must have at most ${s.maxLength} characters`);
    if (typeof s.pattern === 'string') {
      try {
        if (!new RegExp(s.pattern, 'u').test(value)) errs.push(`${at} must match ${s.pattern}`);
      } catch {}
    }
  }
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) errs.push(`${at} must be ≥ ${s.minimum}`);
    if (typeof s.maximum === 'number' && value > s.maximum) errs.push(`${at} must be ≤ ${s.maximum}`);
    if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum) errs.push(`${at} must be > ${s.exclusiveMinimum}`);
    if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum) errs.push(`${at} must be < ${s.exclusiveMaximum}`);
    if (typeof s.multipleOf === 'number' && s.multipleOf > 0 && Math.abs(value / s.multipleOf - Math.round(value / s.multipleOf)) > 1e-9) errs.push(`${at} must be a multiple of ${s.multipleOf}`);
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems) errs.push(`${at} must have at least ${s.minItems} items`);
    if (typeof s.maxItems === 'number' && value.length > s.maxItems) errs.push(`${at} must have at most ${s.maxItems} items`);
    const prefix = (Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : []) as Schema[];
    const rest = Array.isArray(s.items) ? (s.additionalItems as Schema | undefined) : (s.items as Schema | undefined);
    value.forEach((item, i) => {
      const sub = i < prefix.length ? prefix[i] : rest;
      if (sub !== undefined) errs.push(...validateJson(sub, item, root, `${path}/${i}`, depth + 1));
    });
    if (s.uniqueItems === true && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) errs.push(`${at} must not contain duplicates`);
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    const props = (s.properties ?? {}) as Record<string, Schema>;
    for (const r of (Array.isArray(s.required) ? s.required : []) as string[]) if (!(r in obj)) errs.push(`${at} is missing required property “${r}”`);
    for (const [k, v] of Object.entries(obj)) {
      if (k in props) errs.push(...validateJson(props[k], v, root, `${path}/${k}`, depth + 1));
      else if (s.additionalProperties === false) errs.push(`${at} has unknown property “${k}”`);
      else if (s.additionalProperties && typeof s.additionalProperties === 'object') errs.push(...validateJson(s.additionalProperties as Schema, v, root, `${path}/${k}`, depth + 1));
    }
    const n = Object.keys(obj).length;
    if (typeof s.minProperties === 'number' && n < s.minProperties) errs.push(`${at} must have at least ${s.minProperties} properties`);
    if (typeof s.maxProperties === 'number' && n > s.maxProperties) errs.push(`${at} must have at most ${s.maxProperties} properties`);
  }
  if (Array.isArray(s.allOf)) for (const sub of s.allOf as Schema[]) errs.push(...validateJson(sub, value, root, path, depth + 1));
  if (Array.isArray(s.anyOf) && !(s.anyOf as Schema[]).some((sub) => validateJson(sub, value, root, path, depth + 1).length === 0)) errs.push(`${at} must match one of the allowed shapes (anyOf)`);
  if (Array.isArray(s.oneOf)) {
    const hits = (s.oneOf as Schema[]).filter((sub) => validateJson(sub, value, root, path, depth + 1).length === 0).length;
    if (hits !== 1) errs.push(`${at} must match exactly one allowed shape (oneOf matched ${hits})`);
  }
  if (s.not !== undefined && validateJson(s.not as Schema, value, root, path, depth + 1).length === 0) errs.push(`${at} must not match the excluded shape (not)`);
  return errs;
}

/** Null when `value` satisfies `schema`, else a readable list of what is wrong and where. */
export function checkAgainstSchema(schema: Record<string, unknown> | undefined, value: unknown): string | null {
  if (!schema) return null;
  const errs = validateJson(schema, value);
  return errs.length ? errs.slice(0, 6).join('; ') : null;
}

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/**
 * Problems of a tool's JSON Schema itself (the mistakes that make every call fail later):
 * unknown `type` names, `required` that is not an array of strings, `properties` that is not
 * an object. Walks nested properties and items. Returns "" when none are found.
 */
export function schemaProblems(schema: unknown, at = ''): string {
  if (typeof schema === 'boolean') return '';
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return `${at || '/'} must be a JSON Schema object`;
  const s = schema as Record<string, unknown>;
  const types = Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type];
  for (const t of types) if (typeof t !== 'string' || !JSON_TYPES.has(t)) return `${at}/type: ${JSON.stringify(t)} is not a JSON type (string, number, integer, boolean, object, array, null)`;
  if (s.required !== undefined && !(Array.isArray(s.required) && s.required.every((r) => typeof r === 'string'))) return `${at}/required must be an array of property names`;
  if (s.properties !== undefined) {
    if (!s.properties || typeof s.properties !== 'object' || Array.isArray(s.properties)) return `${at}/properties must be an object`;
    for (const [k, v] of Object.entries(s.properties as Record<string, unknown>)) {
      const p = schemaProblems(v, `${at}/properties/${k}`);
      if (p) return p;
    }
  }
  if (s.items !== undefined && !Array.isArray(s.items)) return schemaProblems(s.items, `${at}/items`);
  return '';
}
