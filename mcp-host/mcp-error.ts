/**
 * The text of a server's JSON-RPC error as Stepwise shows it. The MCP TypeScript SDK's `McpError`
 * puts `MCP error <code>: ` before its message, and a server built on the SDK sends that whole
 * text as the JSON-RPC error's `message`, which the client's `McpError` prefixes again
 * ("MCP error -32002: MCP error -32002: Resource not found"). The prefix is said once here.
 */

/** Every `MCP error <code>: ` prefix at the start of `message` (repeated ones too), taken off. */
export function bareMcpMessage(message: string): string {
  return message.replace(/^(?:MCP error -?\d+: )+/, '');
}

/** `MCP error <code>: <message>`, the prefix once, from a JSON-RPC error's `code` and `message`. */
export function mcpErrorText(err: { code: number; message: string }): string {
  return `MCP error ${err.code}: ${bareMcpMessage(err.message)}`;
}
