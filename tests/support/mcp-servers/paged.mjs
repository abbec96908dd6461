#!/usr/bin/env node
// A stdio MCP server whose lists come in pages (server-everything never pages): 25 resources
// and 12 prompts, 10 per page, the cursor being the next index as a string. A cursor that is
// not one it gave out is answered with JSON-RPC error -32602.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ListPromptsRequestSchema, ListResourcesRequestSchema, McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';

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
await server.connect(new StdioServerTransport());
