import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, WebSocket as NodeWebSocket } from 'ws';
import { createWebHost, wsUrl } from '../../../renderer/src/host/web';
import type { HostPush } from '../../../shared/protocol/host-api';

// A real WebSocket server (the `ws` package) plays the web host's side of the protocol
// documented at the top of renderer/src/host/web.ts; the real server is another part's work.

type Frame = { id: number; method: string; params: any };
const servers: WebSocketServer[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function server() {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  servers.push(wss);
  await new Promise<void>((r) => wss.once('listening', () => r()));
  const port = (wss.address() as { port: number }).port;
  const frames: Frame[] = [];
  const urls: string[] = [];
  /** The Sec-WebSocket-Protocol header of each handshake. */
  const protocols: string[] = [];
  const sockets: NodeWebSocket[] = [];
  wss.on('connection', (ws, req) => {
    urls.push(req.url ?? '');
    protocols.push(String(req.headers['sec-websocket-protocol']));
    sockets.push(ws);
    ws.on('message', (data) => {
      const f = JSON.parse(String(data)) as Frame;
      frames.push(f);
      if (f.method === 'workspace.list') ws.send(JSON.stringify({ id: f.id, result: [{ path: 'a.json', kind: 'thread', title: 'a' }] }));
      else if (f.method === 'thread.edit') ws.send(JSON.stringify({ id: f.id, error: { message: 'stale', code: 'version_mismatch' } }));
      else if (f.method !== 'run.start') ws.send(JSON.stringify({ id: f.id, result: { ok: true } }));
    });
  });
  return { port, frames, urls, protocols, sockets, origin: `http://127.0.0.1:${port}` };
}

const until = async (cond: () => boolean, what: string) => {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!cond()) throw new Error(`timed out waiting for ${what}`);
};

describe('web host adapter', () => {
  it('builds the /ws URL on the page origin, with no token in it', () => {
    expect(wsUrl('https://h:9/app?q=1#token=z')).toBe('wss://h:9/ws');
  });

  it('answers requests, maps errors with their code, and acknowledges processed pushes in batches', async () => {
    const s = await server();
    const host = createWebHost(s.origin, 'secret', { WebSocketImpl: NodeWebSocket as unknown as typeof WebSocket, schedule: (cb) => setTimeout(cb, 5) });
    try {
      expect(await host.call('workspace.list', {})).toEqual([{ path: 'a.json', kind: 'thread', title: 'a' }]);
      expect(s.urls).toEqual(['/ws']);
      expect(s.protocols).toEqual(['stepwise.v1,stepwise.token.secret']);
      await expect(host.call('thread.edit', { threadId: 't', baseVersion: 1, patches: [] })).rejects.toMatchObject({ code: 'version_mismatch', method: 'thread.edit' });
      const got: HostPush[] = [];
      const reading = (async () => {
        for await (const p of host.pushes()) {
          got.push(p);
          if (got.length === 50) break;
        }
      })();
      await new Promise((r) => setTimeout(r, 10));
      for (let i = 0; i < 50; i++) s.sockets[0].send(JSON.stringify({ push: { type: 'notice', level: 'info', message: `m${i}` } }));
      await reading;
      expect(got.map((p) => (p as { message: string }).message)).toEqual(Array.from({ length: 50 }, (_, i) => `m${i}`));
      await until(() => s.frames.filter((f) => f.method === 'stream.ack').reduce((n, f) => n + f.params.count, 0) === 50, 'acks');
      const acks = s.frames.filter((f) => f.method === 'stream.ack');
      expect(acks.length).toBeLessThan(50); // batched, not one per push
    } finally {
      host.close();
    }
  });

  it('rejects calls in flight on disconnect, reconnects and repeats stream.subscribe', async () => {
    const s = await server();
    const host = createWebHost(s.origin, 'tok', { WebSocketImpl: NodeWebSocket as unknown as typeof WebSocket, backoffMs: 20 });
    try {
      await host.call('stream.subscribe', { threadId: 't1' });
      const hanging = host.call('run.start', { threadId: 't1', mode: 'step' });
      await until(() => s.frames.some((f) => f.method === 'run.start'), 'run.start sent');
      s.sockets[0].terminate();
      await expect(hanging).rejects.toMatchObject({ code: 'disconnected' });
      await until(() => s.urls.length === 2 && s.frames.filter((f) => f.method === 'stream.subscribe').length === 2, 'reconnect');
      expect(s.frames.filter((f) => f.method === 'stream.subscribe').map((f) => f.params)).toEqual([{ threadId: 't1' }, { threadId: 't1' }]);
      expect(await host.call('workspace.list', {})).toHaveLength(1);
    } finally {
      host.close();
    }
  });
});
