/**
 * The Electron implementation of ProcessSpawner (docs/architecture.md#processes-and-state): every agent-runner and the
 * mcp-host start with `utilityProcess.fork(entry, [], { serviceName, stdio: 'pipe' })`. Frames
 * `{ ch, msg }` go out with `child.postMessage` and come back on `child.on('message')`; the
 * child reads them from `process.parentPort` (shared/process-port.node.ts). With a
 * `messageChannel` factory (Electron's MessageChannelMain) the spawner also creates channels
 * whose ends are transferred to two children (`sendWithPorts`), so the host can broker a
 * direct runner ↔ mcp-host port per run. Only the host core's supervisors hold these links:
 * no renderer ever gets a runner's port.
 *
 * `utilityProcess.fork` is injected (index.ts passes Electron's), so this file has no runtime
 * dependency on the Electron binary and its contract tests run under Node with a stand-in.
 * Docs: https://www.electronjs.org/docs/latest/api/utility-process
 */
import type { ChildFrame, ChildLink, PortPair, ProcessSpawner, SpawnOptions, TransferablePort } from '../core/process/types';
import { ChildLinkBase, isTypeScriptEntry, tsxLoader } from '../core/process/link-base';

/** The surface of Electron's `UtilityProcess` this adapter uses. */
export interface UtilityProcessLike {
  readonly pid: number | undefined;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  /** `transfer`: MessagePortMain ends to hand to the child (Electron ≥ 22). */
  postMessage(message: unknown, transfer?: TransferablePort[]): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  on(event: 'spawn', listener: () => void): unknown;
  kill(): boolean;
}

/** Options passed to `utilityProcess.fork` (a subset of Electron's ForkOptions). */
export interface UtilityForkOptions {
  serviceName: string;
  stdio: 'pipe';
  env: Record<string, string>;
  cwd?: string;
  execArgv?: string[];
}

/** Electron's `utilityProcess.fork`, or a stand-in with the same contract. */
export type UtilityFork = (modulePath: string, args: string[], options: UtilityForkOptions) => UtilityProcessLike;

export interface UtilityProcessSpawnerOptions {
  /**
   * How long to wait after the `exit` event before reporting it, so messages the child posted
   * just before exiting (its last envelopes) are delivered first. Default 100 ms.
   */
  exitGraceMs?: number;
  /** Sends a signal to a pid (default `process.kill`); used for `kill('SIGKILL')`. */
  signalPid?: (pid: number, signal: NodeJS.Signals) => void;
  /**
   * Creates a channel whose ends can be transferred to children: `() => new MessageChannelMain()`
   * (https://www.electronjs.org/docs/latest/api/message-channel-main). With it the spawner
   * offers `createChannel`, and the host brokers a direct runner ↔ mcp-host port per run.
   */
  messageChannel?: () => PortPair;
}

/** ProcessSpawner over `utilityProcess.fork`. */
export class UtilityProcessSpawner implements ProcessSpawner {
  readonly createChannel?: () => PortPair;

  constructor(
    private readonly fork: UtilityFork,
    private readonly options: UtilityProcessSpawnerOptions = {},
  ) {
    if (options.messageChannel) this.createChannel = options.messageChannel;
  }

  spawn(entry: string, options: SpawnOptions): ChildLink {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...options.env, STEPWISE_PROCESS_NAME: options.name })) {
      if (v !== undefined) env[k] = v;
    }
    // A utility process is Node already; a leftover ELECTRON_RUN_AS_NODE must not leak into it.
    delete env.ELECTRON_RUN_AS_NODE;
    const child = this.fork(entry, [], {
      serviceName: options.name,
      stdio: 'pipe',
      env,
      ...(options.cwd ? { cwd: options.cwd } : {}),
      ...(isTypeScriptEntry(entry) || options.execArgv?.length ? { execArgv: [...(isTypeScriptEntry(entry) ? ['--import', tsxLoader()] : []), ...(options.execArgv ?? [])] } : {}),
    });
    return new UtilityChildLink(child, this.options);
  }
}

class UtilityChildLink extends ChildLinkBase implements ChildLink {
  private sentSignal: NodeJS.Signals | undefined;
  private readonly firstPid: number | undefined;

  constructor(
    private readonly child: UtilityProcessLike,
    private readonly options: UtilityProcessSpawnerOptions,
  ) {
    super();
    this.firstPid = child.pid;
    child.on('message', (m: unknown) => this.emitFrame(m));
    child.stdout?.resume(); // never let a full pipe block the child
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string | Buffer) => this.emitStderr(String(chunk)));
    child.on('exit', (code: number) => {
      // Electron reports only a code; a process we killed is reported as killed by that signal.
      this.exit = this.sentSignal && code !== 0 ? { code: null, signal: this.sentSignal } : { code, signal: null };
      const t = setTimeout(() => this.reportExit(), this.options.exitGraceMs ?? 100);
      t.unref?.();
    });
  }

  get pid(): number | undefined {
    return this.child.pid ?? (this.exit ? undefined : this.firstPid);
  }

  send(frame: ChildFrame): void {
    this.sendWithPorts(frame, []);
  }

  /**
   * `child.postMessage(frame, ports)`. False, with the ports closed (their partners see
   * 'close'), once the exit was seen. A process that died just before its 'exit' event
   * drops the message silently (Electron's behaviour), and its ports die with it.
   */
  sendWithPorts(frame: ChildFrame, ports: TransferablePort[]): boolean {
    if (!this.exit) {
      try {
        if (ports.length) this.child.postMessage(frame, ports);
        else this.child.postMessage(frame);
        return true;
      } catch {
        // the process is going away; its exit is reported separately
      }
    }
    for (const p of ports) p.close();
    return false;
  }

  /**
   * `UtilityProcess.kill()` sends SIGTERM (POSIX) or terminates (Windows); a SIGKILL request on
   * POSIX goes to the pid directly so a hung runner cannot ignore it.
   */
  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    if (this.exit) return;
    this.sentSignal = signal;
    const pid = this.child.pid;
    if (signal === 'SIGKILL' && pid !== undefined && process.platform !== 'win32') {
      try {
        (this.options.signalPid ?? ((p, s) => process.kill(p, s)))(pid, 'SIGKILL');
        return;
      } catch {
        // fall through to the process's own kill
      }
    }
    try {
      this.child.kill();
    } catch {
      // already gone
    }
  }
}
