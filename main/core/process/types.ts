/**
 * Child processes of the host (agent-runners, the mcp-host) behind one interface, so the
 * Electron shell can swap `utilityProcess.fork` in for `child_process.fork` (DESIGN §1).
 * Frames are `{ ch: 'run' | 'mcp', msg }` (see agent-runner/process-port.ts).
 */
export interface ChildFrame {
  ch: 'run' | 'mcp';
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
}

export interface SpawnOptions {
  /** Display name (process title, logs). */
  name: string;
  env?: Record<string, string | undefined>;
  cwd?: string;
}

/** Starts a child from a built entry file (out/main/*.js) or a TypeScript source (via tsx). */
export interface ProcessSpawner {
  spawn(entry: string, options: SpawnOptions): ChildLink;
}
