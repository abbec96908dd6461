/**
 * McpSupervisor (docs/architecture.md#mcp-channel): keeps the one mcp-host process alive. Starts it on first use,
 * sends it the configuration, forwards host requests and runners' messages, and restarts it
 * with backoff after a crash. Calls in flight when it dies end at once with a clear
 * `isError` result on their tool nodes; pending host requests reject.
 */
import type { ChildExit, ChildLink, PortPair, ProcessSpawner, TransferablePort } from '../process/types';
import type { HostToMcpHost, McpHostMethod, McpHostMethods, McpHostToHost, McpLogEntry, McpOAuthCredentials, McpToRunner, RunnerToMcp } from '../../../shared/protocol/mcp';
import { MCP_HOST_TO_HOST } from '../../../shared/protocol/contract/mcp-channel';
import { messageGate, type GateOptions, type MessageGate } from '../../../shared/protocol/contract/gate';
import { fromWire } from '../../../shared/protocol/contract/errors';
import { toolErrorOutput } from '../../../shared/thread/tool-output';
import { HostError } from '../errors';
import type { McpServerInfo } from '../../../shared/protocol/host-api';

export interface McpSupervisorOptions {
  spawner: ProcessSpawner;
  /** mcp-host entry file (see process/entries.ts, `mcpHostEntry()`). */
  entry: string;
  /**
   * The current configuration, sent to every (re)started mcp-host: the servers, and a notice
   * when they may not be what the user expects (the mcp-host logs it on every tool call).
   */
  config: () => Promise<McpHostMethods['configure']['params']>;
  /** Restart delays: first, then doubling up to max (ms). Defaults 200 / 10 000. */
  backoffMs?: { initial: number; max: number };
  /** A tool list changed (`notifications/tools/list_changed`). */
  onToolsChanged?: (server: string) => void;
  /** A server's connection status changed (the mcp-host's `server_status`). */
  onServerStatus?: (info: McpServerInfo) => void;
  /** A subscribed resource changed (the mcp-host's `resource_updated`). */
  onResourceUpdated?: (server: string, uri: string) => void;
  /** A server's OAuth credentials changed (the mcp-host's `auth_saved`): store them. */
  onAuthSaved?: (server: string, credentials: McpOAuthCredentials) => void;
  /** One protocol log entry of a server (the mcp-host's `server_log`). */
  onServerLog?: (server: string, entry: McpLogEntry) => void;
  env?: Record<string, string | undefined>;
  /** Where messages from the mcp-host that break the contract are logged (default stderr). */
  gate?: GateOptions;
}

type RunnerListener = (msg: McpToRunner) => void;

/** How long one mcp-host request may take before it rejects (ms). */
const REQUEST_TIMEOUT_MS = 60_000;
const STDERR_CAP = 32 * 1024;

export class McpSupervisor {
  private link?: ChildLink;
  private ready?: Promise<void>;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void; timer: NodeJS.Timeout }>();
  private readonly runners = new Map<string, RunnerListener>();
  /** runId → call ids waiting for the mcp-host to start (not sent yet). */
  private readonly waitingStart = new Map<string, Set<string>>();
  /** runId → call ids in flight (sent `call`, no `result` yet). */
  private readonly inFlight = new Map<string, Set<string>>();
  private restartTimer?: NodeJS.Timeout;
  /** Backoff: no (re)start before this time (ms since the epoch). */
  private notBefore = 0;
  private failures = 0;
  private stopped = false;
  private stderrBuf = '';
  /** Exits seen (tests and diagnostics). */
  crashes = 0;
  /** The stdio servers the current mcp-host runs (it reports them). */
  private serverPids: number[] = [];
  /** Generation of the current mcp-host process: 1 for the first, +1 per restart. */
  epoch = 0;
  private readonly exitListeners = new Set<(epoch: number, why: string) => void>();
  /** What the mcp-host may send (MCP_HOST_TO_HOST); anything else is dropped and logged. */
  private readonly fromMcpHost: MessageGate<McpHostToHost>;

  constructor(private readonly opts: McpSupervisorOptions) {
    this.fromMcpHost = messageGate('host', MCP_HOST_TO_HOST, opts.gate);
  }

  /** The mcp-host's pid, if it runs. */
  get pid(): number | undefined {
    return this.link?.pid;
  }

  /** Recent stderr of the mcp-host process itself. */
  stderr(): string {
    return this.stderrBuf;
  }

  /** Starts the mcp-host if needed; resolves once it is configured. */
  start(): Promise<void> {
    if (this.stopped) return Promise.reject(new Error('the MCP supervisor was stopped'));
    if (!this.ready) {
      const wait = this.notBefore - Date.now();
      this.ready = wait > 0 ? new Promise<void>((r) => setTimeout(r, wait)).then(() => this.spawn()) : this.spawn();
      this.ready.catch(() => (this.ready = undefined));
    }
    return this.ready;
  }

  private spawn(): Promise<void> {
    clearTimeout(this.restartTimer);
    const link = this.opts.spawner.spawn(this.opts.entry, { name: 'stepwise-mcp-host', env: this.opts.env });
    this.link = link;
    this.epoch++;
    const startedAt = Date.now();
    let readyResolve!: () => void;
    const readySeen = new Promise<void>((r) => (readyResolve = r));
    link.onStderr((c) => {
      this.stderrBuf = (this.stderrBuf + c).slice(-STDERR_CAP);
    });
    link.onFrame((frame) => {
      if (frame.ch !== 'mcp' || !this.fromMcpHost.accept(frame.msg, 'the mcp-host')) return;
      if (frame.msg.type === 'ready') readyResolve();
      else this.onChild(frame.msg);
    });
    const exited = new Promise<never>((_, reject) => {
      link.onExit((exit) => {
        this.onExit(link, exit, Date.now() - startedAt);
        reject(new Error(`the mcp-host exited during start (${describeExit(exit)}). stderr: ${this.stderrBuf.slice(-500)}`));
      });
    });
    exited.catch(() => {});
    return Promise.race([
      readySeen.then(async () => {
        await this.rawRequest(link, 'configure', await this.opts.config());
      }),
      exited,
    ]);
  }

  private onExit(link: ChildLink, exit: ChildExit, uptimeMs: number): void {
    if (this.link !== link) return;
    // Killed without a chance to end its servers (SIGKILL, OOM): end them here, or they would
    // run on, orphaned. A clean exit, or our own SIGTERM (its handler ends them), ended them
    // itself; signalling those PIDs again could hit a process that reused one.
    const endedItsServers = (exit.signal === null && exit.code === 0) || (this.stopped && exit.signal !== 'SIGKILL');
    if (!endedItsServers) {
      for (const pid of this.serverPids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    this.serverPids = [];
    this.link = undefined;
    this.ready = undefined;
    this.crashes++;
    const why = `the mcp-host process ${this.stopped ? 'was stopped' : `crashed (${describeExit(exit)})`}`;
    for (const l of this.exitListeners) l(this.epoch, why);
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new Error(`${why} before answering`));
      this.pending.delete(id);
    }
    for (const [runId, calls] of this.inFlight) {
      const listener = this.runners.get(runId);
      for (const callId of calls) {
        listener?.({
          type: 'result',
          callId,
          output: toolErrorOutput(`MCP call lost: ${why} while the call ran. It restarts automatically; run the tool again.`),
          mcpLog: [],
        });
      }
    }
    this.inFlight.clear();
    if (this.stopped) return;
    if (uptimeMs > 30_000) this.failures = 0;
    const b = this.opts.backoffMs ?? { initial: 200, max: 10_000 };
    const delay = Math.min(b.max, b.initial * 2 ** this.failures++);
    this.notBefore = Date.now() + delay;
    // Restart only if something still uses MCP; otherwise the next use starts it.
    this.restartTimer = setTimeout(() => {
      if (!this.stopped && !this.ready && this.runners.size > 0) this.start().catch(() => {});
    }, delay);
    this.restartTimer.unref?.();
  }

  private onChild(m: McpHostToHost): void {
    if (m.type === 'response') {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      clearTimeout(p.timer);
      if (m.error) {
        // The mcp-host's code reaches the client unchanged (bad_request, not_found, …).
        const e = fromWire(m.error);
        p.reject(new HostError(e.code, e.message));
      } else p.resolve(m.result);
    } else if (m.type === 'runner') {
      if (m.msg.type === 'result') this.inFlight.get(m.runId)?.delete(m.msg.callId);
      this.runners.get(m.runId)?.(m.msg);
    } else if (m.type === 'tools_changed') {
      this.opts.onToolsChanged?.(m.server);
    } else if (m.type === 'server_status') {
      this.opts.onServerStatus?.(m.server);
    } else if (m.type === 'resource_updated') {
      this.opts.onResourceUpdated?.(m.server, m.uri);
    } else if (m.type === 'auth_saved') {
      this.opts.onAuthSaved?.(m.server, m.credentials);
    } else if (m.type === 'server_log') {
      this.opts.onServerLog?.(m.server, m.entry);
    } else if (m.type === 'server_pids') {
      this.serverPids = m.pids;
    }
  }

  private rawRequest<M extends McpHostMethod>(link: ChildLink, method: M, params: McpHostMethods[M]['params']): Promise<McpHostMethods[M]['result']> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`the mcp-host did not answer "${method}" within ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      timer.unref?.();
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      link.send({ ch: 'mcp', msg: { type: 'request', id, method, params } satisfies HostToMcpHost });
    });
  }

  /** Sends one request to the mcp-host, starting it first if needed. */
  async request<M extends McpHostMethod>(method: M, params: McpHostMethods[M]['params']): Promise<McpHostMethods[M]['result']> {
    await this.start();
    return this.rawRequest(this.link!, method, params);
  }

  /** Re-reads the configuration and sends it to a running mcp-host. */
  async reconfigure(): Promise<void> {
    if (!this.link) return;
    await this.request('configure', await this.opts.config());
  }

  /**
   * Brokered transport: creates a channel with `createChannel`, hands its `port2` to the
   * mcp-host for run `runId` (starting the mcp-host first if needed) and resolves with the
   * run's end (`port1`) and the mcp-host's generation. Nothing is created when the mcp-host
   * cannot start; ends that cannot be delivered are closed. Rejects with the reason.
   */
  async attachChannel(runId: string, createChannel: () => PortPair): Promise<{ epoch: number; runnerEnd: TransferablePort }> {
    // Two tries: an mcp-host that has just died (its exit not yet reported) takes no ports;
    // wait for its exit to be handled, then start the next one with a fresh channel.
    for (let attempt = 0; ; attempt++) {
      await this.start();
      const link = this.link;
      if (!link) throw new Error('the mcp-host exited while starting');
      if (!link.sendWithPorts) throw new Error('this shell cannot transfer ports to the mcp-host');
      const pair = createChannel();
      if (link.sendWithPorts({ ch: 'mcp', msg: { type: 'attach_port', runId } satisfies HostToMcpHost }, [pair.port2])) {
        return { epoch: this.epoch, runnerEnd: pair.port1 };
      }
      pair.port1.close();
      if (attempt > 0) throw new Error('the mcp-host exited before it could take the port');
      await new Promise<void>((r) => link.onExit(() => r()));
    }
  }

  /** Called with the generation and a reason each time an mcp-host process exits. */
  onHostExit(listener: (epoch: number, why: string) => void): () => void {
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  /** Registers the listener for one run's messages; returns the unregister function. */
  attachRun(runId: string, listener: RunnerListener): () => void {
    this.runners.set(runId, listener);
    return () => {
      if (this.runners.get(runId) !== listener) return;
      this.runners.delete(runId);
      this.inFlight.delete(runId);
      this.waitingStart.delete(runId);
      this.link?.send({ ch: 'mcp', msg: { type: 'run_ended', runId } satisfies HostToMcpHost });
    };
  }

  /**
   * Forwards a runner's message, tagged with its run id. A call while the mcp-host cannot start
   * ends as an error result; a cancel of a call still waiting for the mcp-host to start ends
   * that call at once (it never reaches the mcp-host).
   */
  sendRunner(runId: string, msg: RunnerToMcp): void {
    const waiting = this.waitingStart.get(runId);
    if (msg.type === 'cancel' && waiting?.delete(msg.callId)) {
      this.runners.get(runId)?.({
        type: 'result',
        callId: msg.callId,
        output: toolErrorOutput(`MCP call cancelled before it reached the mcp-host${msg.reason ? ` (${msg.reason})` : ''}.`),
        mcpLog: [],
      });
      return;
    }
    if (msg.type === 'call') {
      if (waiting) waiting.add(msg.callId);
      else this.waitingStart.set(runId, new Set([msg.callId]));
    }
    const stillWanted = () => {
      if (msg.type !== 'call') return true;
      const set = this.waitingStart.get(runId);
      const wanted = set?.delete(msg.callId) ?? false;
      if (set?.size === 0) this.waitingStart.delete(runId);
      return wanted;
    };
    this.start().then(
      () => {
        if (!stillWanted()) return;
        // In flight from the moment it is sent: if the mcp-host dies now, the call is lost.
        if (msg.type === 'call') {
          let set = this.inFlight.get(runId);
          if (!set) this.inFlight.set(runId, (set = new Set()));
          set.add(msg.callId);
        }
        this.link?.send({ ch: 'mcp', msg: { type: 'runner', runId, msg } satisfies HostToMcpHost });
      },
      (err: Error) => {
        if (msg.type !== 'call' || !stillWanted()) return;
        this.runners.get(runId)?.({
          type: 'result',
          callId: msg.callId,
          output: toolErrorOutput(`MCP unavailable: could not start the mcp-host: ${err.message}`),
          mcpLog: [],
        });
      },
    );
  }

  /** Stops the mcp-host (and with it every MCP server it started). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.restartTimer);
    const link = this.link;
    if (!link) return;
    const gone = new Promise<void>((r) => link.onExit(() => r()));
    link.kill('SIGTERM');
    const t = setTimeout(() => link.kill('SIGKILL'), 2000);
    await gone;
    clearTimeout(t);
  }
}

function describeExit(exit: ChildExit): string {
  return exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
}
