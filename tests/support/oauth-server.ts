/** Starts tests/support/mcp-servers/oauth-server.mjs (an MCP server behind a real OAuth server) as a child process. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

/** What the authorization server has done so far. */
export interface OAuthServerStats {
  registrations: number;
  exchanges: number;
  refreshes: number;
  /** Requests refused for an unknown or expired access token. */
  rejected: number;
}

/** A running OAuth-protected MCP server and its test controls. */
export interface OAuthTestServer {
  /** The MCP endpoint (Streamable HTTP). */
  mcpUrl: string;
  base: string;
  /** Expires every access token: the next request gets 401 and the client must refresh. */
  expireTokens(): Promise<void>;
  /** Makes the token endpoint refuse (or accept again) the code exchange. */
  failTokenExchange(on: boolean): Promise<void>;
  stats(): Promise<OAuthServerStats>;
  stop(): void;
}

/** Starts the server on a free 127.0.0.1 port; resolves once it listens. */
export async function startOAuthServer(): Promise<OAuthTestServer> {
  const child: ChildProcess = spawn(process.execPath, [path.resolve('tests/support/mcp-servers/oauth-server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const first = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`oauth-server.mjs exited (${code}) before listening`)));
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
  });
  const { port } = JSON.parse(first) as { port: number };
  const base = `http://127.0.0.1:${port}`;
  const post = async (p: string) => {
    const r = await fetch(`${base}${p}`, { method: 'POST' });
    if (!r.ok) throw new Error(`${p}: HTTP ${r.status}`);
  };
  return {
    mcpUrl: `${base}/mcp`,
    base,
    expireTokens: () => post('/control/expire'),
    failTokenExchange: (on) => post(`/control/fail-token?on=${on ? 1 : 0}`),
    stats: async () => (await (await fetch(`${base}/control/stats`)).json()) as OAuthServerStats,
    stop: () => void child.kill(),
  };
}
