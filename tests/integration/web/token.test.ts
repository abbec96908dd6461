/**
 * The token stays with its own origin. It starts any command (a stdio MCP server), so:
 * - no response sets a cookie, and a cookie is no way in (a cookie for 127.0.0.1 goes to every
 *   port on it, so any local server would receive it);
 * - a token in a URL opens neither the API nor the WebSocket (the page's URL is the one place
 *   it arrives, and the page takes it out at once);
 * - the WebSocket takes it as a subprotocol and answers with `stepwise.v1`, never echoing it;
 * - the page and its assets are served without a token (a reload of a page whose URL no longer
 *   has it), but a page URL offering a wrong token is refused;
 * - no log line carries it.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebHost, type WebHost } from '../../../main/web/server';
import { newToken } from '../../../main/web/security';
import { WS_PROTOCOL, tokenProtocol } from '../../../shared/protocol/web-session';

const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-static-'));
fs.mkdirSync(path.join(staticDir, 'assets'));
fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><script type="module" src="/assets/app.js"></script>');
fs.writeFileSync(path.join(staticDir, 'assets', 'app.js'), 'console.log(1)');

let web: WebHost;
const logs: string[] = [];
let origin: string;
beforeAll(async () => {
  web = await startWebHost({
    core: { connect: () => ({ request: async (method) => ({ method }), close: () => {} }) },
    staticDir,
    token: newToken(),
    log: (l) => logs.push(l),
  });
  origin = `http://127.0.0.1:${web.port}`;
});
afterAll(async () => {
  await web?.close();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

function get(p: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: web.port, path: p, headers }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
      })
      .on('error', reject);
  });
}

/** A WebSocket handshake: the status, and the subprotocol the host chose. */
function handshake(url: string, protocols: string[], headers: Record<string, string> = {}): Promise<{ status: number; protocol?: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, protocols, { headers: { origin, ...headers } });
    ws.once('open', () => {
      resolve({ status: 101, protocol: ws.protocol });
      ws.close();
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode! });
      res.resume();
    });
    ws.once('error', () => {});
  });
}

describe('the token stays with its own origin', () => {
  it('the page with the right token, the page and assets without one: served, and no cookie is ever set', async () => {
    const printed = new URL(web.url);
    for (const p of [printed.pathname + printed.search, '/', '/some/route', '/assets/app.js']) {
      const r = await get(p);
      expect(r.status, p).toBe(200);
      expect(r.headers['set-cookie'], p).toBeUndefined();
    }
    expect((await get(printed.pathname + printed.search)).headers['referrer-policy']).toBe('no-referrer');
    expect((await get(`/?token=${web.token}x`)).status).toBe(401);
    expect((await get('/?token=')).status).toBe(401);
  });

  it('a cookie carrying the token opens neither the API nor the WebSocket', async () => {
    const cookie = `stepwise_token=${web.token}`;
    expect((await get('/api/session', { cookie })).status).toBe(401);
    expect((await handshake(`ws://127.0.0.1:${web.port}/ws`, [], { cookie })).status).toBe(401);
  });

  it('a token in a URL opens neither the API nor the WebSocket', async () => {
    expect((await get(`/api/session?token=${web.token}`)).status).toBe(401);
    expect((await handshake(`ws://127.0.0.1:${web.port}/ws?token=${web.token}`, [])).status).toBe(401);
  });

  it('the API takes a bearer header; the WebSocket a subprotocol, answered without the token', async () => {
    expect((await get('/api/session', { authorization: `Bearer ${web.token}` })).status).toBe(204);
    expect((await get('/api/session', { authorization: 'Bearer wrong' })).status).toBe(401);
    expect(await handshake(`ws://127.0.0.1:${web.port}/ws`, [WS_PROTOCOL, tokenProtocol(web.token)])).toEqual({ status: 101, protocol: WS_PROTOCOL });
    expect((await handshake(`ws://127.0.0.1:${web.port}/ws`, [WS_PROTOCOL, tokenProtocol('wrong')])).status).toBe(401);
  });

  it('no log line carries the token', () => {
    expect(logs.filter((l) => l.startsWith('refused')).length).toBeGreaterThanOrEqual(6);
    for (const l of logs) expect(l).not.toContain(web.token);
  });
});
