/**
 * The one way a tool call's failure becomes its output: an `isError` ToolOutput with one text
 * part saying what failed and what to do (the shape MCP's CallToolResult uses for tool errors,
 * https://modelcontextprotocol.io/specification/2025-06-18/server/tools#error-handling).
 */
import type { ToolOutput } from './schema';

/** `{ content: [{ type: 'text', text }], isError: true }`. */
export function toolErrorOutput(text: string): ToolOutput {
  return { content: [{ type: 'text', text }], isError: true };
}
