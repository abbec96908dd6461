/**
 * A local HTTP server on 127.0.0.1 (random port) that plays scripted replies, for tests that
 * point real SDK clients (openai, @anthropic-ai/sdk, MCP …) at it. Each request takes the next
 * queued reply, whatever its path. A reply is a status, headers, and either a JSON/text body or
 * a stream of steps: bytes written as given (so a test controls chunk boundaries down to the
 * byte), pauses, a hang until the client leaves, or a socket cut. Every request received is
 * recorded (method, path, headers, parsed JSON body) so tests can assert what was sent.
 */
import http from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import type { AddressInfo } from 'node:net';

/** One step of a streamed reply. */
export type Step =
  /** Bytes written as one write (a string is UTF-8 encoded). */
  | string
  | Uint8Array
  /** Wait this many milliseconds. */
  | { pause: number }
  /** Keep the response open until the client closes it (for abort tests). */
  | { hang: true }
  /** Destroy the socket at once: the response ends without its chunked terminator. */
  | { destroy: true };

export interface ScriptedReply {
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
  /** Streamed body steps; content-type text/event-stream unless headers say otherwise. */
  stream?: Step[];
  /** A JSON body (error replies). */
  json?: unknown;
  /** A raw text body. */
  body?: string;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
}

export interface SseServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Queues replies, served in order to the next requests. */
  reply(...replies: ScriptedReply[]): void;
  /** Every request received, in order. */
  requests: ReceivedRequest[];
  /** Resolves when the client has closed a hung or streaming response (abort tests). */
  clientClosed(): Promise<void>;
  close(): Promise<void>;
}

/** Formats one SSE event: `event: <name>` (optional) and one `data:` line, blank line after. */
export function sseEvent(data: unknown, event?: string): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`;
}

/** Splits text (UTF-8) or bytes at the given byte offsets, which may fall inside a character. */
export function splitAt(input: string | Uint8Array, cuts: number[]): Uint8Array[] {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const points = [...new Set(cuts.filter((c) => c > 0 && c < bytes.length))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of [...points, bytes.length]) {
    out.push(bytes.slice(prev, p));
    prev = p;
  }
  return out;
}

/** Splits text or bytes into pieces of `size` bytes. */
export function chunkBytes(input: string | Uint8Array, size: number): Uint8Array[] {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const cuts: number[] = [];
  for (let i = size; i < bytes.length; i += size) cuts.push(i);
  return splitAt(bytes, cuts);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts the server; close it in `afterAll`/`afterEach`. */
export async function startSseServer(): Promise<SseServer> {
  const queue: ScriptedReply[] = [];
  const requests: ReceivedRequest[] = [];
  let closeWaiters: (() => void)[] = [];

  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(parts).toString('utf8');
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {}
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      void serve(queue.shift(), res);
    });
  });
  server.on('connection', (s) => s.setNoDelay(true));

  async function serve(r: ScriptedReply | undefined, res: http.ServerResponse): Promise<void> {
    let gone = false;
    res.on('close', () => {
      gone = true;
      const w = closeWaiters;
      closeWaiters = [];
      w.forEach((f) => f());
    });
    if (!r) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'sse-server: no scripted reply queued for this request' } }));
      return;
    }
    const status = r.status ?? 200;
    if (!r.stream) {
      const text = r.json !== undefined ? JSON.stringify(r.json) : (r.body ?? '');
      res.writeHead(status, { 'content-type': r.json !== undefined ? 'application/json' : 'text/plain', ...r.headers });
      res.end(text);
      return;
    }
    res.writeHead(status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...r.headers });
    res.flushHeaders();
    for (const step of r.stream) {
      if (gone) return;
      if (typeof step === 'string' || step instanceof Uint8Array) {
        res.write(step);
        // Let the socket flush so separate steps tend to arrive as separate reads.
        await new Promise((ok) => setImmediate(ok));
      } else if ('pause' in step) {
        await sleep(step.pause);
      } else if ('hang' in step) {
        await new Promise<void>((ok) => (gone ? ok() : res.once('close', () => ok())));
        return;
      } else if ('destroy' in step) {
        res.socket?.destroy();
        return;
      }
    }
    res.end();
  }

  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    reply: (...replies) => void queue.push(...replies),
    clientClosed: () => new Promise<void>((ok) => closeWaiters.push(ok)),
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/**
 * One server for the calling test file: started before its tests, closed after them. Returns
 * a getter (the server exists once the tests run).
 */
export function sseServerPerFile(): () => SseServer {
  let server: SseServer | undefined;
  beforeAll(async () => {
    server = await startSseServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('sseServerPerFile: the server starts in beforeAll; use it inside a test');
    return server;
  };
}
