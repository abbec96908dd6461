/**
 * The tool calls one MCP server session is serving, and which of them each protocol message
 * and each server request (sampling, elicitation) belongs to: MCP does not link a server
 * request to the tool call that caused it, so the session settles it here.
 */
import { McpError, ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { McpLogEntry } from '../shared/protocol/mcp';
import { CallAttributor } from './protocol-log';

/** A call the session is serving, as the session sees it. */
export interface ActiveCall {
  callId: string;
  /** Per-call protocol log. */
  mcpLog: McpLogEntry[];
  /** Aborts the call; the reason becomes the call's error. */
  abort(reason: Error): void;
  /**
   * A progress notification for the call, seen on the wire. (The SDK dispatches notifications
   * a tick after responses, so its own `onprogress` misses a progress sent right before the result.)
   */
  progress(progress: number, total?: number, message?: string): void;
  /**
   * A server request caused by the call (sampling, elicitation) waits on a model or a person:
   * the call's timeout stops until the returned function is called.
   */
  hold?(): () => void;
}

/** Asks the session's owner to answer a server request on behalf of call `callId`. */
export type ServerRequestHook = (callId: string, kind: 'sampling' | 'elicitation', params: Record<string, unknown>, signal: AbortSignal) => Promise<unknown>;

/** The calls in flight on one session, oldest first. */
export class SessionCalls {
  private readonly calls = new Map<string, ActiveCall>();
  private readonly attributor = new CallAttributor(() => this.current());
  /** Server requests logged but not yet given to a call (see `rehome`), by JSON-RPC id. */
  private readonly unplaced = new Map<string | number, McpLogEntry>();

  constructor(private readonly serverRequest: ServerRequestHook) {}

  /** How many calls are in flight. */
  get size(): number {
    return this.calls.size;
  }

  /** Registers a call; the next `tools/call` request sent is attributed to it. Returns its unregister. */
  begin(call: ActiveCall): () => void {
    this.calls.set(call.callId, call);
    this.attributor.expectCall(call.callId);
    return () => {
      this.calls.delete(call.callId);
      this.attributor.drop(call.callId);
    };
  }

  /** The call server requests are routed to: the oldest call in flight (see README note). */
  current(): string | undefined {
    return this.calls.keys().next().value;
  }

  /**
   * With several calls in flight, waits a moment so quick calls can finish: the call that
   * caused a server request cannot finish before it is answered, so it is still in flight
   * afterwards. Resolves with the call to route the request to.
   */
  async settled(): Promise<string | undefined> {
    if (this.calls.size > 1) await new Promise((r) => setTimeout(r, 50));
    return this.current();
  }

  /** Fails every call in flight with `reason`. */
  abortAll(reason: Error): void {
    for (const c of [...this.calls.values()]) c.abort(reason);
  }

  /**
   * Files one protocol message (already in the session's log as `entry`) in the protocol log
   * of the call it belongs to, and passes a progress notification on to that call. A sampling
   * or elicitation request waits for its handler to settle which call caused it (`forward`).
   */
  place(dir: 'in' | 'out', msg: JSONRPCMessage, entry: McpLogEntry): void {
    const callId = this.attributor.attribute(dir, msg);
    if (dir === 'in' && entry.id !== undefined && (entry.method === 'sampling/createMessage' || entry.method === 'elicitation/create')) {
      this.unplaced.set(entry.id, entry);
      return;
    }
    const call = callId ? this.calls.get(callId) : undefined;
    if (!call) return;
    call.mcpLog.push(entry);
    const m = msg as { method?: string; params?: { progress?: unknown; total?: unknown; message?: unknown } };
    if (dir === 'in' && m.method === 'notifications/progress' && typeof m.params?.progress === 'number') {
      const { progress, total, message } = m.params;
      call.progress(progress as number, typeof total === 'number' ? total : undefined, typeof message === 'string' ? message : undefined);
    }
  }

  /**
   * Answers server request `req` (sampling or elicitation) through the call that caused it, with
   * that call's timeout stopped meanwhile (the answer waits on a model or a person). Outside a
   * tool call the request is refused (`InvalidRequest`).
   */
  async forward(
    kind: 'sampling' | 'elicitation',
    req: { method: string; params: unknown },
    extra: { requestId: string | number; signal: AbortSignal },
  ): Promise<unknown> {
    const callId = await this.settled();
    if (!callId) {
      this.unplaced.delete(extra.requestId);
      throw new McpError(ErrorCode.InvalidRequest, `Stepwise answers ${req.method} only while one of this server's tool calls runs.`);
    }
    this.rehome(extra.requestId, callId);
    const release = this.calls.get(callId)?.hold?.();
    try {
      return await this.serverRequest(callId, kind, req.params as Record<string, unknown>, extra.signal);
    } finally {
      release?.();
    }
  }

  /**
   * Once it is settled which call caused server request `requestId`, its log entry (held back
   * in `unplaced`) and its answer go to that call's protocol log.
   */
  private rehome(requestId: string | number, callId: string): void {
    this.attributor.rehome(requestId, callId);
    const entry = this.unplaced.get(requestId);
    this.unplaced.delete(requestId);
    if (entry) this.calls.get(callId)?.mcpLog.push(entry);
  }
}
