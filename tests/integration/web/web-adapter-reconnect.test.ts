/**
 * The web adapter's side of a lost connection (renderer/src/host/web.ts, reconnect.ts): which
 * calls wait and which are refused, what the connection state says, the session check that
 * ends a page whose host was restarted, and the one origin the page is shown.
 */
import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import { WebSocketServer, WebSocket as NodeWebSocket } from 'ws';
import { createWebHost } from '../../../renderer/src/host/web';
import { OriginAliases, SESSION_ENDED_MESSAGE, probeSession, type SessionProbe } from '../../../renderer/src/host/reconnect';
import type { ConnectionState } from '../../../renderer/src/host/types';

type Frame = { id: number; method: string; params: any };

/**
 * A contract-valid answer (the adapter checks answers against the contract) that says which
 * connection carried it: a thread edit's version, a run's `startedAt`, an entry's title.
 */
function answer(method: string, connection: number): unknown {
  if (method === 'thread.edit') return { version: connection };
  if (method === 'run.list') return [{ id: `run-on-${connection}`, startedAt: connection, status: 'completed', mode: 'step' }];
  if (method === 'workspace.list') return [{ path: 'a.json', kind: 'thread', title: `on ${connection}` }];
  return { ok: true };
}
const closers: (() => void)[] = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

/** A stub web host on a fixed port that can go away and come back; `silent` methods get no answer. */
async function stub(port = 0) {
  const server = http.createServer();
  const wss = new WebSocketServer({ server });
  const frames: Frame[] = [];
  const sockets: NodeWebSocket[] = [];
  const silent = new Set<string>();
  wss.on('connection', (ws) => {
    sockets.push(ws);
    ws.on('message', (data) => {
      const f = JSON.parse(String(data)) as Frame;
      frames.push(f);
      if (silent.has(f.method)) return;
      ws.send(JSON.stringify({ id: f.id, result: answer(f.method, sockets.length) }));
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  const stop = () => {
    for (const s of sockets) s.terminate();
    wss.close();
    server.close();
  };
  closers.push(stop);
  return { port: (server.address() as { port: number }).port, frames, sockets, silent, stop };
}

const until = async (cond: () => boolean, what: string) => {
  for (let i = 0; i < 300 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!cond()) throw new Error(`timed out waiting for ${what}`);
};

function adapter(port: number, probe: () => Promise<SessionProbe>) {
  const host = createWebHost(`http://127.0.0.1:${port}`, 'tok', { WebSocketImpl: NodeWebSocket as unknown as typeof WebSocket, backoffMs: 20, maxBackoffMs: 40, probe, schedule: (cb) => setTimeout(cb, 5) });
  closers.push(() => host.close());
  const states: ConnectionState[] = [];
  host.onConnectionChange!(() => states.push(host.connection!().state));
  return { host, states, state: () => host.connection!().state };
}

describe('web adapter across a lost connection', () => {
  it('while reconnecting, calls that must not happen late are refused; reads and edits wait and go out once', async () => {
    const s = await stub();
    let probes = 0;
    const a = adapter(s.port, async () => (probes++, 'unreachable'));
    expect(a.state()).toBe('connecting');
    await a.host.call('workspace.list', {});
    expect(a.state()).toBe('open');
    s.silent.add('run.list').add('run.start');
    const inFlight = a.host.call('run.list', { threadId: 't' }); // sent, unanswered when the host goes
    const doomed = a.host.call('run.start', { threadId: 't', mode: 'step' });
    await until(() => s.frames.some((f) => f.method === 'run.start'), 'run.start sent');
    s.stop();
    await expect(doomed).rejects.toMatchObject({ code: 'disconnected', message: expect.stringContaining('may or may not have happened') });
    await until(() => a.state() === 'reconnecting' && a.host.connection!().unreachableSince !== undefined, 'reconnecting, nothing answers');
    expect(probes).toBeGreaterThan(0);
    await expect(a.host.call('workspace.delete', { path: 'x.json' })).rejects.toMatchObject({ code: 'disconnected', message: expect.stringContaining('was not sent') });
    const edit = a.host.call('thread.edit', { threadId: 't', baseVersion: 3, patches: [] });

    const back = await stub(s.port);
    expect(await edit).toEqual({ version: 1 });
    expect(await inFlight).toEqual([expect.objectContaining({ id: 'run-on-1' })]);
    expect(a.state()).toBe('open');
    expect(a.states.filter((st, i) => st !== a.states[i - 1])).toEqual(['open', 'reconnecting', 'open']);
    // Each waiting call was sent exactly once on the new connection; the refused ones never.
    expect(back.frames.map((f) => f.method).filter((m) => m !== 'stream.ack').sort()).toEqual(['run.list', 'thread.edit']);
  });

  it('a refused session check ends the page: every call fails with the plain reason, no more attempts', async () => {
    const s = await stub();
    let refuse = false;
    let probes = 0;
    const a = adapter(s.port, async () => (probes++, refuse ? 'refused' : 'unreachable'));
    await a.host.call('workspace.list', {});
    s.stop();
    await until(() => a.state() === 'reconnecting', 'reconnecting');
    const waiting = a.host.call('thread.edit', { threadId: 't', baseVersion: 1, patches: [] });
    refuse = true; // the host was restarted: its new token is not ours
    await expect(waiting).rejects.toMatchObject({ code: 'session_ended', message: SESSION_ENDED_MESSAGE });
    expect(a.state()).toBe('ended');
    expect(a.states.at(-1)).toBe('ended');
    await expect(a.host.call('workspace.list', {})).rejects.toMatchObject({ code: 'session_ended' });
    const seen = probes;
    const back = await stub(s.port);
    await new Promise((r) => setTimeout(r, 200));
    expect(probes).toBe(seen);
    expect(back.sockets).toHaveLength(0);
  });

  it('the session check: bearer token to /api/session; 401/403 refused, 2xx ok, anything else unreachable', async () => {
    const seen: { url: string; auth: string | null; credentials?: string }[] = [];
    const fake = (status: number | Error) =>
      (async (url: string, init: RequestInit) => {
        seen.push({ url, auth: new Headers(init.headers).get('authorization'), credentials: init.credentials });
        if (status instanceof Error) throw status;
        return new Response(null, { status });
      }) as unknown as typeof fetch;
    expect(await probeSession('http://127.0.0.1:5179/app', 't k', fake(204))).toBe('ok');
    expect(seen[0]).toMatchObject({ auth: 'Bearer t k', credentials: 'omit' });
    expect(new URL(seen[0].url).pathname).toBe('/api/session');
    expect(await probeSession('http://127.0.0.1:5179', 't', fake(401))).toBe('refused');
    expect(await probeSession('http://127.0.0.1:5179', 't', fake(403))).toBe('refused');
    expect(await probeSession('http://127.0.0.1:5179', 't', fake(404))).toBe('unreachable');
    expect(await probeSession('http://127.0.0.1:5179', 't', fake(new TypeError('fetch failed')))).toBe('unreachable');
  });

  it('the page sees one origin for its own edits across connections, and a stranger carrying it is renamed', () => {
    const o = new OriginAliases();
    expect(o.learn('client:3')).toBe('client:3');
    expect(o.map('client:3')).toBe('client:3');
    expect(o.map('client:4')).toBe('client:4');
    o.reset(); // reconnected: a new client
    expect(o.map('client:3')).toBe('client:3@elsewhere'); // not ours: we have sent nothing yet
    expect(o.learn('client:9')).toBe('client:3');
    expect(o.map('client:9')).toBe('client:3');
    expect(o.map('client:3')).toBe('client:3@elsewhere');
    expect(o.map('run:r1')).toBe('run:r1');
  });
});
