/**
 * The Node implementation of ProcessSpawner (DESIGN §1): `child_process.fork` with an IPC
 * channel using structured-clone (`advanced`) serialization. A `.ts` entry runs through tsx.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { ChildExit, ChildFrame, ChildLink, ProcessSpawner, SpawnOptions } from './types';

/** The tsx loader as an absolute file URL, so `--import` works whatever the child's cwd. */
function tsxLoader(): string {
  try {
    return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  } catch {
    return 'tsx';
  }
}

export interface NodeSpawnerOptions {
  /** Where the child's stdout goes: the host's own stdout, or discarded through a pipe. Default 'inherit'. */
  stdout?: 'inherit' | 'pipe';
  /**
   * Start children in their own process group, so a terminal's Ctrl-C reaches only the host,
   * which then cancels runs through the protocol (the CLI). Default false.
   */
  detached?: boolean;
}

/** Forks children with `{ serialization: 'advanced', stdio: ['ignore', stdout, 'pipe', 'ipc'] }`. */
export class NodeSpawner implements ProcessSpawner {
  constructor(private readonly options: NodeSpawnerOptions = {}) {}

  spawn(entry: string, options: SpawnOptions): ChildLink {
    const isTs = /\.[cm]?tsx?$/.test(entry);
    const child = fork(entry, [], {
      serialization: 'advanced',
      execArgv: isTs ? ['--import', tsxLoader()] : [],
      stdio: ['ignore', this.options.stdout ?? 'inherit', 'pipe', 'ipc'],
      env: { ...process.env, ...options.env, STEPWISE_PROCESS_NAME: options.name },
      cwd: options.cwd,
      detached: this.options.detached ?? false,
    });
    return new NodeChildLink(child);
  }
}

class NodeChildLink implements ChildLink {
  private readonly frameListeners = new Set<(frame: ChildFrame) => void>();
  private readonly exitListeners = new Set<(exit: ChildExit) => void>();
  private readonly stderrListeners = new Set<(chunk: string) => void>();
  private exit: ChildExit | undefined;
  private exitReported = false;

  constructor(private readonly child: ChildProcess) {
    child.on('message', (m: unknown) => {
      if (!m || typeof m !== 'object') return;
      const frame = m as ChildFrame;
      for (const l of this.frameListeners) l(frame);
    });
    child.stdout?.resume(); // 'pipe' mode: discard, never let the pipe fill up
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      for (const l of this.stderrListeners) l(chunk);
    });
    // Report the exit after the IPC channel closed, so every message the child sent before
    // dying has been delivered first; a fallback timer covers a channel that never reports.
    child.on('exit', (code, signal) => {
      this.exit = { code, signal };
      if (!child.connected) setImmediate(() => this.reportExit());
      else setTimeout(() => this.reportExit(), 500).unref();
    });
    child.on('disconnect', () => {
      if (this.exit) setImmediate(() => this.reportExit());
    });
    child.on('error', () => {
      // fork failures surface as an exit; nothing else to do here.
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  private reportExit(): void {
    if (this.exitReported || !this.exit) return;
    this.exitReported = true;
    for (const l of this.exitListeners) l(this.exit);
  }

  send(frame: ChildFrame): void {
    if (!this.child.connected) return;
    try {
      this.child.send(frame, (err) => {
        void err; // the child went away mid-send; its exit is reported separately
      });
    } catch {
      // channel closed
    }
  }

  onFrame(listener: (frame: ChildFrame) => void): () => void {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }

  onExit(listener: (exit: ChildExit) => void): () => void {
    if (this.exitReported && this.exit) {
      const exit = this.exit;
      queueMicrotask(() => listener(exit));
      return () => {};
    }
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  onStderr(listener: (chunk: string) => void): () => void {
    this.stderrListeners.add(listener);
    return () => this.stderrListeners.delete(listener);
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    if (this.exit) return;
    try {
      this.child.kill(signal);
    } catch {
      // already gone
    }
  }
}
