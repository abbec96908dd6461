/**
 * Web host adapter: the renderer served by the Node web host, talking over one WebSocket.
 *
 * Protocol (the web host implements the other end):
 * - Connect to `ws(s)://<page origin>/ws`, offering the subprotocols `stepwise.v1` and
 *   `stepwise.token.<token>` (shared/protocol/web-session.ts; the token is the page's, see
 *   web-token.ts, never in a URL). Every frame is one JSON text message.
 * - Client → host: `{ id: number, method: HostMethod, params }` (see shared/protocol/host-api.ts).
 * - Host → client: `{ id, result }` or `{ id, error: { message, code? } }` answering a request,
 *   and `{ push: HostPush }` for envelopes (tree_update, node_update, llm_delta, node_snapshot,
 *   thread_patch; a run's messages arrive in its thread_patch, not as its run_result) and events (workspace_changed, run_started, run_ended, notice).
 * - Backpressure: the client sends `stream.ack { count }` with the number of pushes it has
 *   processed since its last ack, at most once per animation frame. The host bounds each
 *   client's unacknowledged queue (docs/architecture.md#backpressure).
 *
 * A lost connection (see reconnect.ts): the adapter reconnects with exponential backoff
 * (0.25 s doubling to 5 s). Calls that may wait ({@link resendable}: reads and `thread.edit`)
 * wait, and those in flight are sent again; others are refused at once (code `disconnected`).
 * On reconnecting it repeats its last `stream.subscribe` (the host then sends current trees and
 * snapshots before live deltas, docs/architecture.md#sequence-and-snapshots) and opens its open threads again before sending
 * anything else, and keeps showing the page one origin for its own edits. When a connection
 * attempt fails it asks `GET /api/session` whether its token is still good: refused means the
 * host was restarted, and the adapter stops (`ended`): every call fails with code
 * `session_ended`.
 */
import type { HostMethod, HostParams, HostResult, HostPush, HostResponse } from '../../../shared/protocol/host-api';
import { fromWire } from '../../../shared/protocol/contract/errors';
import { HostCallError, type ConnectionStatus, type HostServices } from './types';
import { PushHub, pushIterable } from './push-queue';
import { AckBatcher, nextFrame, type FrameScheduler } from './frame';
import { withChecks } from './checked';
import { OriginAliases, lostDuring, notConnected, probeSession, resendable, sessionEnded, type SessionProbe } from './reconnect';
import { WS_PROTOCOL, tokenProtocol } from '../../../shared/protocol/web-session';

export interface WebHostOptions {
  /** WebSocket constructor (tests pass the `ws` package's). */
  WebSocketImpl?: typeof WebSocket;
  schedule?: FrameScheduler;
  /** First reconnect delay in ms (doubles up to `maxBackoffMs`). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** The session check after a failed attempt (default: {@link probeSession} with `fetch`). */
  probe?: () => Promise<SessionProbe>;
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: unknown): void;
  method: string;
  /** The request as sent (sent again after a reconnect when resendable). */
  frame: string;
  /** Adapter's own request (re-opening threads): never sent again, never waits. */
  internal?: boolean;
}

/** The WebSocket URL for a page origin (`http://127.0.0.1:5179/x?y#z` → `ws://127.0.0.1:5179/ws`). */
export function wsUrl(origin: string): string {
  const u = new URL(origin);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.pathname = '/ws';
  u.search = '';
  u.hash = '';
  return u.toString();
}

type ThreadOpened = HostResult<'thread.open'>;

/** Connect to the web host at `url` (the page origin) with the launch `token`. */
export function createWebHost(url: string, token: string, opts: WebHostOptions = {}): HostServices & { close(): void } {
  const WS = opts.WebSocketImpl ?? WebSocket;
  const target = wsUrl(url);
  const protocols = [WS_PROTOCOL, tokenProtocol(token)];
  const probe = opts.probe ?? (() => probeSession(url, token));
  const hub = new PushHub<HostPush>();
  const pending = new Map<number, Pending>();
  /** Ids of pending calls not sent on the current connection, sent in order once it is ready. */
  let unsent: number[] = [];
  /** Threads this page holds open on the host (id → path), opened again after a reconnect. */
  const openThreads = new Map<string, string>();
  const origins = new OriginAliases();
  const listeners = new Set<() => void>();
  let status: ConnectionStatus = { state: 'connecting' };
  let nextId = 1;
  let socket: WebSocket | null = null;
  /** The socket is open and, after a reconnect, the threads are open again: calls go out. */
  let ready = false;
  let everOpened = false;
  let backoff = opts.backoffMs ?? 250;
  let closedByUser = false;
  let lastSubscribe: HostParams<'stream.subscribe'> | null = null;
  const ack = new AckBatcher((count) => {
    if (socket && socket.readyState === 1) socket.send(JSON.stringify({ id: nextId++, method: 'stream.ack', params: { count } }));
  }, opts.schedule ?? nextFrame);

  function setStatus(next: ConnectionStatus): void {
    status = next;
    for (const l of [...listeners]) l();
  }

  /** Send a pending call on the current socket (or keep it for the next one). */
  function dispatch(id: number, p: Pending, force = false): void {
    if (socket && (ready || force)) socket.send(p.frame);
    else unsent.push(id);
  }

  function request(method: string, params: unknown, internal = false): Promise<unknown> {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const p: Pending = { resolve, reject, method, frame: JSON.stringify({ id, method, params }), internal };
      pending.set(id, p);
      dispatch(id, p, internal);
    });
  }

  /** A `thread.open` answer: remember the thread, show the page its one origin. */
  function opened(r: ThreadOpened): ThreadOpened {
    openThreads.set(r.thread.id, r.path);
    const origin = origins.learn(r.origin);
    return origin === undefined ? r : { ...r, origin };
  }

  /** The token was refused: stop, and fail every call with the plain reason. */
  function end(): void {
    if (status.state === 'ended') return;
    for (const [id, p] of pending) {
      pending.delete(id);
      p.reject(sessionEnded(p.method));
    }
    unsent = [];
    setStatus({ state: 'ended' });
  }

  function retryLater(): void {
    const delay = backoff;
    backoff = Math.min(backoff * 2, opts.maxBackoffMs ?? 5000);
    setTimeout(() => {
      if (!closedByUser && status.state !== 'ended') connect();
    }, delay);
  }

  /** After a reconnect: subscribe again and open the page's threads again, then send the rest. */
  async function restore(ws: WebSocket): Promise<void> {
    if (lastSubscribe) void request('stream.subscribe', lastSubscribe, true).catch(() => {});
    await Promise.all(
      [...openThreads.values()].map((path) =>
        request('thread.open', { path }, true).then(
          (r) => opened(r as ThreadOpened),
          () => {}, // moved or deleted meanwhile: the session's next call says so
        ),
      ),
    );
    if (socket !== ws) return;
    ready = true;
    const ids = unsent.sort((a, b) => a - b);
    unsent = [];
    for (const id of ids) {
      const p = pending.get(id);
      if (p) ws.send(p.frame);
    }
    setStatus({ state: 'open' });
  }

  function connect(): void {
    const ws = new WS(target, protocols);
    let wasOpen = false;
    socket = ws;
    origins.reset();
    ws.onopen = () => {
      wasOpen = true;
      backoff = opts.backoffMs ?? 250;
      const reconnect = everOpened;
      everOpened = true;
      if (reconnect) {
        void restore(ws);
        return;
      }
      ready = true;
      for (const id of unsent.splice(0).sort((a, b) => a - b)) {
        const p = pending.get(id);
        if (p) ws.send(p.frame);
      }
      setStatus({ state: 'open' });
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
        const push = frame.push;
        hub.emit(push.type === 'thread_patch' ? { ...push, origin: origins.map(push.origin) } : push);
        ack.processed();
        return;
      }
      if (typeof frame.id !== 'number') return;
      const p = pending.get(frame.id);
      if (!p) return;
      pending.delete(frame.id);
      if (frame.error !== undefined) {
        const e = fromWire(frame.error);
        p.reject(new HostCallError(e.message, e.code, p.method));
      }
      else p.resolve(p.method === 'thread.open' && !p.internal ? opened(frame.result as ThreadOpened) : frame.result);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      ready = false;
      ack.reset();
      if (status.state === 'ended') return;
      // Calls this connection carried: sent again on the next one when that is safe.
      const waiting = new Set(unsent);
      for (const [id, p] of pending) {
        if (waiting.has(id)) continue;
        if (!p.internal && resendable(p.method)) {
          unsent.push(id);
          continue;
        }
        pending.delete(id);
        p.reject(p.internal ? new HostCallError('connection lost', 'disconnected', p.method) : lostDuring(p.method));
      }
      if (closedByUser) return;
      if (everOpened && status.state !== 'reconnecting') setStatus({ state: 'reconnecting' });
      if (wasOpen) {
        retryLater();
        return;
      }
      // The attempt failed: a restarted host refuses the token (the browser hides the 401).
      void probe().then((found) => {
        if (closedByUser) return;
        if (found === 'refused') return end();
        if (everOpened) {
          const unreachableSince = found === 'unreachable' ? (status.unreachableSince ?? Date.now()) : undefined;
          if (unreachableSince !== status.unreachableSince) setStatus({ state: 'reconnecting', unreachableSince });
        }
        retryLater();
      });
    };
    ws.onerror = () => {
      /* onclose follows and reconnects */
    };
  }
  connect();

  return withChecks({
    presentational: false,
    connection: () => status,
    onConnectionChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    call<M extends HostMethod>(method: M, params: HostParams<M>): Promise<HostResult<M>> {
      if (status.state === 'ended') return Promise.reject(sessionEnded(method));
      if (status.state === 'reconnecting' && !resendable(method)) return Promise.reject(notConnected(method));
      if (method === 'stream.subscribe') lastSubscribe = params as HostParams<'stream.subscribe'>;
      if (method === 'thread.close') openThreads.delete((params as HostParams<'thread.close'>).threadId);
      return request(method, params) as Promise<HostResult<M>>;
    },
    pushes: (signal) => pushIterable(hub.subscribe, signal),
    close() {
      closedByUser = true;
      socket?.close();
    },
  });
}
