/**
 * `GET /oauth/callback`: where a remote MCP server's authorization server sends the browser
 * back after the person signed in (RFC 6749 §4.1.2, with `code` and `state`, or `error`). The
 * query goes to the mcp-host's flow that `state` names; the page says how it went in plain
 * text, naming the server and the step, never a token.
 */
import type http from 'node:http';
import type { McpServerInfo } from '../../shared/protocol/host-api';

/** The callback path the web host and the desktop's loopback listener serve. */
export const OAUTH_CALLBACK_PATH = '/oauth/callback';

/** Finishes a sign-in from the callback's query; rejects (with a message) for an unknown `state`. */
export type OAuthCallback = (query: { state: string | null; code: string | null; error: string | null }) => Promise<McpServerInfo>;

/** What the page says after the callback: the server connected, or the step that failed and why. */
export function callbackOutcome(info: McpServerInfo): { ok: boolean; text: string } {
  if (info.status === 'connected') return { ok: true, text: `Signed in: MCP server "${info.name}" is connected. You can close this tab and go back to Stepwise.` };
  const step = info.auth?.state === 'failed' ? ` at the ${info.auth.step} step` : '';
  return { ok: false, text: `Sign-in to MCP server "${info.name}" failed${step}: ${info.auth?.error ?? info.error ?? 'unknown reason'}` };
}

/** Answers one callback request (200 when connected, 400 otherwise), text/plain, not cached. */
export async function answerOAuthCallback(finish: OAuthCallback, url: URL, res: http.ServerResponse): Promise<void> {
  const q = url.searchParams;
  let status = 400;
  let text: string;
  if (!q.get('state')) text = 'This OAuth callback has no "state": open it only from an MCP server\'s sign-in.';
  else {
    try {
      const r = callbackOutcome(await finish({ state: q.get('state'), code: q.get('code'), error: q.get('error') }));
      status = r.ok ? 200 : 400;
      text = r.text;
    } catch (err) {
      text = `Sign-in could not finish: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  if (!res.headersSent) res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }).end(`${text}\n`);
}

/** A loopback listener for the desktop app's OAuth callbacks (RFC 8252 §7.3). */
export interface OAuthLoopback {
  /** `http://127.0.0.1:<port>/oauth/callback`. */
  redirectUrl: string;
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1 (a free port) for `GET /oauth/callback` only, for the desktop app whose
 * system browser comes back there after a sign-in; everything else is 404.
 */
export async function startOAuthLoopback(finish: OAuthCallback): Promise<OAuthLoopback> {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== OAUTH_CALLBACK_PATH) return void res.writeHead(404).end();
    void answerOAuthCallback(finish, url, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = (server.address() as { port: number }).port;
  return {
    redirectUrl: `http://127.0.0.1:${port}${OAUTH_CALLBACK_PATH}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
