/**
 * Web host adapter: the renderer served by the Node web host, talking over one WebSocket.
 *
 * Protocol (the web host implements the other end):
 * - Connect to `ws(s)://<page origin>/ws?token=<token>`; the token comes from the page's
 *   `location.hash` (`#token=…`). Every frame is one JSON text message.
 * - Client → host: `{ id: number, method: HostMethod, params }` (see shared/protocol/host-api.ts).
 * - Host → client: `{ id, result }` or `{ id, error: { message, code? } }` answering a request,
 *   and `{ push: HostPush }` for envelopes (tree_update, llm_delta, node_snapshot, run_result,
 *   thread_patch) and events (workspace_changed, run_started, run_ended, notice).
 * - Backpressure: the client sends `stream.ack { count }` with the number of pushes it has
 *   processed since its last ack, at most once per animation frame. The host bounds each
 *   client's unacknowledged queue (DESIGN §6 rule 6).
 * - On close the client rejects its unanswered requests (code `disconnected`), reconnects with
 *   exponential backoff (0.25 s doubling to 5 s) and repeats its last `stream.subscribe`; the
 *   host then sends current trees and snapshots before live deltas (rule 5). Requests made
 *   while disconnected wait for the connection.
 */
import type { HostMethod, HostParams, HostResult, HostPush, HostResponse } from '../../../shared/protocol/host-api';
import { HostError, type HostServices } from './types';
import { PushHub, pushIterable } from './push-queue';
import { AckBatcher, nextFrame, type FrameScheduler } from './frame';

export interface WebHostOptions {
  /** WebSocket constructor (tests pass the `ws` package's). */
  WebSocketImpl?: typeof WebSocket;
  schedule?: FrameScheduler;
  /** First reconnect delay in ms (doubles up to `maxBackoffMs`). */
  backoffMs?: number;
  maxBackoffMs?: number;
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: unknown): void;
  method: string;
}

/** The WebSocket URL for a page origin (`http://127.0.0.1:5179` → `ws://127.0.0.1:5179/ws?token=…`). */
export function wsUrl(origin: string, token: string): string {
  const u = new URL(origin);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.pathname = '/ws';
  u.search = `?token=${encodeURIComponent(token)}`;
  u.hash = '';
  return u.toString();
}

/** Read `#token=…` from a location hash; undefined when absent. */
export function tokenFromHash(hash: string): string | undefined {
  const m = /(?:^#|&)token=([^&]+)/.exec(hash);
  return m ? decodeURIComponent(m[1]) : undefined;
}

/** Connect to the web host at `url` (the page origin) with the launch `token`. */
export function createWebHost(url: string, token: string, opts: WebHostOptions = {}): HostServices & { close(): void } {
  const WS = opts.WebSocketImpl ?? WebSocket;
  const target = wsUrl(url, token);
  const hub = new PushHub<HostPush>();
  const pending = new Map<number, Pending>();
  const waiting: string[] = [];
  let nextId = 1;
  let socket: WebSocket | null = null;
  let state: 'open' | 'connecting' | 'closed' = 'connecting';
  let backoff = opts.backoffMs ?? 250;
  let closedByUser = false;
  let lastSubscribe: HostParams<'stream.subscribe'> | null = null;
  const ack = new AckBatcher((count) => {
    if (state === 'open') send({ id: nextId++, method: 'stream.ack', params: { count } }, true);
  }, opts.schedule ?? nextFrame);

  function send(frame: object, dropIfClosed = false): void {
    const text = JSON.stringify(frame);
    if (socket && state === 'open') socket.send(text);
    else if (!dropIfClosed) waiting.push(text);
  }

  let everOpened = false;
  function connect(): void {
    state = 'connecting';
    const reconnecting = everOpened;
    const ws = new WS(target);
    socket = ws;
    ws.onopen = () => {
      state = 'open';
      everOpened = true;
      backoff = opts.backoffMs ?? 250;
      // After a reconnect the host has forgotten this client: subscribe again (rule 5 resync).
      if (reconnecting && lastSubscribe) send({ id: nextId++, method: 'stream.subscribe', params: lastSubscribe }, true);
      for (const t of waiting.splice(0)) ws.send(t);
    };
    ws.onmessage = (ev: MessageEvent) => {
      let frame: { push?: HostPush } & Partial<HostResponse>;
      try {
        frame = JSON.parse(String(ev.data));
      } catch {
        console.error('web host: a frame is not JSON', String(ev.data).slice(0, 200));
        return;
      }
      if (frame.push) {
        hub.emit(frame.push);
        ack.processed();
        return;
      }
      if (typeof frame.id !== 'number') return;
      const p = pending.get(frame.id);
      if (!p) return;
      pending.delete(frame.id);
      if (frame.error) p.reject(new HostError(frame.error.message, frame.error.code, p.method));
      else p.resolve(frame.result);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      state = 'closed';
      ack.reset();
      waiting.length = 0; // their calls are rejected below; never send them late
      everOpened = everOpened || lastSubscribe !== null;
      for (const [id, p] of pending) {
        pending.delete(id);
        p.reject(new HostError(`Lost the connection to the host during ${p.method}; it reconnects by itself — try again.`, 'disconnected', p.method));
      }
      if (closedByUser) return;
      const delay = backoff;
      backoff = Math.min(backoff * 2, opts.maxBackoffMs ?? 5000);
      setTimeout(() => {
        if (!closedByUser) connect();
      }, delay);
    };
    ws.onerror = () => {
      /* onclose follows and reconnects */
    };
  }
  connect();

  return {
    presentational: false,
    connection: () => state,
    call<M extends HostMethod>(method: M, params: HostParams<M>): Promise<HostResult<M>> {
      if (method === 'stream.subscribe') lastSubscribe = params as HostParams<'stream.subscribe'>;
      const id = nextId++;
      return new Promise<HostResult<M>>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject, method });
        send({ id, method, params });
      });
    },
    pushes: (signal) => pushIterable(hub.subscribe, signal),
    close() {
      closedByUser = true;
      socket?.close();
    },
  };
}
