/**
 * Reading the JSON of a settings file (settings/mcp.json, settings/providers.json) with a
 * syntax error a person can find: the line and column (1-based) of the first problem and what
 * it is. One wording for every settings file, so their errors read the same.
 */
import { parseJsonText } from '../../../shared/thread/json-text';

/** The parsed value, or what is wrong: `not valid JSON at line 3, column 7: expected …`. */
export type SettingsJsonResult = { ok: true; value: unknown } | { ok: false; problem: string };

/** Parses the text of a settings file. Never throws. */
export function parseSettingsJson(text: string): SettingsJsonResult {
  const parsed = parseJsonText(text);
  if (parsed.ok) return parsed;
  const p = parsed.problem;
  return { ok: false, problem: `not valid JSON at line ${p.line}, column ${p.column}: ${p.message}` };
}
