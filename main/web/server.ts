/**
 * The web host (docs/architecture.md#host-api): the host core behind HTTP (the built renderer, the session check) and one
 * WebSocket per client, bound to 127.0.0.1 by default. Wire protocol on the socket (JSON text
 * frames): client → host `{ id, method, params }` (HostMethods); host → client `{ id, result }`
 * or `{ id, error: { message, code } }`, and pushes `{ push: Envelope | HostEvent }`. Clients
 * acknowledge pushes with `stream.ack`, which drives the bridge's backpressure.
 *
 * Who may do what (every request: a path target, else 400; a `Host` of this server, else 421;
 * an `Origin`, when sent, of this server, else 403):
 * - the built renderer (index.html, JS, CSS) holds no secret and is served without the token,
 *   but a page URL that offers a token (`/?token=`) must offer the right one (else 401);
 * - `/api/…` needs `Authorization: Bearer <token>`; `GET /api/session` answers 204;
 * - the `/ws` handshake needs an Origin and the token as a subprotocol (web-session.ts);
 * - `GET /oauth/callback` is where an MCP server's authorization server sends the browser back
 *   (oauth-callback.ts): no token (a redirect cannot carry one); its one-time `state`, which
 *   only the mcp-host's flow in progress knows, is what it must match.
 * Refusals are logged, rate-limited (refusal-log.ts). No request, however malformed, stops it.
 */
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { HostPush } from '../../shared/protocol/host-api';
import type { HostConnection } from '../core/host-core';
import { SESSION_PATH, WS_PROTOCOL } from '../../shared/protocol/web-session';
import { bearerToken, checkOrigin, checkToken, newToken, parseTarget, protocolToken, quote, validToken, type HostNames, type Verdict } from './security';
import { allowedHosts, isLoopback, isWildcard } from './host-names';
import { createRefusalLog, type RefusalLogOptions } from './refusal-log';
import { serveStatic } from './static-files';
import { serveRequests } from './ws-requests';
import { answerOAuthCallback, OAUTH_CALLBACK_PATH, type OAuthCallback } from './oauth-callback';


export interface WebHostOptions {
  /** The host core (HostCore satisfies it): one HostConnection per WebSocket, `send` receiving its pushes. */
  core: { connect(send: (push: HostPush) => void): Pick<HostConnection, 'request' | 'close'> };
  /** Folder of the built renderer (out/renderer). */
  staticDir: string;
  /** Address to bind. Default 127.0.0.1. */
  host?: string;
  /** Port; 0 picks a free one. Default 0. */
  port?: number;
  /** Fixed token (tests; it must match TOKEN_PATTERN); a random one per launch otherwise. */
  token?: string;
  log?: (line: string) => void;
  /** Rate limit of the refused-request lines (default: 20 per 10 s, then one summary). */
  refusalLog?: RefusalLogOptions;
  /** Finishes an MCP server's OAuth sign-in (McpService.authCallback); without it `/oauth/callback` is 404. */
  oauthCallback?: OAuthCallback;
}

export interface WebHost {
  /** The URL to open, with the token (the one place it is shown). */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/** Largest WebSocket message a client may send (a thread edit with images), bytes. */
const MAX_CLIENT_MESSAGE = 64 * 1024 * 1024;

/** Start the web host: HTTP (the renderer, {@link SESSION_PATH}) and the `/ws` socket. */
export async function startWebHost(o: WebHostOptions): Promise<WebHost> {
  const bindHost = o.host ?? '127.0.0.1';
  const token = o.token ?? newToken();
  if (!validToken(token)) throw new Error('The web host token must be 1 to 256 characters from A-Z, a-z, 0-9, "-" and "_".');
  const log = o.log ?? (() => {});
  const refusals = createRefusalLog(log, o.refusalLog);
  let hosts: HostNames = { has: () => false };
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_CLIENT_MESSAGE,
    perMessageDeflate: false,
    // Never the token's subprotocol: the answer names the one the page speaks.
    handleProtocols: (offered) => (offered.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
  });
  const sockets = new Set<WebSocket>();

  const refuse = (res: http.ServerResponse, what: string, v: Verdict & { ok: false }) => {
    refusals.refused(`refused ${what}: ${v.reason}`);
    res.writeHead(v.status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end(`${v.reason}\n`);
  };

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = parseTarget(req.url);
    if (!url) return refuse(res, `${req.method} ${quote(req.url ?? '')}`, { ok: false, status: 400, reason: 'Malformed request target: expected a path such as /index.html' });
    const what = `${req.method} ${quote(url.pathname)}`;
    const where = checkOrigin({ hosts, headers: req.headers });
    if (!where.ok) return refuse(res, what, where);
    const read = req.method === 'GET' || req.method === 'HEAD';
    if (url.pathname.startsWith('/api/')) {
      const auth = checkToken(token, bearerToken(req.headers.authorization));
      if (!auth.ok) return refuse(res, what, auth);
      if (url.pathname !== SESSION_PATH) return void res.writeHead(404).end();
      if (!read) return void res.writeHead(405, { allow: 'GET, HEAD' }).end();
      // A page whose WebSocket cannot connect asks here whether its token is still valid:
      // 401 (above) means the host was restarted.
      return void res.writeHead(204, { 'cache-control': 'no-store' }).end();
    }
    if (url.pathname === OAUTH_CALLBACK_PATH && o.oauthCallback && req.method === 'GET') return void answerOAuthCallback(o.oauthCallback, url, res);
    if (!read) {
      refusals.refused(`refused ${what}: only GET and HEAD are served here`);
      return void res.writeHead(405, { allow: 'GET, HEAD' }).end();
    }
    if (url.searchParams.has('token')) {
      // The page that receives the token: a wrong one (an old launch's URL) is said at once.
      const auth = checkToken(token, url.searchParams.get('token') ?? undefined);
      if (!auth.ok) return refuse(res, what, auth);
    }
    void serveStatic(o.staticDir, url.pathname, res, (reason) => refusals.refused(`refused ${what}: ${reason}`));
  };

  const server = http.createServer((req, res) => {
    try {
      onRequest(req, res);
    } catch {
      if (!res.headersSent) res.writeHead(500).end();
    }
  });

  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const url = parseTarget(req.url);
    let v: Verdict = !url
      ? { ok: false, status: 400, reason: 'Malformed request target' }
      : url.pathname !== '/ws'
        ? { ok: false, status: 404, reason: 'Not found' }
        : checkOrigin({ hosts, headers: req.headers, websocket: true });
    if (v.ok) v = checkToken(token, protocolToken(req.headers['sec-websocket-protocol']) ?? bearerToken(req.headers.authorization));
    if (!v.ok) {
      refusals.refused(`refused WebSocket: ${v.reason}`);
      const body = `${v.reason}\n`;
      socket.end(`HTTP/1.1 ${v.status} ${http.STATUS_CODES[v.status]}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => attach(ws));
  });

  // CONNECT (a proxy request) is not something this server does; without an answer Node would just drop it.
  server.on('connect', (req: http.IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    refusals.refused(`refused CONNECT ${quote(req.url ?? '')}: not a proxy`);
    socket.end('HTTP/1.1 405 Method Not Allowed\r\nallow: GET, HEAD\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
  });

  function attach(ws: WebSocket): void {
    sockets.add(ws);
    const client = o.core.connect((push) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ push }));
    });
    serveRequests(ws, (method, params) => client.request(method, params));
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
    const names = isWildcard(bindHost) ? ` (as ${os.hostname()} or any of its addresses)` : '';
    log(`WARNING: bound to ${bindHost}, reachable from other machines${names}; the API and the WebSocket still need the token.`);
  }
  // A wildcard bind is opened here through loopback; other machines use this machine's name.
  const shownHost = isLoopback(bindHost) || isWildcard(bindHost) ? '127.0.0.1' : bindHost.includes(':') ? `[${bindHost}]` : bindHost;
  return {
    url: `http://${shownHost}:${port}/?token=${token}`,
    port,
    token,
    close: async () => {
      refusals.close();
      for (const ws of sockets) ws.terminate();
      wss.close();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
