/**
 * RunSupervisor (docs/architecture.md#processes-and-state): one agent-runner process per run. Sends `start` with the
 * RunSpec, relays `cancel` / `input`, kills a runner that does not stop within the grace
 * period after a cancel, notices every exit at once (normal, crash, `kill -9`, OOM) and
 * connects the run's `mcp` channel to an McpRelay (relayed, or a brokered direct port).
 */
import type { ChildExit, ChildLink, ProcessSpawner } from '../process/types';
import type { HostToRunner, Port, RunSpec } from '../../../shared/protocol/runner';
import type { McpTransportMode } from '../../../shared/protocol/mcp';

/**
 * Connects a run to the mcp-host (implemented in main/core/mcp/). `attach` gets the run's
 * `mcp` channel and its process link (which can carry a brokered port).
 */
export interface McpRelay {
  attach(runId: string, port: Port<unknown, unknown>, runner: ChildLink): McpAttachment;
}

/** One run's connection to the mcp-host. */
export interface McpAttachment {
  /** How this run reaches the mcp-host; told to the runner as RunSpec.mcpTransport. */
  transport: McpTransportMode;
  /** Called when the run ends. */
  detach(): void;
}

/** How a runner process ended. */
export interface RunExit extends ChildExit {
  /** The runner posted `done` before exiting. */
  sawDone: boolean;
  /** A cancel was requested. */
  cancelRequested: boolean;
  /** The supervisor killed it (grace period after cancel ran out, or shutdown). */
  killed: boolean;
  /** Exited without `done`, or with a non-zero code or a signal. */
  abnormal: boolean;
  /** Last stderr lines (diagnostics for a crash). */
  stderrTail: string;
}

/** Receives everything a run's process says and when it ends. */
export interface RunListener {
  /** A message on the run channel (unvalidated: the bridge checks it). */
  message(runId: string, msg: unknown): void;
  /** The process ended; called exactly once per run. */
  exit(runId: string, exit: RunExit): void;
}

export interface RunSupervisorOptions {
  spawner: ProcessSpawner;
  /** Runner entry file (see process/entries.ts). */
  entry: string;
  listener: RunListener;
  mcp?: McpRelay;
  /** How long a cancelled runner may take to stop before it is killed. Default 2000 ms. */
  cancelGraceMs?: number;
  env?: Record<string, string | undefined>;
}

/** One live run process. */
export interface SupervisedRun {
  readonly runId: string;
  readonly threadId: string;
  readonly pid: number | undefined;
  readonly startedAt: number;
  /** Resolves once the process is gone. */
  readonly exited: Promise<RunExit>;
}

interface RunState extends SupervisedRun {
  link: ChildLink;
  sawDone: boolean;
  cancelRequested: boolean;
  killed: boolean;
  stderr: string;
  killTimer?: NodeJS.Timeout;
  detachMcp?: () => void;
  mcpListeners: Set<(msg: unknown) => void>;
}

const STDERR_TAIL = 8 * 1024;

export class RunSupervisor {
  private readonly runs = new Map<string, RunState>();
  private readonly graceMs: number;

  constructor(private readonly opts: RunSupervisorOptions) {
    this.graceMs = opts.cancelGraceMs ?? 2000;
  }

  /** Start a runner for `spec`; `spec.runId` must be new. */
  start(spec: RunSpec): SupervisedRun {
    if (this.runs.has(spec.runId)) throw new Error(`run ${spec.runId} is already running`);
    const link = this.opts.spawner.spawn(this.opts.entry, { name: `stepwise-run-${spec.runId}`, env: this.opts.env });
    let resolveExit!: (e: RunExit) => void;
    const exited = new Promise<RunExit>((r) => (resolveExit = r));
    const run: RunState = {
      runId: spec.runId,
      threadId: spec.threadId,
      pid: link.pid,
      startedAt: Date.now(),
      exited,
      link,
      sawDone: false,
      cancelRequested: false,
      killed: false,
      stderr: '',
      mcpListeners: new Set(),
    };
    this.runs.set(spec.runId, run);

    link.onStderr((chunk) => {
      run.stderr = (run.stderr + chunk).slice(-STDERR_TAIL);
    });
    link.onFrame((frame) => {
      if (frame.ch === 'run') {
        const m = frame.msg as { type?: unknown } | null;
        if (m && typeof m === 'object' && m.type === 'done' && !run.sawDone) {
          run.sawDone = true;
          // The runner exits right after `done`; one that lingers is stopped.
          if (!run.killTimer) {
            run.killTimer = setTimeout(() => this.kill(run.runId), this.graceMs);
            run.killTimer.unref?.();
          }
        }
        this.opts.listener.message(run.runId, frame.msg);
      } else if (frame.ch === 'mcp') {
        for (const l of run.mcpListeners) l(frame.msg);
      }
    });
    link.onExit((exit) => {
      if (run.killTimer) clearTimeout(run.killTimer);
      run.detachMcp?.();
      this.runs.delete(run.runId);
      const info: RunExit = {
        ...exit,
        sawDone: run.sawDone,
        cancelRequested: run.cancelRequested,
        killed: run.killed,
        abnormal: !run.sawDone || exit.code !== 0 || exit.signal !== null,
        stderrTail: run.stderr,
      };
      try {
        this.opts.listener.exit(run.runId, info);
      } finally {
        resolveExit(info);
      }
    });

    let mcpTransport: McpTransportMode | undefined;
    if (this.opts.mcp) {
      const port: Port<unknown, unknown> = {
        post: (msg) => link.send({ ch: 'mcp', msg }),
        onMessage: (listener) => {
          run.mcpListeners.add(listener);
          return () => run.mcpListeners.delete(listener);
        },
      };
      const attachment = this.opts.mcp.attach(spec.runId, port, link);
      run.detachMcp = () => attachment.detach();
      mcpTransport = attachment.transport;
    }
    const mcp = spec.mcp ?? Boolean(this.opts.mcp);
    this.send(run, { type: 'start', spec: { ...spec, mcp, ...(mcp && mcpTransport ? { mcpTransport } : {}) } });
    return run;
  }

  private send(run: RunState, msg: HostToRunner): void {
    run.link.send({ ch: 'run', msg });
  }

  /** Ask a run to stop; kill its process if it has not exited after the grace period. False if unknown. */
  cancel(runId: string, reason?: string): boolean {
    const run = this.runs.get(runId);
    if (!run) return false;
    if (!run.cancelRequested) {
      run.cancelRequested = true;
      this.send(run, { type: 'cancel', reason });
      run.killTimer = setTimeout(() => this.kill(runId), this.graceMs);
      run.killTimer.unref?.();
    }
    return true;
  }

  /** Kill a run's process at once (SIGKILL). */
  kill(runId: string): void {
    const run = this.runs.get(runId);
    if (!run) return;
    run.killed = true;
    run.link.kill('SIGKILL');
  }

  /** Deliver user input (elicitation answer, typed tool result) to a waiting run. */
  input(runId: string, nodeId: string, value: unknown): boolean {
    const run = this.runs.get(runId);
    if (!run) return false;
    this.send(run, { type: 'input', nodeId, value });
    return true;
  }

  get(runId: string): SupervisedRun | undefined {
    return this.runs.get(runId);
  }

  /** Live runs, optionally of one thread. */
  list(threadId?: string): SupervisedRun[] {
    return [...this.runs.values()].filter((r) => threadId === undefined || r.threadId === threadId);
  }

  /** Cancel every run and wait until all processes are gone (shutdown). */
  async stopAll(): Promise<void> {
    const all = [...this.runs.values()];
    for (const r of all) this.cancel(r.runId, 'host shutting down');
    await Promise.all(all.map((r) => r.exited));
  }
}
