/**
 * McpService: what the host core, the UI and the CLI call for MCP. Reads settings/mcp.json,
 * owns the McpSupervisor, connects runners to the mcp-host (McpRelay: relayed under Node, a
 * brokered direct port where the spawner can transfer ports) and answers the UI's
 * `mcp.servers` / `mcp.tools` / `mcp.test`.
 */
import { randomUUID } from 'node:crypto';
import type { Port } from '../../../shared/protocol/runner';
import type { McpServerInfo, McpToolInfo } from '../../../shared/protocol/host-api';
import type { McpLogEntry, McpToRunner, RunnerToMcp } from '../../../shared/protocol/mcp';
import type { ToolOutput } from '../../../shared/thread/schema';
import type { ChildLink, ProcessSpawner } from '../process/types';
import type { McpAttachment, McpRelay } from '../supervisor/run-supervisor';
import { stat } from 'node:fs/promises';
import { loadMcpConfig, mcpConfigPath, type LoadedMcpConfig } from './config';
import { McpSupervisor } from './supervisor';
import { brokerRunPorts } from './port-broker';

export interface McpServiceOptions {
  /** $STEPWISE_HOME (settings/mcp.json lives under it). */
  home: string;
  spawner: ProcessSpawner;
  /** mcp-host entry file (`mcpHostEntry()` from main/core/process/entries). */
  entry: string;
  /** Environment for `$ENV` references. Default process.env. */
  env?: NodeJS.ProcessEnv;
  onToolsChanged?: (server: string) => void;
  backoffMs?: { initial: number; max: number };
}

/** What one direct call (CLI) returns. */
export interface McpCallResult {
  output: ToolOutput;
  mcpLog: McpLogEntry[];
  progress: { progress: number; total?: number; message?: string }[];
  logs: { level: string; logger?: string; data: unknown }[];
}

export class McpService implements McpRelay {
  readonly supervisor: McpSupervisor;
  private config?: LoadedMcpConfig;
  private configMtime = -1;

  constructor(private readonly opts: McpServiceOptions) {
    this.supervisor = new McpSupervisor({
      spawner: opts.spawner,
      entry: opts.entry,
      config: async () => (await this.loadConfig()).servers,
      onToolsChanged: opts.onToolsChanged,
      backoffMs: opts.backoffMs,
    });
  }

  /** Reads settings/mcp.json again (and sends it to a running mcp-host). */
  async reload(): Promise<LoadedMcpConfig> {
    this.config = undefined;
    const c = await this.loadConfig();
    await this.supervisor.reconfigure();
    return c;
  }

  /**
   * settings/mcp.json as it is now: an edit of the file is picked up on the next request (and
   * sent to a running mcp-host), so changing servers needs no restart.
   */
  private async loadConfig(): Promise<LoadedMcpConfig> {
    const mtime = await stat(mcpConfigPath(this.opts.home)).then((s) => s.mtimeMs, () => 0);
    const changed = this.config !== undefined && mtime !== this.configMtime;
    if (changed) this.config = undefined;
    if (!this.config) {
      this.configMtime = mtime;
      this.config = await loadMcpConfig(this.opts.home, this.opts.env ?? process.env);
      if (changed) await this.supervisor.reconfigure().catch(() => {});
    }
    return this.config;
  }

  private async known(server: string): Promise<void> {
    const c = await this.loadConfig();
    if (c.errors[server]) throw new Error(c.errors[server]);
    if (!c.servers[server]) {
      const names = Object.keys(c.servers).join(', ') || 'none';
      throw new Error(`MCP server "${server}" is not configured in ${c.file} (configured: ${names})`);
    }
  }

  /** Every configured server with its connection status; broken entries show their error. */
  async servers(): Promise<McpServerInfo[]> {
    const c = await this.loadConfig();
    const live = Object.keys(c.servers).length ? await this.supervisor.request('servers', {}) : [];
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

  /** A stdio server's captured stderr and the server's recent protocol log. */
  async serverLog(server: string): Promise<{ stderr: string; messages: McpLogEntry[] }> {
    await this.known(server);
    return this.supervisor.request('serverLog', { server });
  }

  /**
   * McpRelay: connects run `runId` to the mcp-host. Where the spawner can transfer ports
   * between children (Electron's MessageChannelMain) and the run's link carries them, the run
   * gets direct channels on request (`port`, port-broker.ts); otherwise the run's `mcp` channel
   * is relayed to the mcp-host tagged with its run id, and the answers back (`relay`).
   */
  attach(runId: string, port: Port<unknown, unknown>, runner?: ChildLink): McpAttachment {
    void this.loadConfig().catch(() => {}); // a run starting is a good moment to notice an edited mcp.json
    const createChannel = this.opts.spawner.createChannel?.bind(this.opts.spawner);
    if (createChannel && runner?.sendWithPorts) {
      return { transport: 'port', detach: brokerRunPorts(runId, port, runner, { supervisor: this.supervisor, createChannel }) };
    }
    const detachRun = this.supervisor.attachRun(runId, (msg) => port.post(msg));
    const off = port.onMessage((msg) => this.supervisor.sendRunner(runId, msg as RunnerToMcp));
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
          resolve({ output: m.output, mcpLog: m.mcpLog, progress, logs });
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
