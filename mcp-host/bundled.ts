/**
 * Servers bundled with Stepwise (settings/mcp.json `"type": "bundled"`), run inside the
 * mcp-host: no process, no stdin, so they work where the mcp-host is an Electron utility
 * process and the app's executable cannot run scripts as Node (its `runAsNode` fuse is off).
 * Each connection gets its own server, linked to the SDK client by the SDK's
 * `InMemoryTransport` pair; every message is copied through JSON on its way, as it would be on
 * a pipe, so neither side shares objects with the other.
 */
import { randomUUID } from 'node:crypto';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { BundledMcpServer } from '../shared/protocol/mcp';

/** One server instance for one connection, and what ends it (`sessionId` is the connection's). */
interface BundledInstance {
  server: McpServer;
  cleanup(sessionId: string): void;
}

/** The tools a server registered, by name (the SDK keeps them in a field it does not publish). */
type RegisteredTools = Record<string, { update(u: { callback: () => Promise<unknown> }): void }>;

/**
 * server-everything's `createServer()` (dist/server/index.js: `{ server: McpServer, cleanup }`,
 * what its own stdio entry connects to a `StdioServerTransport`). Its `get-env` tool prints
 * `process.env`: here that is the mcp-host's, which may hold the user's keys, so it prints the
 * environment the same server started over stdio gets instead (the SDK's safe defaults).
 */
async function everything(): Promise<BundledInstance> {
  let mod: { createServer(): BundledInstance };
  try {
    // @ts-expect-error server-everything ships JavaScript without type declarations.
    mod = await import('@modelcontextprotocol/server-everything/dist/server/index.js');
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND';
    throw new Error(missing ? '@modelcontextprotocol/server-everything is not installed with this copy of Stepwise' : `server-everything failed to load: ${(err as Error).message}`, { cause: err });
  }
  const instance = mod.createServer();
  const tools = (instance.server as unknown as { _registeredTools?: RegisteredTools })._registeredTools;
  if (!tools || typeof tools !== 'object') throw new Error('server-everything: cannot reach its tools to hide the mcp-host environment from get-env; not started');
  tools['get-env']?.update({ callback: async () => ({ content: [{ type: 'text', text: JSON.stringify(getDefaultEnvironment(), null, 2) }] }) });
  return instance;
}

const SERVERS: Record<BundledMcpServer, () => Promise<BundledInstance>> = { everything };

/** The message as the other side would read it off a pipe. */
function overWire<T extends JSONRPCMessage>(message: T): T {
  return JSON.parse(JSON.stringify(message)) as T;
}

/**
 * The client's end of a connection to bundled server `name`. `start()` creates the server and
 * connects it to the other end of an in-memory pair, under a fresh session id (server-everything
 * keeps roots, simulated logging and subscriptions per session id in module-wide maps, so two
 * connections in one process must not share one). `close()` closes both ends and ends the
 * server's timers. Throws from `start()` naming the server when it cannot be created.
 */
export class BundledServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private client?: InMemoryTransport;
  private ended = false;

  constructor(readonly name: BundledMcpServer) {}

  async start(): Promise<void> {
    if (this.client) throw new Error(`bundled MCP server "${this.name}": already started`);
    const { server, cleanup } = await SERVERS[this.name]();
    const [client, serverEnd] = InMemoryTransport.createLinkedPair();
    // Only the server's end has a session id: on the client's, the SDK would take one as a
    // reconnection and skip the handshake.
    const sessionId = randomUUID();
    serverEnd.sessionId = sessionId;
    client.onmessage = (message, extra) => this.onmessage?.(overWire(message), extra);
    client.onerror = (error) => this.onerror?.(error);
    client.onclose = () => {
      if (this.ended) return;
      this.ended = true;
      cleanup(sessionId);
      this.onclose?.();
    };
    try {
      await server.connect(serverEnd);
      await client.start();
    } catch (err) {
      await client.close().catch(() => {});
      throw err;
    }
    this.client = client;
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (!this.client || this.ended) throw new Error(`bundled MCP server "${this.name}": not connected`);
    await this.client.send(overWire(message), options);
  }

  async close(): Promise<void> {
    if (this.client) return this.client.close();
    if (!this.ended) {
      this.ended = true;
      this.onclose?.();
    }
  }
}
