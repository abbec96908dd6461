/**
 * Child processes of the host (agent-runners, the mcp-host) behind one interface, so the
 * Electron shell can swap `utilityProcess.fork` in for `child_process.fork` (docs/architecture.md#processes-and-state).
 * Frames are `{ ch: 'run' | 'mcp' | 'template', msg }` (see shared/process-port.node.ts); where the shell
 * can transfer ports (Electron), a frame may carry ports of a brokered channel.
 */
export interface ChildFrame {
  ch: 'run' | 'mcp' | 'template';
  msg: unknown;
}

export interface ChildExit {
  /** Exit code, or null when killed by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A running child process and its message link. */
export interface ChildLink {
  readonly pid: number | undefined;
  /** Send a frame; a no-op once the child is gone. */
  send(frame: ChildFrame): void;
  onFrame(listener: (frame: ChildFrame) => void): () => void;
  /** Called once, when the process has exited (normally, crashed or killed). */
  onExit(listener: (exit: ChildExit) => void): () => void;
  /** Lines the child wrote to stderr (diagnostics). */
  onStderr(listener: (chunk: string) => void): () => void;
  kill(signal?: NodeJS.Signals): void;
  /**
   * Send a frame transferring ports from `ProcessSpawner.createChannel` (the child receives
   * them as the message's `ports`). Present only where ports can cross processes (Electron);
   * once the child is gone, the ports are closed and it returns false.
   */
  sendWithPorts?(frame: ChildFrame, ports: TransferablePort[]): boolean;
}

/**
 * One end of a channel that can be transferred to a child process: Electron's
 * `MessagePortMain`. Opaque to the host core, which only hands it on; `close()` releases an
 * end that could not be delivered.
 */
export interface TransferablePort {
  close(): void;
}

/** Two entangled ports (Electron's `MessageChannelMain`): what one end posts, the other receives. */
export interface PortPair {
  port1: TransferablePort;
  port2: TransferablePort;
}

export interface SpawnOptions {
  /** Display name (process title, logs). */
  name: string;
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Node options for the child, e.g. `--max-old-space-size=256` (the template worker's heap bound). */
  execArgv?: string[];
}

/** Starts a child from a built entry file (out/main/*.js) or a TypeScript source (via tsx). */
export interface ProcessSpawner {
  spawn(entry: string, options: SpawnOptions): ChildLink;
  /**
   * A new channel whose ends can go to two children (`ChildLink.sendWithPorts`), so they talk
   * directly. Absent under Node, where ports cannot cross processes and the host relays.
   */
  createChannel?(): PortPair;
}
