/** A small WebSocket client of the web host's protocol, for tests (the real `ws` client). */
import WebSocket from 'ws';
import type { HostPush } from '../../shared/protocol/host-api';
import { WS_PROTOCOL, tokenProtocol } from '../../shared/protocol/web-session';

export interface WsClient {
  call<T = any>(method: string, params?: unknown): Promise<T>;
  pushes: HostPush[];
  /** Resolves when a push matching `pred` has arrived (or already had). */
  waitFor(pred: (p: HostPush) => boolean, timeoutMs?: number): Promise<HostPush>;
  close(): void;
  ws: WebSocket;
}

/**
 * Connects to the web host at `origin` as a page does (the token as a subprotocol);
 * `opts.originHeader` sends another Origin (refusal tests).
 */
export async function connectWs(origin: string, token: string, opts: { autoAck?: boolean; originHeader?: string } = {}): Promise<WsClient> {
  const ws = new WebSocket(`${origin.replace('http', 'ws')}/ws`, [WS_PROTOCOL, tokenProtocol(token)], { headers: { origin: opts.originHeader ?? origin } });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  const pushes: HostPush[] = [];
  const waiters: { pred: (p: HostPush) => boolean; resolve: (p: HostPush) => void }[] = [];
  ws.on('message', (data) => {
    const msg = JSON.parse(data.toString());
    if (msg.push) {
      pushes.push(msg.push);
      for (const w of [...waiters]) if (w.pred(msg.push)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(msg.push); }
      if (opts.autoAck !== false) ws.send(JSON.stringify({ id: 0x7fffffff, method: 'stream.ack', params: { count: 1 } }));
      return;
    }
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (msg.error) p.reject(Object.assign(new Error(msg.error.message), { code: msg.error.code }));
    else p.resolve(msg.result);
  });
  return {
    ws,
    pushes,
    call: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        ws.send(JSON.stringify({ id, method, params }));
      }),
    waitFor: (pred, timeoutMs = 20_000) => {
      const hit = pushes.find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const w = { pred, resolve: (p: HostPush) => { clearTimeout(t); resolve(p); } };
        const t = setTimeout(() => { waiters.splice(waiters.indexOf(w), 1); reject(new Error('timed out waiting for a push')); }, timeoutMs);
        waiters.push(w);
      });
    },
    close: () => ws.close(),
  };
}
