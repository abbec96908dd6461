/** Validate tool-call arguments against a tool's JSON Schema with ajv (browser-safe). */
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Tool } from '../../../../shared/thread/schema';

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const cache = new WeakMap<object, ValidateFunction | string>();

/** The JSON Schema of a tool's arguments, if it has one. */
export function toolSchema(tool: Tool | undefined): Record<string, unknown> | undefined {
  if (!tool) return undefined;
  return tool.type === 'mcp' ? tool.inputSchema : tool.parameters;
}

/** Null when `value` satisfies `schema`, else a readable list of what is wrong and where. */
export function checkAgainstSchema(schema: Record<string, unknown> | undefined, value: unknown): string | null {
  if (!schema) return null;
  let v = cache.get(schema);
  if (v === undefined) {
    try {
      v = ajv.compile(schema);
    } catch (err) {
      v = `The tool's schema is not valid JSON Schema: ${(err as Error).message}`;
    }
    cache.set(schema, v);
  }
  if (typeof v === 'string') return v;
  if (v(value)) return null;
  return (v.errors ?? []).map((e) => `${e.instancePath || '(arguments)'} ${e.message ?? 'is invalid'}`).join('; ');
}
