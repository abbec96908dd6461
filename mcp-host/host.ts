/**
 * The mcp-host's dispatcher: owns one `ServerSession` per configured server, answers the
 * host's requests (servers, tools, test, serverLog), runs the runners' tool calls (tagged with
 * their runId by the host's relay, or arriving on a run's own brokered port) and routes server
 * requests (sampling, elicitation) back to the run whose call caused them, the same way.
 */
import { randomUUID } from 'node:crypto';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { mcpErrorText } from './mcp-error';
import type { Port } from '../shared/protocol/runner';
import type { HostToMcpHost, McpHostMethods, McpHostToHost, McpOAuthCredentials, McpServerConfig, McpToRunner, RunnerToMcp } from '../shared/protocol/mcp';
import { HOST_TO_MCP_HOST, MCP_HOST_METHODS, RUNNER_TO_MCP, type McpHostMethod } from '../shared/protocol/contract/mcp-channel';
import { firstProblem, messageGate, type GateOptions, type MessageGate } from '../shared/protocol/contract/gate';
import { toWireError, type WireError } from '../shared/protocol/contract/errors';
import { toolErrorOutput } from '../shared/thread/tool-output';
import { ServerSession, ConnectError } from './session';
import { runCall } from './call';
import { complete, getPrompt, listPrompts, listResources, listTemplates, readResource, subscribe } from './resources';

/** A request the mcp-host refuses, with the stable code the host's caller sees. */
class RequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface CallEntry {
  runId: string;
  server: string;
  abort: AbortController;
}

interface PendingServerRequest {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

/** A port to one run (brokered), which the mcp-host can close and hears close. */
type RunPort = Port<unknown, McpToRunner> & { close(): void; onClose(l: () => void): void };

type Handlers = { [M in McpHostMethod]: (params: McpHostMethods[M]['params']) => Promise<McpHostMethods[M]['result']> };

/** A request with an integer id: whatever else is wrong with it, it gets a response. */
function isRequest(m: unknown): m is { type: 'request'; id: number; method?: unknown; params?: unknown } {
  return !!m && typeof m === 'object' && (m as { type?: unknown }).type === 'request' && Number.isInteger((m as { id?: unknown }).id);
}

export class McpHost {
  private readonly sessions = new Map<string, ServerSession>();
  private readonly calls = new Map<string, CallEntry>();
  private readonly serverRequests = new Map<string, PendingServerRequest>();
  /** Runs connected by a brokered port (docs/architecture.md#mcp-channel, Electron): their traffic skips the host. */
  private readonly runPorts = new Map<string, RunPort>();
  /** From the last `configure`: logged on every tool call (e.g. settings/mcp.json is not valid). */
  private notice?: string;
  /** From `configure`: the OAuth callback URL and the stored credentials by server (kept up to date by `auth_saved`). */
  private oauth: { redirectUrl?: string; credentials: Record<string, McpOAuthCredentials> } = { credentials: {} };
  /** What the host may send (HOST_TO_MCP_HOST); anything else is dropped and logged. */
  private readonly fromHost: MessageGate<HostToMcpHost>;
  /** What a run may send on its brokered port (RUNNER_TO_MCP). */
  private readonly fromRunner: MessageGate<RunnerToMcp>;

  /**
   * Serves the host on `port` (the `mcp` channel of the process link). Messages are checked
   * against the contract (shared/protocol/contract/mcp-channel.ts) where they arrive; `gate`
   * sets where the drops are logged (default stderr).
   */
  constructor(
    private readonly port: Port<unknown, McpHostToHost>,
    gate: GateOptions = {},
  ) {
    this.fromHost = messageGate('mcp-host', HOST_TO_MCP_HOST, gate);
    this.fromRunner = messageGate('mcp-host', RUNNER_TO_MCP, gate);
    port.onMessage((m) => this.onMessage(m));
    port.post({ type: 'ready' });
  }

  private key(runId: string, callId: string): string {
    return `${runId}\u0000${callId}`;
  }

  private toRunner(runId: string, msg: McpToRunner): void {
    const direct = this.runPorts.get(runId);
    if (direct) direct.post(msg);
    else this.port.post({ type: 'runner', runId, msg });
  }

  /**
   * Serves run `runId` on its own port (the host brokered it with `attach_port`). A newer port
   * for the same run replaces the old one. When the port closes (the run's process is gone),
   * the run's calls in flight are cancelled.
   */
  attachPort(runId: string, port: RunPort): void {
    this.runPorts.get(runId)?.close();
    this.runPorts.set(runId, port);
    port.onMessage((msg) => {
      if (this.fromRunner.accept(msg, `run ${runId}`)) this.onRunner(runId, msg);
    });
    port.onClose(() => {
      if (this.runPorts.get(runId) !== port) return;
      this.runPorts.delete(runId);
      this.endRun(runId, 'the run closed its connection');
    });
    port.post({ type: 'ready' });
  }

  private endRun(runId: string, why: string): void {
    for (const [k, c] of this.calls) if (c.runId === runId) {
      c.abort.abort(new Error(why));
      this.calls.delete(k);
    }
  }

  private onMessage(m: unknown): void {
    if (isRequest(m)) return this.onRequest(m);
    if (!this.fromHost.accept(m, 'the host')) return;
    if (m.type === 'runner') {
      this.onRunner(m.runId, m.msg);
    } else if (m.type === 'run_ended') {
      const direct = this.runPorts.get(m.runId);
      this.runPorts.delete(m.runId);
      direct?.close();
      this.endRun(m.runId, 'the run ended');
    }
    // `attach_port` carries a port, so it arrives through index.ts's onTransfer, never here.
  }

  /**
   * Answers one request: an unknown method gets `unknown_method`, params that do not match the
   * method's schema get `bad_request` (naming the first problem) and change nothing.
   */
  private onRequest(m: { id: number; method?: unknown; params?: unknown }): void {
    const reply = (r: { result: unknown } | { error: WireError }) => this.port.post({ type: 'response', id: m.id, ...r });
    const method = m.method;
    if (typeof method !== 'string' || !Object.hasOwn(MCP_HOST_METHODS, method)) {
      const named = typeof method === 'string' ? JSON.stringify(method.slice(0, 60)) : `a ${typeof method}`;
      return reply({ error: { code: 'unknown_method', message: `unknown mcp-host method ${named} (expected ${Object.keys(MCP_HOST_METHODS).join(', ')})` } });
    }
    const problem = firstProblem(MCP_HOST_METHODS[method as McpHostMethod].params, m.params);
    if (problem) return reply({ error: { code: 'bad_request', message: `mcp-host method "${method}": params${problem.startsWith('/:') ? problem.slice(1) : problem}` } });
    const handler = this.handlers[method as McpHostMethod] as (p: unknown) => Promise<unknown>;
    handler(m.params).then(
      (result) => reply({ result }),
      // A server's own JSON-RPC error is `mcp_error`; a failed connect `connect_failed`.
      (err: unknown) => reply({ error: err instanceof McpError ? { code: 'mcp_error', message: mcpErrorText(err) } : toWireError(err) }),
    );
  }

  private readonly handlers: Handlers = {
    configure: async (p) => {
      this.notice = p.notice || undefined;
      if (p.oauth) this.oauth = { redirectUrl: p.oauth.redirectUrl, credentials: { ...p.oauth.credentials } };
      const added = await this.configure(p.servers);
      // Connect in the background: the state is pushed (`server_status`), a failure says why there.
      if (p.connect) for (const s of added) s.connect().catch(() => {});
      return { ok: true };
    },
    servers: async () => [...this.sessions.values()].map((s) => s.info()),
    probe: async (p) => {
      const sessions = [...this.sessions.values()];
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((r) => (timer = setTimeout(r, p.timeoutMs)));
      await Promise.race([Promise.allSettled(sessions.map((s) => s.connect())), timeout]);
      clearTimeout(timer);
      return sessions.map((s) => s.info());
    },
    tools: async (p) => this.session(p.server).listTools(),
    test: async (p) => this.test(this.session(p.server)),
    serverLog: async (p) => {
      const s = this.session(p.server);
      return { stderr: s.stderr(), messages: s.messages(p.filter) };
    },
    authorize: async (p) => {
      const s = this.session(p.server);
      await s.reauthorize();
      return s.info();
    },
    authCallback: async (p) => {
      const s = [...this.sessions.values()].find((x) => x.pendingAuthState() === p.state);
      if (!s) throw new RequestError('not_found', 'no OAuth sign-in is waiting for this callback (it was already used, or the server was reconfigured): start the sign-in again');
      await s.finishAuth(p.code, p.error);
      return s.info();
    },
    setRoots: async (p) => {
      const s = this.session(p.server);
      await s.setRoots(p.roots);
      return s.info();
    },
    resources: async (p) => listResources(this.session(p.server), p),
    templates: async (p) => listTemplates(this.session(p.server), p),
    readResource: async (p) => readResource(this.session(p.server), p),
    subscribe: async (p) => subscribe(this.session(p.server), p),
    complete: async (p) => complete(this.session(p.server), p),
    prompts: async (p) => listPrompts(this.session(p.server), p),
    getPrompt: async (p) => getPrompt(this.session(p.server), p),
  };

  private session(name: string): ServerSession {
    const s = this.sessions.get(name);
    if (!s) throw new RequestError('not_found', `unknown MCP server "${name}" (configured: ${[...this.sessions.keys()].join(', ') || 'none'})`);
    return s;
  }

  /**
   * Replaces the configuration; sessions whose config changed are closed and reopened lazily.
   * Resolves with the sessions it created.
   */
  private async configure(servers: Record<string, McpServerConfig>): Promise<ServerSession[]> {
    const added: ServerSession[] = [];
    const closing: Promise<void>[] = [];
    for (const [name, s] of this.sessions) {
      const next = servers[name];
      if (!next || JSON.stringify(next) !== JSON.stringify(s.config)) {
        this.sessions.delete(name);
        closing.push(s.close());
      }
    }
    // The new sessions are in place before the old ones finish closing, so calls waiting for a
    // turn on an old session move on to the new one.
    for (const [name, config] of Object.entries(servers)) {
      if (this.sessions.has(name)) continue;
      const session = new ServerSession(name, config, {
        serverRequest: (callId, kind, params, signal) => this.serverRequest(callId, kind, params, signal),
        log: (callId, level, logger, data) => {
          const c = callId ? this.findCall(callId) : undefined;
          if (c) this.toRunner(c.runId, { type: 'log', callId: c.callId, level, logger, data });
        },
        toolsChanged: () => this.port.post({ type: 'tools_changed', server: name }),
        resourceUpdated: (uri) => {
          if (this.sessions.get(name) === session) this.port.post({ type: 'resource_updated', server: name, uri });
        },
        statusChanged: (info) => {
          if (this.sessions.get(name) === session) this.port.post({ type: 'server_status', server: info });
        },
        authSaved: (credentials) => {
          this.oauth.credentials[name] = credentials;
          this.port.post({ type: 'auth_saved', server: name, credentials });
        },
        logged: (entry) => {
          if (this.sessions.get(name) === session) this.port.post({ type: 'server_log', server: name, entry });
        },
      }, () => ({ redirectUrl: this.oauth.redirectUrl, credentials: this.oauth.credentials[name] }));
      this.sessions.set(name, session);
      added.push(session);
    }
    await Promise.all(closing);
    return added;
  }

  private async test(s: ServerSession): Promise<{ ok: boolean; message: string; stderr?: string }> {
    try {
      const client = await s.connect();
      await client.ping({ timeout: 10_000 });
      const tools = await s.listTools();
      const v = client.getServerVersion();
      return {
        ok: true,
        message: `Connected to "${s.name}" (${v?.name ?? 'unknown server'} ${v?.version ?? ''}, ${s.config.transport}): ${tools.length} tool${tools.length === 1 ? '' : 's'}.`,
        stderr: s.stderr() || undefined,
      };
    } catch (err) {
      const message = err instanceof ConnectError ? err.message : `MCP server "${s.name}": ${err instanceof Error ? err.message : String(err)}`;
      return { ok: false, message, stderr: s.stderr() || undefined };
    }
  }

  /** Session-wide call ids are `runId:callId`, so two runs may use the same call id. */
  private findCall(sessionCallId: string): (CallEntry & { callId: string }) | undefined {
    const c = this.calls.get(sessionCallId);
    if (!c) return undefined;
    return { ...c, callId: sessionCallId.slice(sessionCallId.indexOf('\u0000') + 1) };
  }

  private serverRequest(sessionCallId: string, kind: 'sampling' | 'elicitation', params: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    const c = this.findCall(sessionCallId);
    if (!c) return Promise.reject(new Error('the tool call that caused this request has ended'));
    const requestId = randomUUID();
    return new Promise((resolve, reject) => {
      const cleanup = () => {
        this.serverRequests.delete(requestId);
        signal.removeEventListener('abort', onAbort);
        c.abort.signal.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        cleanup();
        reject(new Error(`${kind} request cancelled`));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      c.abort.signal.addEventListener('abort', onAbort, { once: true });
      this.serverRequests.set(requestId, {
        resolve: (v) => (cleanup(), resolve(v)),
        reject: (e) => (cleanup(), reject(e)),
      });
      this.toRunner(c.runId, { type: 'server_request', callId: c.callId, requestId, kind, params });
    });
  }

  private onRunner(runId: string, msg: RunnerToMcp): void {
    if (msg.type === 'cancel') {
      this.calls.get(this.key(runId, msg.callId))?.abort.abort(new Error(msg.reason ?? 'cancelled'));
      return;
    }
    if (msg.type === 'server_request_result') {
      const p = this.serverRequests.get(msg.requestId);
      if (!p) return;
      // With a code, the server gets that JSON-RPC error (e.g. -1, the user rejected sampling).
      // (The SDK sends a thrown error's own `code` and `message`; McpError would prefix the message.)
      if (msg.error) p.reject(msg.error.code !== undefined ? Object.assign(new Error(msg.error.message), { code: msg.error.code }) : new Error(msg.error.message));
      else p.resolve(msg.result);
      return;
    }
    if (msg.type === 'call') void this.call(runId, msg);
  }

  private async call(runId: string, msg: Extract<RunnerToMcp, { type: 'call' }>): Promise<void> {
    const notice = this.notice;
    if (notice) this.toRunner(runId, { type: 'log', callId: msg.callId, level: 'warning', logger: 'stepwise', data: notice });
    const notConfigured = () =>
      this.toRunner(runId, {
        type: 'result',
        callId: msg.callId,
        output: toolErrorOutput(`MCP server "${msg.server}" is not configured (configured: ${[...this.sessions.keys()].join(', ') || 'none'}). ${notice ?? 'Add it in settings/mcp.json.'}`),
        mcpLog: [],
      });
    if (!this.sessions.has(msg.server)) return notConfigured();
    const key = this.key(runId, msg.callId);
    const abort = new AbortController();
    this.calls.set(key, { runId, server: msg.server, abort });
    // Wait for this run's turn on the server (run-turns.ts). A call that waited through a
    // reconfiguration takes its turn on the server's new session.
    let session: ServerSession | undefined;
    let release: (() => void) | undefined;
    let told = false;
    while (!release) {
      session = this.sessions.get(msg.server);
      if (!session) {
        this.calls.delete(key);
        return notConfigured();
      }
      try {
        release = await session.turns.acquire(runId, abort.signal, () => {
          if (told) return;
          told = true;
          this.toRunner(runId, {
            type: 'log',
            callId: msg.callId,
            level: 'info',
            logger: 'stepwise',
            data: `Waiting for another run's calls to "${msg.server}" to end: one run at a time per MCP server, so the server's sampling and elicitation requests reach the run that caused them.`,
          });
        });
      } catch (err) {
        this.calls.delete(key);
        const why = err instanceof Error ? err.message : String(err);
        this.toRunner(runId, { type: 'result', callId: msg.callId, output: toolErrorOutput(`MCP tool "${msg.tool}" on server "${msg.server}": cancelled while waiting for another run's calls to this server (${why}).`), mcpLog: [] });
        return;
      }
      if (this.sessions.get(msg.server) !== session) {
        release();
        release = undefined;
      }
    }
    let result;
    try {
      result = await runCall(session!, {
        callId: key,
        tool: msg.tool,
        arguments: msg.arguments,
        roots: msg.roots,
        timeoutMs: msg.timeoutMs,
        signal: abort.signal,
        onProgress: (progress, total, message) => this.toRunner(runId, { type: 'progress', callId: msg.callId, progress, total, message }),
      });
    } finally {
      // Whatever happens, the server's turn passes on: other runs' calls must not wait forever.
      release();
      this.calls.delete(key);
    }
    this.toRunner(runId, { type: 'result', callId: msg.callId, output: result.output, mcpLog: result.mcpLog, ...(result.outputProblems.length ? { outputProblems: result.outputProblems } : {}) });
  }
}
