/**
 * McpService: what the host core, the UI and the CLI call for MCP. Reads settings/mcp.json,
 * owns the McpSupervisor, connects runners to the mcp-host (McpRelay: relayed under Node, a
 * brokered direct port where the spawner can transfer ports) and answers the UI's
 * `mcp.servers` / `mcp.tools` / `mcp.test`.
 */
import { randomUUID } from 'node:crypto';
import type { Port } from '../../../shared/protocol/runner';
import type { McpServerInfo, McpToolInfo } from '../../../shared/protocol/host-api';
import { APP_EXECUTABLE_ENV, type McpHostMethods, type McpLogEntry, type McpLogFilter, type McpToRunner, type RunnerToHostMcpControl, type RunnerToMcp } from '../../../shared/protocol/mcp';
import { RUNNER_TO_HOST_MCP_CONTROL, RUNNER_TO_MCP } from '../../../shared/protocol/contract/mcp-channel';
import type { McpResourceMethod } from '../../../shared/protocol/contract/mcp-resources';
import { messageGate, type GateOptions, type MessageGate } from '../../../shared/protocol/contract/gate';
import type { ToolOutput } from '../../../shared/thread/messages';
import type { ChildLink, ProcessSpawner } from '../process/types';
import type { McpAttachment, McpRelay } from '../supervisor/run-supervisor';
import { stat } from 'node:fs/promises';
import { loadMcpConfig, mcpConfigPath, type LoadedMcpConfig } from './config';
import { McpSupervisor } from './supervisor';
import { brokerRunPorts } from './port-broker';
import { OAuthStore } from './oauth-store';
import type { KeyCodec } from '../settings/providers';

export interface McpServiceOptions {
  /** $STEPWISE_HOME (settings/mcp.json lives under it). */
  home: string;
  spawner: ProcessSpawner;
  /** mcp-host entry file (`mcpHostEntry()` from main/core/process/entries). */
  entry: string;
  /** Environment for `$ENV` references. Default process.env. */
  env?: NodeJS.ProcessEnv;
  onToolsChanged?: (server: string) => void;
  /**
   * Connect the configured servers as soon as the mcp-host is configured, in the background,
   * so their real state (connecting, connected, error with the reason) shows before anyone
   * tests them; each change reaches the listeners of {@link McpService.onStatus}.
   */
  connectInBackground?: boolean;
  backoffMs?: { initial: number; max: number };
  /** Where messages that break the MCP channel contract are logged (default stderr). */
  gate?: GateOptions;
  /**
   * The packaged desktop app's own executable, which cannot run scripts as Node (its `runAsNode`
   * fuse is off): the mcp-host refuses, with a diagnosis, a stdio server that would run it with
   * ELECTRON_RUN_AS_NODE (mcp-host/diagnose.ts).
   */
  appExecutable?: string;
  /**
   * OAuth for remote servers: the URL the authorization server sends the browser back to
   * (the web host's `/oauth/callback`, the desktop's loopback listener), and the keychain the
   * credentials are encrypted with (desktop). Without `redirectUrl` a server that needs a
   * sign-in fails at the authorization step, saying why; stored tokens are still used.
   */
  oauth?: { redirectUrl?: string; keys?: KeyCodec };
}

/** What one direct call (CLI) returns. */
export interface McpCallResult {
  output: ToolOutput;
  mcpLog: McpLogEntry[];
  /** How the result's structuredContent breaks the tool's outputSchema (empty: it conforms). */
  outputProblems: string[];
  progress: { progress: number; total?: number; message?: string }[];
  logs: { level: string; logger?: string; data: unknown }[];
}

/** The last read of settings/mcp.json: the file's mtime, and what it held or why it is not valid. */
interface ConfigRead {
  mtime: number;
  config?: LoadedMcpConfig;
  error?: Error;
}

export class McpService implements McpRelay {
  readonly supervisor: McpSupervisor;
  private read?: ConfigRead;
  private reading?: Promise<void>;
  /** The last valid version of the file, which the mcp-host keeps using while the file is broken. */
  private lastValid?: LoadedMcpConfig;
  /** +1 at every read of the file; `sentVersion` is the read the mcp-host was last configured from. */
  private version = 0;
  private sentVersion = -1;
  /** What a run may send on its relayed `mcp` channel (RUNNER_TO_MCP). */
  private readonly fromRun: MessageGate<RunnerToMcp>;
  /** What a run may send on its `mcp` channel when its ports are brokered (RUNNER_TO_HOST_MCP_CONTROL). */
  private readonly fromRunControl: MessageGate<RunnerToHostMcpControl>;
  private readonly statusListeners = new Set<(info: McpServerInfo) => void>();
  private readonly resourceListeners = new Set<(server: string, uri: string) => void>();
  private readonly logListeners = new Set<(server: string, entry: McpLogEntry) => void>();
  private readonly oauthStore: OAuthStore;
  private redirectUrl?: string;

  constructor(private readonly opts: McpServiceOptions) {
    this.supervisor = new McpSupervisor({
      spawner: opts.spawner,
      entry: opts.entry,
      config: () => this.hostConfig(),
      onToolsChanged: opts.onToolsChanged,
      onServerStatus: (info) => {
        for (const l of this.statusListeners) l(info);
      },
      onResourceUpdated: (server, uri) => {
        for (const l of this.resourceListeners) l(server, uri);
      },
      onAuthSaved: (server, credentials) => void this.oauthStore.save(server, credentials).catch(() => {}),
      onServerLog: (server, entry) => {
        for (const l of this.logListeners) l(server, entry);
      },
      backoffMs: opts.backoffMs,
      gate: opts.gate,
      ...(opts.appExecutable ? { env: { [APP_EXECUTABLE_ENV]: opts.appExecutable } } : {}),
    });
    this.oauthStore = new OAuthStore(opts.home, opts.oauth?.keys);
    this.fromRun = messageGate('host', RUNNER_TO_MCP, opts.gate);
    this.fromRunControl = messageGate('host', RUNNER_TO_HOST_MCP_CONTROL, opts.gate);
  }

  /** Reads settings/mcp.json again (and sends it to a running mcp-host). */
  async reload(): Promise<LoadedMcpConfig> {
    await this.reading;
    this.read = undefined;
    return this.loadConfig();
  }

  /** Reads settings/mcp.json if it changed (by mtime) since the last read; never rejects. */
  private refresh(): Promise<void> {
    this.reading ??= (async () => {
      const mtime = await stat(mcpConfigPath(this.opts.home)).then((s) => s.mtimeMs, () => 0);
      if (this.read?.mtime === mtime) return;
      try {
        const config = await loadMcpConfig(this.opts.home, this.opts.env ?? process.env);
        this.read = { mtime, config };
        this.lastValid = config;
      } catch (err) {
        this.read = { mtime, error: err instanceof Error ? err : new Error(String(err)) };
      }
      this.version++;
    })().finally(() => (this.reading = undefined));
    return this.reading;
  }

  /**
   * settings/mcp.json as it is now: an edit of the file is picked up on the next request and
   * sent to a running mcp-host (whether the previous version was valid or not), so changing
   * servers needs no restart. Rejects, naming the line and column, while the file is not valid.
   */
  private async loadConfig(): Promise<LoadedMcpConfig> {
    await this.refresh();
    if (this.sentVersion !== this.version) await this.supervisor.reconfigure().catch(() => {});
    const r = this.read!;
    if (r.error) throw r.error;
    return r.config!;
  }

  /**
   * The servers the mcp-host runs (McpSupervisor's `config`). While the file is not valid,
   * those of its last valid version, with a notice the mcp-host logs on every tool call;
   * rejects if it was never valid.
   */
  private async hostConfig(): Promise<McpHostMethods['configure']['params']> {
    await this.refresh();
    this.sentVersion = this.version;
    const r = this.read!;
    const oauth = { oauth: { redirectUrl: this.redirectUrl ?? this.opts.oauth?.redirectUrl, credentials: await this.oauthStore.load() } };
    const connect = { ...(this.opts.connectInBackground ? { connect: true } : {}), ...oauth };
    if (r.config) return { servers: r.config.servers, ...connect };
    if (!this.lastValid) throw r.error!;
    return { servers: this.lastValid.servers, notice: staleNotice(this.lastValid, r.error!), ...connect };
  }

  /** Calls `listener` with a server's info each time its connection status changes; returns the unsubscribe. */
  onStatus(listener: (info: McpServerInfo) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private async known(server: string): Promise<void> {
    const c = await this.loadConfig();
    if (c.errors[server]) throw Object.assign(new Error(c.errors[server]), { code: 'bad_config' });
    if (!c.servers[server]) {
      const names = Object.keys(c.servers).join(', ') || 'none';
      throw Object.assign(new Error(`MCP server "${server}" is not configured in ${c.file} (configured: ${names})`), { code: 'not_found' });
    }
  }

  /**
   * Every configured server with its connection status; broken entries show their error. With
   * `probe`, each server is connected first, for at most `probe.timeoutMs` ms (one still
   * connecting then says `connecting`).
   */
  async servers(probe?: { timeoutMs: number }): Promise<McpServerInfo[]> {
    const c = await this.loadConfig();
    const live = !Object.keys(c.servers).length ? [] : probe ? await this.supervisor.request('probe', probe) : await this.supervisor.request('servers', {});
    const out: McpServerInfo[] = [...live];
    for (const [name, error] of Object.entries(c.errors)) {
      out.push({ name, transport: c.transports[name] ?? 'stdio', status: 'error', error });
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The server's tools (connecting if needed). Rejects with the connection diagnosis. */
  async tools(server: string): Promise<McpToolInfo[]> {
    await this.known(server);
    return this.supervisor.request('tools', { server });
  }

  /** Connects (if needed), pings and lists tools; never rejects for a server problem. */
  async test(server: string): Promise<{ ok: boolean; message: string; stderr?: string }> {
    try {
      await this.known(server);
    } catch (err) {
      return { ok: false, message: (err as Error).message };
    }
    return this.supervisor.request('test', { server });
  }

  /** Calls `listener` each time a subscribed resource changes (`notifications/resources/updated`); returns the unsubscribe. */
  onResourceUpdated(listener: (server: string, uri: string) => void): () => void {
    this.resourceListeners.add(listener);
    return () => this.resourceListeners.delete(listener);
  }

  /**
   * A resource, template, prompt or completion request to a configured server (connecting if
   * needed; shapes in shared/protocol/contract/mcp-resources.ts). Rejects `not_found` /
   * `bad_config` for a server that is not configured, `connect_failed` with the diagnosis,
   * `mcp_error` with the server's own JSON-RPC error.
   */
  async resourceRequest<M extends McpResourceMethod>(method: M, params: McpHostMethods[M]['params']): Promise<McpHostMethods[M]['result']> {
    await this.known(params.server);
    return this.supervisor.request(method, params);
  }

  /** A stdio server's captured stderr and the server's recent protocol log (every message in and out), filtered by `filter`. */
  async serverLog(server: string, filter?: McpLogFilter): Promise<{ stderr: string; messages: McpLogEntry[] }> {
    await this.known(server);
    return this.supervisor.request('serverLog', filter ? { server, filter } : { server });
  }

  /**
   * Sets the OAuth callback URL once it is known (the web host's port is chosen after the
   * service is made); a running mcp-host gets it at once.
   */
  async setOAuthRedirect(url: string): Promise<void> {
    this.redirectUrl = url;
    if (this.supervisor.pid !== undefined) await this.supervisor.reconfigure().catch(() => {});
  }

  /** Calls `listener` with each protocol log entry of every server as it is recorded; returns the unsubscribe. */
  onLog(listener: (server: string, entry: McpLogEntry) => void): () => void {
    this.logListeners.add(listener);
    return () => this.logListeners.delete(listener);
  }

  /** Makes `roots` the server's roots and announces them (`notifications/roots/list_changed`). */
  async setRoots(server: string, roots: string[]): Promise<McpServerInfo> {
    await this.known(server);
    return this.supervisor.request('setRoots', { server, roots });
  }

  /** Signs in to a remote server again (its OAuth steps arrive as status). */
  async authorize(server: string): Promise<McpServerInfo> {
    await this.known(server);
    return this.supervisor.request('authorize', { server });
  }

  /**
   * The OAuth callback's query (`state`, `code` or `error`): finishes the sign-in of the server
   * whose flow `state` names. Rejects `not_found` for a state no flow waits for.
   */
  async authCallback(query: { state?: string | null; code?: string | null; error?: string | null }): Promise<McpServerInfo> {
    if (!query.state) throw Object.assign(new Error('the OAuth callback has no "state" parameter'), { code: 'bad_request' });
    return this.supervisor.request('authCallback', {
      state: query.state,
      ...(query.code ? { code: query.code } : {}),
      ...(query.error ? { error: query.error } : {}),
    });
  }

  /**
   * McpRelay: connects run `runId` to the mcp-host. Where the spawner can transfer ports
   * between children (Electron's MessageChannelMain) and the run's link carries them, the run
   * gets direct channels on request (`port`, port-broker.ts); otherwise the run's `mcp` channel
   * is relayed to the mcp-host tagged with its run id, and the answers back (`relay`).
   */
  attach(runId: string, port: Port<unknown, unknown>, runner?: ChildLink): McpAttachment {
    // A run starting is a good moment to notice an edited mcp.json; the run's calls wait for
    // that check, so they run on the servers the file now names (or carry the notice that it is broken).
    const checked = this.loadConfig().then(() => {}, () => {});
    const createChannel = this.opts.spawner.createChannel?.bind(this.opts.spawner);
    if (createChannel && runner?.sendWithPorts) {
      return { transport: 'port', detach: brokerRunPorts(runId, port, runner, { supervisor: this.supervisor, createChannel, ready: checked, gate: this.fromRunControl }) };
    }
    const detachRun = this.supervisor.attachRun(runId, (msg) => port.post(msg));
    // Chained on `checked`: the messages keep their order.
    const off = port.onMessage((msg) => {
      if (this.fromRun.accept(msg, `run ${runId}`)) void checked.then(() => this.supervisor.sendRunner(runId, msg));
    });
    return {
      transport: 'relay',
      detach: () => {
        off();
        detachRun();
      },
    };
  }

  /**
   * Calls one tool directly (CLI, tests), as a run of its own. Sampling and elicitation are
   * declined: there is no model or user to answer them here.
   */
  async callTool(server: string, tool: string, args: Record<string, unknown>, opts: { roots?: string[]; timeoutMs?: number; signal?: AbortSignal } = {}): Promise<McpCallResult> {
    await this.known(server);
    const runId = `direct-${randomUUID()}`;
    const callId = randomUUID();
    const progress: McpCallResult['progress'] = [];
    const logs: McpCallResult['logs'] = [];
    return new Promise<McpCallResult>((resolve) => {
      const detach = this.supervisor.attachRun(runId, (m: McpToRunner) => {
        if (m.type === 'progress') progress.push({ progress: m.progress, total: m.total, message: m.message });
        else if (m.type === 'log') logs.push({ level: m.level, logger: m.logger, data: m.data });
        else if (m.type === 'server_request') {
          const result = m.kind === 'elicitation' ? { action: 'decline' } : undefined;
          const error = m.kind === 'sampling' ? { message: 'sampling is not available outside a run (no model to answer it)' } : undefined;
          this.supervisor.sendRunner(runId, { type: 'server_request_result', requestId: m.requestId, result, error });
        } else if (m.type === 'result' && m.callId === callId) {
          detach();
          resolve({ output: m.output, mcpLog: m.mcpLog, outputProblems: m.outputProblems ?? [], progress, logs });
        }
      });
      opts.signal?.addEventListener('abort', () => this.supervisor.sendRunner(runId, { type: 'cancel', callId, reason: 'cancelled' }), { once: true });
      this.supervisor.sendRunner(runId, { type: 'call', callId, server, tool, arguments: args, roots: opts.roots, timeoutMs: opts.timeoutMs });
    });
  }

  /** Stops the mcp-host and its servers. */
  close(): Promise<void> {
    return this.supervisor.stop();
  }
}

/** What a tool call's log says while settings/mcp.json is not valid (`error` names the line and column). */
function staleNotice(lastValid: LoadedMcpConfig, error: Error): string {
  const reason = error.message.startsWith(`${lastValid.file}: `) ? error.message.slice(lastValid.file.length + 2) : error.message;
  const names = Object.keys(lastValid.servers).join(', ') || 'none';
  return `${lastValid.file} is not valid (${reason}); using the MCP servers from its last valid version (${names}) until it is fixed.`;
}
