#!/usr/bin/env node
// A test MCP server (stdio) whose tool list changes: calling `add-tool` registers `extra`,
// and the SDK's McpServer sends notifications/tools/list_changed. `log-and-return` logs mid-call.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'dynamic', version: '1.0.0' }, { capabilities: { logging: {} } });
// Logs while it runs (notifications/message), then answers.
server.registerTool('log-and-return', { description: 'Logs a message during the call.' }, async () => {
  await server.sendLoggingMessage({ level: 'info', logger: 'dynamic', data: 'halfway there' });
  return { content: [{ type: 'text', text: 'logged' }] };
});
let added = false;
server.registerTool('add-tool', { description: 'Adds the tool "extra".' }, async () => {
  if (!added) {
    added = true;
    server.registerTool('extra', { description: 'A tool that appeared later.' }, async () => ({ content: [{ type: 'text', text: 'extra ran' }] }));
  }
  return { content: [{ type: 'text', text: 'added' }] };
});
await server.connect(new StdioServerTransport());
