#!/usr/bin/env node
// A stdio MCP server whose lists come in pages (server-everything never pages): 25 resources
// and 12 prompts, 10 per page, the cursor being the next index as a string. A cursor that is
// not one it gave out is answered with JSON-RPC error -32602. Its resources read as their name;
// any other URI is answered with -32002 (the spec's "Resource not found"), thrown as the SDK's
// McpError, whose message the SDK sends with its own "MCP error -32002: " before it.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ListPromptsRequestSchema, ListResourcesRequestSchema, ReadResourceRequestSchema, McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';

const PAGE = 10;
const server = new Server({ name: 'paged', version: '1.0.0' }, { capabilities: { resources: {}, prompts: {} } });

function page(all, cursor) {
  const start = cursor === undefined ? 0 : Number(cursor);
  if (!Number.isInteger(start) || start < 0 || start >= all.length) throw new McpError(ErrorCode.InvalidParams, `bad cursor ${JSON.stringify(cursor)}`);
  const end = start + PAGE;
  return { items: all.slice(start, end), nextCursor: end < all.length ? String(end) : undefined };
}

const resources = Array.from({ length: 25 }, (_, i) => ({ uri: `paged://r/${i}`, name: `r${i}`, mimeType: 'text/plain' }));
const prompts = Array.from({ length: 12 }, (_, i) => ({ name: `p${i}` }));
server.setRequestHandler(ListResourcesRequestSchema, async (req) => {
  const p = page(resources, req.params?.cursor);
  return { resources: p.items, ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}) };
});
server.setRequestHandler(ListPromptsRequestSchema, async (req) => {
  const p = page(prompts, req.params?.cursor);
  return { prompts: p.items, ...(p.nextCursor ? { nextCursor: p.nextCursor } : {}) };
});
server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
  const r = resources.find((x) => x.uri === req.params.uri);
  if (!r) throw new McpError(-32002, `Resource not found: ${req.params.uri}`);
  return { contents: [{ uri: r.uri, mimeType: r.mimeType, text: r.name }] };
});
await server.connect(new StdioServerTransport());
