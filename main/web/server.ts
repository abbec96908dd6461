/**
 * The web host (docs/architecture.md#host-api): the host core behind HTTP (the built renderer) and one WebSocket
 * per client, bound to 127.0.0.1 by default. Wire protocol on the socket (JSON text frames):
 * client → host `{ id, method, params }` (HostMethods); host → client `{ id, result }` or
 * `{ id, error: { message, code } }`, and pushes `{ push: Envelope | HostEvent }`. Clients
 * acknowledge pushes with `stream.ack`, which drives the bridge's backpressure.
 * `GET /api/session` answers 204 to a valid token (see {@link SESSION_PATH}).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { toWireError } from '../../shared/protocol/contract/errors';
import type { HostPush } from '../../shared/protocol/host-api';
import type { HostConnection } from '../core/host-core';
import { TOKEN_COOKIE, allowedHosts, checkRequest, isLoopback, newToken } from './security';
import { serveStatic } from './static-files';
import { SESSION_PATH } from '../../shared/protocol/web-session';

export interface WebHostOptions {
  /** The host core (HostCore satisfies it): one HostConnection per WebSocket, `send` receiving its pushes. */
  core: { connect(send: (push: HostPush) => void): Pick<HostConnection, 'request' | 'close'> };
  /** Folder of the built renderer (out/renderer). */
  staticDir: string;
  /** Address to bind. Default 127.0.0.1. */
  host?: string;
  /** Port; 0 picks a free one. Default 0. */
  port?: number;
  /** Fixed token (tests); a random one per launch otherwise. */
  token?: string;
  log?: (line: string) => void;
}

export interface WebHost {
  /** The URL to open, with the token. */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/** Largest WebSocket message a client may send (a thread edit with images), bytes. */
const MAX_CLIENT_MESSAGE = 64 * 1024 * 1024;

/** Start the web host: HTTP (the renderer, {@link SESSION_PATH}) and the `/ws` socket, token-checked. */
export async function startWebHost(o: WebHostOptions): Promise<WebHost> {
  const bindHost = o.host ?? '127.0.0.1';
  const token = o.token ?? newToken();
  const log = o.log ?? (() => {});
  let hosts = new Set<string>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE, perMessageDeflate: false });
  const sockets = new Set<WebSocket>();

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://placeholder');
    const verdict = checkRequest({ token, hosts, url, headers: req.headers });
    if (!verdict.ok) {
      log(`refused ${req.method} ${url.pathname}: ${verdict.reason}`);
      res.writeHead(verdict.status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${verdict.reason}\n`);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    if (url.pathname === SESSION_PATH) {
      // The token was accepted above. A page whose WebSocket cannot connect asks here whether
      // its token is still valid: 401 (from the check above) means the host was restarted.
      res.writeHead(204, { 'cache-control': 'no-store' }).end();
      return;
    }
    if (url.searchParams.has('token')) {
      // Trade the query token for a same-site, HTTP-only cookie and keep it out of the address bar.
      res.writeHead(302, {
        'set-cookie': `${TOKEN_COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`,
        location: `${url.pathname}#token=${token}`,
      });
      res.end();
      return;
    }
    void serveStatic(o.staticDir, url.pathname, res);
  });

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://placeholder');
    const verdict = url.pathname === '/ws' ? checkRequest({ token, hosts, url, headers: req.headers, websocket: true }) : ({ ok: false, status: 404, reason: 'Not found' } as const);
    if (!verdict.ok) {
      log(`refused WebSocket: ${verdict.reason}`);
      socket.end(`HTTP/1.1 ${verdict.status} Refused\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${verdict.reason}\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => attach(ws));
  });

  function attach(ws: WebSocket): void {
    sockets.add(ws);
    const client = o.core.connect((push) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ push }));
    });
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      let msg: { id?: unknown; method?: unknown; params?: unknown };
      try {
        msg = JSON.parse(data.toString());
      } catch {
        ws.send(JSON.stringify({ id: null, error: { message: 'Malformed request: not JSON', code: 'bad_request' } }));
        return;
      }
      const id = msg.id;
      if (typeof id !== 'number' || typeof msg.method !== 'string') {
        ws.send(JSON.stringify({ id: typeof id === 'number' ? id : null, error: { message: 'A request needs a numeric id and a method', code: 'bad_request' } }));
        return;
      }
      client.request(msg.method, msg.params ?? {}).then(
        (result) => ws.readyState === ws.OPEN && ws.send(JSON.stringify({ id, result: result ?? null })),
        (err: unknown) => ws.readyState === ws.OPEN && ws.send(JSON.stringify({ id, error: toWireError(err) })),
      );
    });
    ws.on('close', () => {
      sockets.delete(ws);
      client.close();
    });
    ws.on('error', () => ws.terminate());
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, bindHost, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(bindHost, port);
  if (!isLoopback(bindHost)) {
    log(`WARNING: bound to ${bindHost}, reachable from other machines; every request still needs the token.`);
  }
  const shownHost = isLoopback(bindHost) ? '127.0.0.1' : bindHost.includes(':') ? `[${bindHost}]` : bindHost;
  return {
    url: `http://${shownHost}:${port}/?token=${token}`,
    port,
    token,
    close: async () => {
      for (const ws of sockets) ws.terminate();
      wss.close();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
