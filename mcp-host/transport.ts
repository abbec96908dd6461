/**
 * Transports for one configured server (stdio, Streamable HTTP, SSE, bundled), each wrapped in a
 * decorator that shows every JSON-RPC message to the protocol log on its way, and the list of
 * the stdio servers' PIDs.
 */
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../shared/protocol/mcp';
import { BundledServerTransport } from './bundled';
import { listenBeforeInitialized } from './listen-first';
import type { OAuthSession } from './oauth';

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

/** What a {@link RecordingTransport} tells its owner. */
export interface TransportObserver {
  /** Each JSON-RPC message: `out` just before it is sent, `in` before the SDK sees it. */
  message(dir: 'in' | 'out', msg: JSONRPCMessage): void;
  /** `start()` resolved: the connection is up (for stdio, the server's process runs). */
  started?(): void;
  /** The inner transport closed (for stdio, the server's process has exited). */
  closed?(): void;
}

/**
 * A `Transport` decorator: forwards everything to `inner` (start, send, close, the callbacks,
 * `sessionId`, `setProtocolVersion`) and shows each JSON-RPC message to `observer` on its way,
 * in both directions. The SDK's `Client` connects to it as to any transport.
 */
export class RecordingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(
    readonly inner: Transport,
    private readonly observer: TransportObserver,
  ) {
    inner.onmessage = (msg, extra) => {
      observer.message('in', msg);
      this.onmessage?.(msg, extra);
    };
    inner.onclose = () => {
      observer.closed?.();
      this.onclose?.();
    };
    inner.onerror = (e) => this.onerror?.(e);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    await this.inner.start();
    this.observer.started?.();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.observer.message('out', message);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}

/** Where a server's transport reports to. */
export interface TransportHooks {
  /** Each JSON-RPC message in either direction (see {@link TransportObserver}). */
  message(dir: 'in' | 'out', msg: JSONRPCMessage): void;
  /** A chunk of a stdio server's stderr. */
  stderr(chunk: string): void;
}

/**
 * The transport for `config` (stdio, Streamable HTTP, SSE, or in memory to a bundled server,
 * bundled.ts), wrapped in a {@link RecordingTransport}; a remote one signs in with `oauth` when the server asks (401). A stdio server's stderr goes to `hooks.stderr`, and its PID is on
 * the list {@link onStdioServerPids} reports from the moment it runs until its process has
 * exited (not merely until `close()` returned: the SDK's `close()` returns at once when called
 * twice, as a failed handshake does, while the process may still run).
 */
export function openTransport(config: McpServerConfig, hooks: TransportHooks, oauth?: OAuthSession): RecordingTransport {
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
    t.stderr?.on('data', (chunk: Buffer | string) => hooks.stderr(chunk.toString()));
    let pid: number | undefined;
    return new RecordingTransport(t, {
      message: hooks.message,
      started: () => {
        pid = t.pid ?? undefined;
        if (pid === undefined) return;
        stdioChildren.add(pid);
        changed();
      },
      // The SDK's stdio transport reports a close when the server's process has closed.
      closed: () => {
        if (pid === undefined) return;
        stdioChildren.delete(pid);
        pid = undefined;
        changed();
      },
    });
  }
  if (config.transport === 'bundled') return new RecordingTransport(new BundledServerTransport(config.server), { message: hooks.message });
  const url = new URL(config.url);
  const requestInit = { headers: config.headers };
  // With OAuth, the SDK's client auth answers a 401 (discovery, registration, PKCE, refresh).
  const auth = oauth ? { authProvider: oauth, fetch: oauth.fetch } : {};
  if (config.transport === 'sse') {
    const sse = new SSEClientTransport(url, {
      requestInit,
      ...auth,
      eventSourceInit: {
        fetch: (u, init) => {
          // `init.headers` is a Headers object (Accept, Authorization): keep it, add the configured ones.
          const headers = new Headers(init?.headers);
          for (const [k, v] of Object.entries(config.headers)) headers.set(k, v);
          return (oauth?.fetch ?? fetch)(u, { ...init, headers });
        },
      },
    });
    return new RecordingTransport(sse, { message: hooks.message });
  }
  return new RecordingTransport(listenBeforeInitialized(new StreamableHTTPClientTransport(url, { requestInit, ...auth })), { message: hooks.message });
}
