#!/usr/bin/env node
// A deliberately faulty stdio MCP server for tests. Tools:
//   ok       — echoes `text`
//   crash    — writes to stderr and exits (code 3) in the middle of the call
//   hang     — never answers
//   garbage  — writes lines that are not JSON-RPC to stdout and never answers
//   big      — returns `bytes` (default 5 MiB) of text in one result
//   refuse   — throws the SDK's McpError(-32602): the SDK sends its message with "MCP error -32602: " before it
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'faulty', version: '1.0.0' }, { capabilities: { tools: {} } });
const obj = (props = {}) => ({ type: 'object', properties: props });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: 'ok', inputSchema: obj({ text: { type: 'string' } }) },
    { name: 'crash', inputSchema: obj() },
    { name: 'hang', inputSchema: obj() },
    { name: 'garbage', inputSchema: obj() },
    { name: 'big', inputSchema: obj({ bytes: { type: 'integer' } }) },
    { name: 'refuse', inputSchema: obj() },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  const args = req.params.arguments ?? {};
  switch (req.params.name) {
    case 'ok':
      return { content: [{ type: 'text', text: `ok: ${args.text ?? ''}` }] };
    case 'crash':
      process.stderr.write('faulty: about to crash on purpose\n');
      setTimeout(() => process.exit(3), 20);
      return new Promise(() => {});
    case 'hang':
      return new Promise(() => {});
    case 'garbage':
      process.stdout.write('this is not JSON-RPC\n{"also": "not a message"}\n');
      return new Promise(() => {});
    case 'big': {
      const n = Number(args.bytes ?? 5 * 1024 * 1024);
      return { content: [{ type: 'text', text: 'x'.repeat(n - 3) + 'END' }] };
    }
    case 'refuse':
      throw new McpError(ErrorCode.InvalidParams, 'refused on purpose');
    default:
      throw new Error(`unknown tool ${req.params.name}`);
  }
});
await server.connect(new StdioServerTransport());
