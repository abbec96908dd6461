#!/usr/bin/env node
// A test MCP server whose tool `list-roots` asks the client for its roots (`roots/list`, the
// SDK's `listRoots()`) and answers with them. Transport by argument: `stdio` (default), or
// `http` / `sse` on a free 127.0.0.1 port, whose URL it prints as one JSON line on stdout
// ({"url": …}), and `GET /answered` lists what roots/list answered at the start of each session
// so far. Built from the SDK's own server classes.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';

/** What roots/list answered at the start of each session, in order. */
const answered = [];

function serverFor() {
  const server = new McpServer({ name: 'roots', version: '1.0.0' });
  // As @modelcontextprotocol/server-filesystem does: ask for the roots as soon as the client
  // says it is initialized, if it declares the capability; `roots-at-start` tells what came back.
  let atStart = 'the client declared no roots capability';
  server.server.oninitialized = () => {
    if (!server.server.getClientCapabilities()?.roots) return;
    atStart = 'asked, no answer yet';
    server.server.listRoots(undefined, { timeout: 10_000 }).then(
      ({ roots }) => {
        atStart = JSON.stringify(roots);
        answered.push(roots);
      },
      (err) => (atStart = `roots/list failed: ${err.message}`),
    );
  };
  server.registerTool('roots-at-start', { description: 'What roots/list answered when the session started.' }, async () => ({ content: [{ type: 'text', text: atStart }] }));
  server.registerTool('list-roots', { description: "Lists the client's roots (asks it with roots/list)." }, async () => {
    const { roots } = await server.server.listRoots(undefined, { timeout: 10_000 });
    return { content: [{ type: 'text', text: JSON.stringify(roots) }] };
  });
  return server;
}

const mode = process.argv[2] ?? 'stdio';
if (mode === 'stdio') {
  await serverFor().connect(new StdioServerTransport());
} else {
  const sessions = new Map();
  const body = (req) => new Promise((resolve) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => resolve(text ? JSON.parse(text) : undefined));
  });
  const httpServer = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (url.pathname === '/answered') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answered));
    } else if (mode === 'http' && url.pathname === '/mcp') {
      const id = req.headers['mcp-session-id'];
      let transport = id ? sessions.get(id) : undefined;
      if (!transport) {
        transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (sid) => sessions.set(sid, transport) });
        await serverFor().connect(transport);
      }
      await transport.handleRequest(req, res, req.method === 'POST' ? await body(req) : undefined);
    } else if (mode === 'sse' && url.pathname === '/sse' && req.method === 'GET') {
      const transport = new SSEServerTransport('/messages', res);
      sessions.set(transport.sessionId, transport);
      await serverFor().connect(transport);
    } else if (mode === 'sse' && url.pathname === '/messages' && req.method === 'POST') {
      const transport = sessions.get(url.searchParams.get('sessionId'));
      if (!transport) return void res.writeHead(404).end();
      await transport.handlePostMessage(req, res, await body(req));
    } else {
      res.writeHead(404).end();
    }
  });
  httpServer.listen(0, '127.0.0.1', () => {
    const { port } = httpServer.address();
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/${mode === 'http' ? 'mcp' : 'sse'}` })}\n`);
  });
}
