#!/usr/bin/env node
// A stdio MCP server with tools that declare an outputSchema ({ temperature: number,
// conditions: string }, both required):
//   weather      — returns conforming structuredContent
//   bad-weather  — returns structuredContent that breaks it (temperature a string, no conditions)
//   no-structure — returns only text
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const outputSchema = { type: 'object', properties: { temperature: { type: 'number' }, conditions: { type: 'string' } }, required: ['temperature', 'conditions'] };
const server = new Server({ name: 'structured', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: ['weather', 'bad-weather', 'no-structure'].map((name) => ({ name, inputSchema: { type: 'object' }, outputSchema })),
}));
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  const structured = { weather: { temperature: 21, conditions: 'Sunny' }, 'bad-weather': { temperature: 'hot' } }[req.params.name];
  return { content: [{ type: 'text', text: JSON.stringify(structured ?? 'no structure') }], ...(structured ? { structuredContent: structured } : {}) };
});
await server.connect(new StdioServerTransport());
