/**
 * The protocol log of one server session: every JSON-RPC message (direction, time, size, body),
 * attributed to the tool call that caused it when there is one (docs/architecture.md#mcp-channel, MCP Inspector's
 * "History" pane). Bodies over `bodyCap` bytes are cut, with a marker saying so.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { McpLogEntry } from '../shared/protocol/mcp';

/** Bodies larger than this (bytes of JSON) are truncated in log entries. */
export const MCP_LOG_BODY_CAP = 16 * 1024;
/** How many entries a server's log keeps (oldest dropped first). */
export const MCP_LOG_RING = 500;

/** Builds a log entry; the body is the message itself, or its JSON cut at `cap` with a marker. */
export function logEntry(dir: 'in' | 'out', msg: JSONRPCMessage, cap = MCP_LOG_BODY_CAP, t = Date.now()): McpLogEntry {
  const json = JSON.stringify(msg);
  const size = Buffer.byteLength(json, 'utf8');
  const m = msg as { method?: unknown; id?: unknown };
  const entry: McpLogEntry = { t, dir, size, body: msg };
  if (typeof m.method === 'string') entry.method = m.method;
  if (typeof m.id === 'string' || typeof m.id === 'number') entry.id = m.id;
  if (size > cap) {
    entry.body = `${json.slice(0, cap)}… [truncated: message is ${size} bytes, first ${cap} shown]`;
    entry.truncated = true;
  }
  return entry;
}

type Key = string | number;

/**
 * Attributes messages to tool calls: a `tools/call` request takes the next queued call id;
 * its response, progress (the SDK uses the request id as progress token) and cancellation
 * follow the request id; server requests and log notifications go to the call the session is
 * serving (`current()`), and our answers to those requests follow their ids.
 */
export class CallAttributor {
  private readonly queue: string[] = [];
  private readonly byRequest = new Map<Key, string>();
  private readonly byServerRequest = new Map<Key, string>();

  constructor(private readonly current: () => string | undefined) {}

  /** Call just before `client.callTool`, in call order. */
  expectCall(callId: string): void {
    this.queue.push(callId);
  }

  /** Forget a call (ended before its request was sent). */
  drop(callId: string): void {
    const i = this.queue.indexOf(callId);
    if (i >= 0) this.queue.splice(i, 1);
  }

  /**
   * A server request turned out to belong to `callId` (the session settles which call caused
   * it only after it was logged): its answer goes to that call too. Returns the call it was
   * first given to.
   */
  rehome(requestId: Key, callId: string): string | undefined {
    const before = this.byServerRequest.get(requestId);
    this.byServerRequest.set(requestId, callId);
    return before;
  }

  /** The call a message belongs to, if any. */
  attribute(dir: 'in' | 'out', msg: JSONRPCMessage): string | undefined {
    const m = msg as { method?: string; id?: Key; params?: Record<string, unknown> };
    const isRequest = m.method !== undefined && m.id !== undefined;
    const isResponse = m.method === undefined && m.id !== undefined;
    if (dir === 'out') {
      if (m.method === 'tools/call' && isRequest) {
        const callId = this.queue.shift();
        if (callId) this.byRequest.set(m.id!, callId);
        return callId;
      }
      if (m.method === 'notifications/cancelled') return this.byRequest.get(m.params?.requestId as Key);
      if (isResponse) {
        const callId = this.byServerRequest.get(m.id!);
        this.byServerRequest.delete(m.id!);
        return callId;
      }
      return undefined;
    }
    if (isResponse) {
      const callId = this.byRequest.get(m.id!);
      this.byRequest.delete(m.id!);
      return callId;
    }
    if (m.method === 'notifications/progress') return this.byRequest.get(m.params?.progressToken as Key);
    if (isRequest) {
      const callId = this.current();
      if (callId) this.byServerRequest.set(m.id!, callId);
      return callId;
    }
    if (m.method === 'notifications/message') return this.current();
    return undefined;
  }
}
