/**
 * RunSupervisor (docs/architecture.md#processes-and-state): one agent-runner process per run, or
 * (for the cases of an evaluation batch) pooled processes that each run one run at a time and
 * wait for the next after `done`; a crash still ends only the run in flight. Sends `start` with the
 * RunSpec, relays `cancel` / `input`, kills a runner that does not stop within the grace
 * period after a cancel, notices every exit at once (normal, crash, `kill -9`, OOM) and
 * connects the run's `mcp` channel to an McpRelay (relayed, or a brokered direct port).
 */
import type { ChildExit, ChildLink, ProcessSpawner } from '../process/types';
import { RUNNER_POOLED_ENV, type HostToRunner, type Port, type RunSpec } from '../../../shared/protocol/runner';
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

/** How a runner that stopped on its own is described: `The runner process stopped unexpectedly (signal SIGKILL).` */
export function unexpectedStop(exit: Pick<RunExit, 'code' | 'signal'>): string {
  return `The runner process stopped unexpectedly (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`}).`;
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
  /** How long an idle pooled process waits for its pool's next run before it is stopped (ms). Default 30,000. */
  poolIdleMs?: number;
}

/** One live run and the process it runs in. */
export interface SupervisedRun {
  readonly runId: string;
  readonly threadId: string;
  readonly pid: number | undefined;
  readonly startedAt: number;
  /** The pool whose process runs it (absent: a fresh process of its own). */
  readonly pool?: string;
  /** Resolves once the run is over: its process is gone, or (pooled) it posted `done`. */
  readonly exited: Promise<RunExit>;
}

/** How {@link RunSupervisor.start} places a run. */
export interface StartOptions {
  /**
   * Run in a reusable process of this pool (an idle one if there is one, else a new one) that
   * stays for the pool's next run after `done`, instead of a fresh process that exits after it.
   * A crash still ends only the run in flight. Release the pool with {@link RunSupervisor.releasePool}.
   */
  pool?: string;
}

/** A runner process: a fresh one runs one run; a pooled one runs its pool's runs one at a time. */
interface Proc {
  link: ChildLink;
  pool?: string;
  current?: RunState;
  stderr: string;
  /** Pooled and idle: when it is stopped if no run comes. */
  idleTimer?: NodeJS.Timeout;
  /** Its pool was released: it exits after the run in flight. */
  retired: boolean;
}

interface RunState extends SupervisedRun {
  proc: Proc;
  sawDone: boolean;
  cancelRequested: boolean;
  killed: boolean;
  killTimer?: NodeJS.Timeout;
  detachMcp?: () => void;
  mcpListeners: Set<(msg: unknown) => void>;
  resolveExit(e: RunExit): void;
}

const STDERR_TAIL = 8 * 1024;

export class RunSupervisor {
  private readonly runs = new Map<string, RunState>();
  /** Idle pooled processes, by pool. */
  private readonly idle = new Map<string, Proc[]>();
  /** Every live process (for shutdown). */
  private readonly procs = new Set<Proc>();
  private readonly graceMs: number;
  private readonly idleMs: number;

  constructor(private readonly opts: RunSupervisorOptions) {
    this.graceMs = opts.cancelGraceMs ?? 2000;
    this.idleMs = opts.poolIdleMs ?? 30_000;
  }

  /** Start `spec` in a runner process (fresh, or from `options.pool`); `spec.runId` must be new. */
  start(spec: RunSpec, options: StartOptions = {}): SupervisedRun {
    if (this.runs.has(spec.runId)) throw new Error(`run ${spec.runId} is already running`);
    const proc = (options.pool !== undefined && this.takeIdle(options.pool)) || this.spawn(options.pool, spec.runId);
    let resolveExit!: (e: RunExit) => void;
    const exited = new Promise<RunExit>((r) => (resolveExit = r));
    const run: RunState = {
      runId: spec.runId,
      threadId: spec.threadId,
      pid: proc.link.pid,
      startedAt: Date.now(),
      exited,
      proc,
      sawDone: false,
      cancelRequested: false,
      killed: false,
      mcpListeners: new Set(),
      resolveExit,
      ...(options.pool !== undefined ? { pool: options.pool } : {}),
    };
    proc.current = run;
    proc.stderr = '';
    this.runs.set(spec.runId, run);

    let mcpTransport: McpTransportMode | undefined;
    if (this.opts.mcp) {
      const port: Port<unknown, unknown> = {
        post: (msg) => proc.link.send({ ch: 'mcp', msg }),
        onMessage: (listener) => {
          run.mcpListeners.add(listener);
          return () => run.mcpListeners.delete(listener);
        },
      };
      const attachment = this.opts.mcp.attach(spec.runId, port, proc.link);
      run.detachMcp = () => attachment.detach();
      mcpTransport = attachment.transport;
    }
    const mcp = spec.mcp ?? Boolean(this.opts.mcp);
    this.send(run, { type: 'start', spec: { ...spec, mcp, ...(mcp && mcpTransport ? { mcpTransport } : {}) } });
    return run;
  }

  /** A new runner process, listened to for its whole life. */
  private spawn(pool: string | undefined, runId: string): Proc {
    const env = pool === undefined ? this.opts.env : { ...this.opts.env, [RUNNER_POOLED_ENV]: '1' };
    const link = this.opts.spawner.spawn(this.opts.entry, { name: pool === undefined ? `stepwise-run-${runId}` : 'stepwise-run-pooled', env });
    const proc: Proc = { link, stderr: '', retired: false };
    if (pool !== undefined) proc.pool = pool;
    this.procs.add(proc);
    link.onStderr((chunk) => {
      proc.stderr = (proc.stderr + chunk).slice(-STDERR_TAIL);
    });
    link.onFrame((frame) => {
      const run = proc.current;
      if (!run) return; // an idle pooled process has nothing to say; a late frame of a finished run is dropped
      if (frame.ch === 'run') {
        const m = frame.msg as { type?: unknown } | null;
        const done = Boolean(m && typeof m === 'object' && m.type === 'done' && !run.sawDone);
        if (done) run.sawDone = true;
        this.opts.listener.message(run.runId, frame.msg);
        if (!done) return;
        if (proc.pool !== undefined && !proc.retired) {
          this.finish(run, { code: 0, signal: null });
          this.toIdle(proc);
        } else if (!run.killTimer) {
          // The runner exits right after `done`; one that lingers is stopped.
          run.killTimer = setTimeout(() => this.killProc(proc, run), this.graceMs);
          run.killTimer.unref?.();
        }
      } else if (frame.ch === 'mcp') {
        for (const l of run.mcpListeners) l(frame.msg);
      }
    });
    link.onExit((exit) => {
      this.procs.delete(proc);
      if (proc.idleTimer) clearTimeout(proc.idleTimer);
      this.dropIdle(proc);
      if (proc.current) this.finish(proc.current, exit);
    });
    return proc;
  }

  /** The run is over (its process exited, or a pooled one posted `done`): tell the listener once. */
  private finish(run: RunState, exit: ChildExit): void {
    if (run.proc.current !== run) return;
    run.proc.current = undefined;
    if (run.killTimer) clearTimeout(run.killTimer);
    run.detachMcp?.();
    this.runs.delete(run.runId);
    const info: RunExit = {
      ...exit,
      sawDone: run.sawDone,
      cancelRequested: run.cancelRequested,
      killed: run.killed,
      abnormal: !run.sawDone || exit.code !== 0 || exit.signal !== null,
      stderrTail: run.proc.stderr,
    };
    try {
      this.opts.listener.exit(run.runId, info);
    } finally {
      run.resolveExit(info);
    }
  }

  private toIdle(proc: Proc): void {
    const pool = proc.pool!;
    this.idle.set(pool, [...(this.idle.get(pool) ?? []), proc]);
    proc.idleTimer = setTimeout(() => {
      // Out of the idle list before it is stopped: a run starting before its exit event gets another process.
      proc.idleTimer = undefined;
      this.dropIdle(proc);
      proc.link.kill('SIGTERM');
    }, this.idleMs);
    proc.idleTimer.unref?.();
  }

  /** Takes `proc` out of its pool's idle list (if there). */
  private dropIdle(proc: Proc): void {
    if (proc.pool === undefined) return;
    const left = (this.idle.get(proc.pool) ?? []).filter((p) => p !== proc);
    if (left.length) this.idle.set(proc.pool, left);
    else this.idle.delete(proc.pool);
  }

  private takeIdle(pool: string): Proc | undefined {
    const list = this.idle.get(pool);
    const proc = list?.shift();
    if (!proc) return undefined;
    if (!list!.length) this.idle.delete(pool);
    if (proc.idleTimer) clearTimeout(proc.idleTimer);
    proc.idleTimer = undefined;
    return proc;
  }

  /**
   * Stop the pool's idle processes now, and its busy ones after their run; later runs of the
   * pool get new processes.
   */
  releasePool(pool: string): void {
    for (const proc of this.idle.get(pool) ?? []) {
      if (proc.idleTimer) clearTimeout(proc.idleTimer);
      proc.link.kill('SIGTERM');
    }
    this.idle.delete(pool);
    for (const proc of this.procs) if (proc.pool === pool && proc.current) proc.retired = true;
  }

  private send(run: RunState, msg: HostToRunner): void {
    run.proc.link.send({ ch: 'run', msg });
  }

  /** Ask a run to stop; kill its process if it has not exited after the grace period. False if unknown. */
  cancel(runId: string, reason?: string): boolean {
    const run = this.runs.get(runId);
    if (!run) return false;
    if (!run.cancelRequested) {
      run.cancelRequested = true;
      this.send(run, { type: 'cancel', reason });
      run.killTimer = setTimeout(() => this.killProc(run.proc, run), this.graceMs);
      run.killTimer.unref?.();
    }
    return true;
  }

  /** Kill a run's process at once (SIGKILL). */
  kill(runId: string): void {
    const run = this.runs.get(runId);
    if (run) this.killProc(run.proc, run);
  }

  /** Kill `proc` if `run` is still its run (a pooled process may have moved on). */
  private killProc(proc: Proc, run: RunState): void {
    if (proc.current !== run) return;
    run.killed = true;
    proc.link.kill('SIGKILL');
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

  /** Cancel every run, stop idle pooled processes, and wait until all are gone (shutdown). */
  async stopAll(): Promise<void> {
    const all = [...this.runs.values()];
    for (const pool of [...this.idle.keys()]) this.releasePool(pool);
    for (const r of all) this.cancel(r.runId, 'host shutting down');
    await Promise.all(all.map((r) => r.exited));
  }
}
