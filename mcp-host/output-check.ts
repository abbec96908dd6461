/**
 * A tool result checked against the tool's `outputSchema` (MCP 2025-06-18, "Structured
 * Content"): a tool with an output schema must return `structuredContent` that conforms to it,
 * unless the result is an error. The SDK client would throw on a mismatch and lose the result;
 * Stepwise keeps the result and names each problem, so a developer sees both.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { validateArguments } from '../shared/json/json-schema';

/**
 * Problems of `result` against `outputSchema`, one line each naming the JSON pointer of the
 * failing value under `structuredContent`; empty when it conforms or there is no schema.
 */
export function outputProblems(outputSchema: Record<string, unknown> | undefined, result: Pick<CallToolResult, 'structuredContent' | 'isError'>): string[] {
  if (!outputSchema || result.isError) return [];
  if (result.structuredContent === undefined) return ['the tool declares an outputSchema but its result has no structuredContent'];
  return (validateArguments(outputSchema, result.structuredContent) ?? []).map((p) => `structuredContent${p.startsWith('/') ? p : ` ${p}`}`);
}
