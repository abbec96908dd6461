/** A server's JSON-RPC error text shows the `MCP error <code>: ` prefix once, however often the SDKs added it. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { bareMcpMessage, mcpErrorText } from './mcp-error';

describe('mcpErrorText', () => {
  it('says the prefix once for an error an SDK server sent (its message already prefixed) and for a plain one', () => {
    // What the client's McpError holds when an SDK server threw McpError(-32002, …).
    const twice = new McpError(-32002, new McpError(-32002, 'Resource not found: demo://x').message);
    expect(twice.message).toBe('MCP error -32002: MCP error -32002: Resource not found: demo://x');
    expect(mcpErrorText(twice)).toBe('MCP error -32002: Resource not found: demo://x');
    expect(mcpErrorText(new McpError(-32603, 'Unknown resource: demo://y'))).toBe('MCP error -32603: Unknown resource: demo://y');
    // Only a leading prefix is taken off: the server's own words stay.
    expect(bareMcpMessage('bad cursor "MCP error -1: x"')).toBe('bad cursor "MCP error -1: x"');
  });

  it('property: any number of prefixes before any message give one prefix and the message', () => {
    const text = fc.string().filter((s) => !/^MCP error -?\d+: /.test(s));
    fc.assert(
      fc.property(fc.integer({ min: -32768, max: 32767 }), fc.nat({ max: 4 }), text, (code, n, message) => {
        let err = new McpError(code, message);
        for (let i = 0; i < n; i++) err = new McpError(code, err.message);
        expect(mcpErrorText(err)).toBe(`MCP error ${code}: ${message}`);
      }),
    );
  });
});
