/**
 * Transports for one configured server (stdio, Streamable HTTP, SSE) and a wrapper that shows
 * every JSON-RPC message to the protocol log before the SDK sees it.
 */
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../shared/protocol/mcp';

/** Largest stdio message accepted (bytes); the SDK default is 10 MiB. */
const STDIO_MAX_BUFFER = 64 * 1024 * 1024;

/** PIDs of the stdio servers this process started and has not closed. */
const stdioChildren = new Set<number>();
let pidsListener: ((pids: number[]) => void) | undefined;
const changed = () => pidsListener?.([...stdioChildren]);

/**
 * Tells `listener` the PIDs of the running stdio servers whenever they change, so the host can
 * end them if this process is killed without a chance to (SIGKILL, OOM).
 */
export function onStdioServerPids(listener: (pids: number[]) => void): void {
  pidsListener = listener;
}

/**
 * Ends every stdio server still running (synchronous, for `process.on('exit')`): a server that
 * ignores the end of its stdin must not outlive the mcp-host.
 */
export function killStdioServers(): void {
  for (const pid of stdioChildren) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  stdioChildren.clear();
}

/** Creates the SDK transport for `config`; stdio servers' stderr goes to `onStderr`. */
export function createTransport(config: McpServerConfig, onStderr: (chunk: string) => void): Transport {
  if (config.transport === 'stdio') {
    const t = new StdioClientTransport({
      command: config.command,
      args: config.args,
      // The SDK adds the safe defaults (HOME, PATH, SHELL, TERM, USER, LOGNAME) to these.
      env: config.env,
      cwd: config.cwd,
      stderr: 'pipe',
      maxBufferSize: STDIO_MAX_BUFFER,
    });
    t.stderr?.on('data', (chunk: Buffer | string) => onStderr(chunk.toString()));
    // Remember the server's pid until its process has exited: the SDK's close() can return at
    // once when it was already called (a failed handshake closes twice) while the process still
    // runs, so only the process's own exit takes it off the list.
    const start = t.start.bind(t);
    t.start = async () => {
      await start();
      const pid = t.pid;
      if (pid === null) return;
      stdioChildren.add(pid);
      changed();
      const child = (t as unknown as { _process?: { once(ev: 'exit', l: () => void): void } })._process;
      child?.once('exit', () => {
        stdioChildren.delete(pid);
        changed();
      });
    };
    return t;
  }
  const url = new URL(config.url);
  const requestInit = { headers: config.headers };
  if (config.transport === 'sse') {
    return new SSEClientTransport(url, {
      requestInit,
      eventSourceInit: {
        fetch: (u, init) => fetch(u, { ...init, headers: { ...(init?.headers as Record<string, string>), ...config.headers } }),
      },
    });
  }
  return new StreamableHTTPClientTransport(url, { requestInit });
}

/** Wraps a transport so `record` sees each message, outgoing before send, incoming before the SDK. */
export class LoggingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(
    readonly inner: Transport,
    private readonly record: (dir: 'in' | 'out', msg: JSONRPCMessage) => void,
  ) {
    inner.onmessage = (msg, extra) => {
      this.record('in', msg);
      this.onmessage?.(msg, extra);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (e) => this.onerror?.(e);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.record('out', message);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}
