/**
 * One configured MCP server: an SDK `Client` connected lazily, its status, its tool list
 * (paginated, refreshed on `notifications/tools/list_changed`), stderr, protocol log, and the
 * client-side handlers (sampling, elicitation, roots, logging). The calls it serves and the
 * routing of server requests to them: session-calls.ts; its roots: session-roots.ts.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type JSONRPCMessage,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpLogEntry, McpLogFilter, McpOAuthCredentials, McpServerConfig } from '../shared/protocol/mcp';
import type { McpServerInfo, McpToolInfo } from '../shared/protocol/host-api';
import { openTransport } from './transport';
import { logEntry, MCP_LOG_RING } from './protocol-log';
import { filterLog } from '../shared/protocol/mcp-log-filter';
import { RemoteAuth, type SessionAuth } from './session-auth';
import { diagnoseBeforeConnect, diagnoseConnect, type Diagnosis } from './diagnose';
import { RunTurns } from './run-turns';
import { SessionCalls, type ActiveCall, type ServerRequestHook } from './session-calls';
import { SessionRoots } from './session-roots';

/** Handshake timeout (ms); a server's own `timeoutMs`, when shorter, applies to the handshake too. */
export const CONNECT_TIMEOUT_MS = 20_000;
const STDERR_CAP = 64 * 1024;
const MAX_TOOL_PAGES = 100;

/** What the session asks its owner for (the McpHost routes these to the calling runner). */
export interface SessionHooks {
  serverRequest: ServerRequestHook;
  log(callId: string | undefined, level: string, logger: string | undefined, data: unknown): void;
  toolsChanged(): void;
  /** A subscribed resource changed (`notifications/resources/updated`). */
  resourceUpdated?(uri: string): void;
  /** The session's status changed (connecting, connected, error with its reason, disconnected, an OAuth step). */
  statusChanged?(info: McpServerInfo): void;
  /** A remote server's OAuth credentials changed (the host stores them). */
  authSaved?(credentials: McpOAuthCredentials): void;
  /** One protocol log entry, as it is recorded. */
  logged?(entry: McpLogEntry): void;
}

/** Thrown for a failed connect; `diagnosis` says why. */
export class ConnectError extends Error {
  /** The error code the host's callers see (contract/errors.ts). */
  readonly code = 'connect_failed';
  constructor(readonly diagnosis: Diagnosis) {
    super(diagnosis.message);
  }
}

export class ServerSession {
  private client?: Client;
  private connecting?: Promise<Client>;
  private tools?: Tool[];
  private status: McpServerInfo['status'] = 'disconnected';
  private lastError?: string;
  private stderrBuf = '';
  private readonly log: McpLogEntry[] = [];
  /** The tool calls in flight, and which of them each message and server request belongs to. */
  private readonly calls: SessionCalls;
  private readonly roots = new SessionRoots();
  private closed = false;
  /** One run's calls at a time (run-turns.ts), so server requests reach the right run. */
  readonly turns = new RunTurns();
  /** Resource URIs subscribed (resources.ts), subscribed again after a reconnect. */
  readonly subscriptions = new Set<string>();
  /** OAuth for a remote server. */
  private readonly remote: RemoteAuth;
  /** What `initialize` answered on the last connection. */
  private initialized?: Pick<McpServerInfo, 'serverInfo' | 'capabilities' | 'instructions'>;

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly hooks: SessionHooks,
    /** Read when the server first needs OAuth (the host may learn its callback URL later). */
    auth: () => SessionAuth = () => ({}),
  ) {
    this.calls = new SessionCalls((...a) => hooks.serverRequest(...a));
    this.remote = new RemoteAuth(name, config, auth, {
      saved: (c) => hooks.authSaved?.(c),
      changed: () => {
        if (!this.closed) hooks.statusChanged?.(this.info());
      },
    });
  }

  info(): McpServerInfo {
    const i: McpServerInfo = { name: this.name, transport: this.config.transport, status: this.status };
    if (this.lastError && this.status === 'error') i.error = this.lastError;
    const auth = this.remote.status();
    if (auth) i.auth = auth;
    if (this.initialized) Object.assign(i, this.initialized);
    const roots = this.roots.paths();
    if (roots.length) i.roots = roots;
    return i;
  }

  /** Sets the status (and the reason of an `error`) and tells the owner when it changed. */
  private setStatus(status: McpServerInfo['status'], error?: string): void {
    const changed = status !== this.status || (status === 'error' && error !== this.lastError);
    this.status = status;
    if (status === 'error') this.lastError = error;
    else if (status === 'connected') this.lastError = undefined;
    if (changed && !this.closed) this.hooks.statusChanged?.(this.info());
  }

  stderr(): string {
    return this.stderrBuf;
  }

  /** The protocol log (every message in and out, the last {@link MCP_LOG_RING}), filtered by `filter`. */
  messages(filter?: McpLogFilter): McpLogEntry[] {
    return filter ? filterLog(this.log, filter) : [...this.log];
  }

  /** The connected client, connecting first if needed (lazily, once at a time). */
  async connect(): Promise<Client> {
    if (this.client) return this.client;
    if (this.closed) throw new ConnectError({ kind: 'error', message: `MCP server "${this.name}" was reconfigured or removed; this connection is closed.` });
    if (!this.connecting) {
      this.connecting = this.open().finally(() => (this.connecting = undefined));
    }
    return this.connecting;
  }

  private async open(): Promise<Client> {
    this.setStatus('connecting');
    this.tools = undefined;
    const refused = diagnoseBeforeConnect(this.name, this.config);
    if (refused) {
      this.setStatus('error', refused.message);
      throw new ConnectError(refused);
    }
    const client = new Client(
      { name: 'stepwise', version: '0.1.0' },
      { capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } } },
    );
    this.installHandlers(client);
    const stderrStart = this.stderrBuf.length;
    const connectTimeout = Math.min(CONNECT_TIMEOUT_MS, this.config.timeoutMs ?? CONNECT_TIMEOUT_MS);
    const oauth = this.remote.provider();
    try {
      const transport = openTransport(this.config, { stderr: (c) => this.appendStderr(c), message: (dir, msg) => this.record(dir, msg) }, oauth);
      await client.connect(transport, { timeout: connectTimeout });
    } catch (err) {
      await client.close().catch(() => {});
      const refused = this.remote.failure(err);
      const d = refused ?? diagnoseConnect(this.name, this.config, err, connectTimeout, this.stderrBuf.slice(stderrStart));
      this.setStatus('error', d.message);
      throw new ConnectError(d);
    }
    if (this.closed) {
      await client.close().catch(() => {});
      throw new ConnectError({ kind: 'error', message: `MCP server "${this.name}" was reconfigured or removed while connecting.` });
    }
    client.onclose = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.tools = undefined;
      this.setStatus('disconnected');
    };
    client.onerror = (err) => this.onTransportError(err);
    this.client = client;
    const v = client.getServerVersion();
    this.initialized = {
      ...(v ? { serverInfo: { name: v.name, version: v.version, ...(v.title ? { title: v.title } : {}) } } : {}),
      capabilities: (client.getServerCapabilities() ?? {}) as Record<string, unknown>,
      ...(client.getInstructions() ? { instructions: client.getInstructions() } : {}),
    };
    this.remote.connected();
    this.setStatus('connected');
    // A reconnect keeps the subscriptions made on the previous connection.
    for (const uri of this.subscriptions) client.subscribeResource({ uri }).catch(() => {});
    return client;
  }

  /**
   * The authorization server sent the browser back to the callback: exchanges `code` for tokens
   * and connects; a failed step (or `error`, the person declined) is the session's error.
   */
  async finishAuth(code: string | undefined, error: string | undefined): Promise<void> {
    const failed = await this.remote.exchange(code, error);
    if (failed) return this.setStatus('error', failed);
    await this.connect().catch(() => {});
  }

  /** The `state` of this session's OAuth flow waiting for the person, if one waits. */
  pendingAuthState(): string | undefined {
    return this.remote.pendingState();
  }

  /** Forgets the tokens and signs in again (the flow's steps are reported as status). */
  async reauthorize(): Promise<void> {
    this.remote.forgetTokens();
    const c = this.client;
    this.client = undefined;
    await c?.close().catch(() => {});
    await this.connect().catch(() => {});
  }

  private installHandlers(client: Client): void {
    client.setRequestHandler(ListRootsRequestSchema, async () => this.roots.answer());
    client.setRequestHandler(CreateMessageRequestSchema, async (req, extra) => (await this.calls.forward('sampling', req, extra)) as never);
    client.setRequestHandler(ElicitRequestSchema, async (req, extra) => (await this.calls.forward('elicitation', req, extra)) as never);
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      this.hooks.log(this.calls.current(), n.params.level, n.params.logger, n.params.data);
    });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.tools = undefined;
      this.hooks.toolsChanged();
    });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => this.hooks.resourceUpdated?.(n.params.uri));
  }

  /** A stdio line that is not JSON-RPC: fail the calls in flight (their answer may be lost). */
  private onTransportError(err: Error): void {
    const garbage = err instanceof SyntaxError || err.name === 'ZodError' || /JSON/.test(err.message);
    // Progress for a call that already ended (cancelled, timed out) is expected, not an error.
    if (/progress notification for an unknown token/i.test(err.message)) return;
    this.appendStderr(`[stepwise] transport error: ${err.message.replace(/\s+/g, ' ').slice(0, 300)}\n`);
    if (!garbage || this.calls.size === 0) return;
    this.calls.abortAll(new Error(`protocol error: MCP server "${this.name}" wrote output that is not JSON-RPC: ${err.message.slice(0, 300)}`));
  }

  private appendStderr(chunk: string): void {
    this.stderrBuf += chunk;
    if (this.stderrBuf.length > STDERR_CAP) this.stderrBuf = this.stderrBuf.slice(-STDERR_CAP);
  }

  private record(dir: 'in' | 'out', msg: JSONRPCMessage): void {
    const entry = logEntry(dir, msg);
    this.log.push(entry);
    this.hooks.logged?.(entry);
    if (this.log.length > MCP_LOG_RING) this.log.splice(0, this.log.length - MCP_LOG_RING);
    this.calls.place(dir, msg, entry);
  }

  /** Registers a call; the next `tools/call` request sent is attributed to it. Returns its unregister. */
  begin(call: ActiveCall): () => void {
    return this.calls.begin(call);
  }

  /**
   * Makes `roots` the roots answered on `roots/list`; on a live connection the server is told
   * and given a moment to fetch them (session-roots.ts).
   */
  setRoots(roots: string[] | undefined): Promise<void> {
    return this.roots.set(roots, this.client);
  }

  /** After a fresh connect with roots: give the server (≤ 500 ms) to fetch them. */
  settleRoots(fresh: boolean): Promise<void> {
    return this.roots.settle(fresh);
  }

  isConnected(): boolean {
    return this.client !== undefined;
  }

  /** All tools (every page), cached until the server says the list changed. */
  async listTools(): Promise<McpToolInfo[]> {
    const client = await this.connect();
    if (!this.tools) {
      const all: Tool[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_TOOL_PAGES; page++) {
        const r = await client.listTools(cursor ? { cursor } : undefined);
        all.push(...r.tools);
        cursor = r.nextCursor;
        if (!cursor) break;
      }
      this.tools = all;
    }
    return this.tools.map(toToolInfo);
  }

  /** A tool's `outputSchema` (listing the tools if not cached); undefined when it has none or the list fails. */
  async outputSchemaOf(tool: string): Promise<Record<string, unknown> | undefined> {
    try {
      return (await this.listTools()).find((t) => t.name === tool)?.outputSchema;
    } catch {
      return undefined;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const c = this.client;
    this.client = undefined;
    this.status = 'disconnected';
    this.calls.abortAll(new Error(`MCP server "${this.name}" was removed or reconfigured.`));
    await c?.close().catch(() => {});
  }
}

function toToolInfo(t: Tool): McpToolInfo {
  const info: McpToolInfo = { name: t.name, inputSchema: t.inputSchema as Record<string, unknown> };
  if (t.title) info.title = t.title;
  if (t.description) info.description = t.description;
  if (t.outputSchema) info.outputSchema = t.outputSchema as Record<string, unknown>;
  if (t.annotations) info.annotations = t.annotations as Record<string, unknown>;
  return info;
}
