/**
 * How a tool call's output is built: from text or from parts, and the one way a failure becomes
 * its output, an `isError` ToolOutput with one text part saying what failed and what to do (the
 * shape MCP's CallToolResult uses for tool errors,
 * https://modelcontextprotocol.io/specification/2025-06-18/server/tools#error-handling).
 */
import type { ToolOutput, ToolResultPart } from './messages';

/** A tool output from a plain string (one text part) or from parts already converted. */
export function toolOutput(content: string | ToolResultPart[], isError = false): ToolOutput {
  return { content: typeof content === 'string' ? [{ type: 'text', text: content }] : content, isError };
}

/** `{ content: [{ type: 'text', text }], isError: true }`. */
export function toolErrorOutput(text: string): ToolOutput {
  return toolOutput(text, true);
}
