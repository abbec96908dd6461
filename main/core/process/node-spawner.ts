/**
 * The Node implementation of ProcessSpawner (docs/architecture.md#processes-and-state): `child_process.fork` with an IPC
 * channel using structured-clone (`advanced`) serialization. A `.ts` entry runs through tsx.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { ChildFrame, ChildLink, ProcessSpawner, SpawnOptions } from './types';
import { ChildLinkBase, isTypeScriptEntry, tsxLoader } from './link-base';

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
    const child = fork(entry, [], {
      serialization: 'advanced',
      execArgv: [...(isTypeScriptEntry(entry) ? ['--import', tsxLoader()] : []), ...(options.execArgv ?? [])],
      stdio: ['ignore', this.options.stdout ?? 'inherit', 'pipe', 'ipc'],
      env: { ...process.env, ...options.env, STEPWISE_PROCESS_NAME: options.name },
      cwd: options.cwd,
      detached: this.options.detached ?? false,
    });
    return new NodeChildLink(child);
  }
}

class NodeChildLink extends ChildLinkBase implements ChildLink {
  constructor(private readonly child: ChildProcess) {
    super();
    child.on('message', (m: unknown) => this.emitFrame(m));
    child.stdout?.resume(); // 'pipe' mode: discard, never let the pipe fill up
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => this.emitStderr(chunk));
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

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    if (this.exit) return;
    try {
      this.child.kill(signal);
    } catch {
      // already gone
    }
  }
}
