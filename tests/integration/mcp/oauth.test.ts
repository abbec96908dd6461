/**
 * OAuth end to end (MCP spec 2025-06-18, Authorization): the real mcp-host signs in to an MCP
 * server behind a real authorization server built from the SDK's server-side auth helpers
 * (tests/support/mcp-servers/oauth-server.mjs): discovery → dynamic client registration →
 * authorization (followed here like a browser, the server approving at once) → token exchange
 * (PKCE) → a tool call; a refused token exchange is named as the step that failed; an expired
 * access token is refreshed; the credentials are stored in a 0600 file and used after a restart.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { McpService } from '../../../main/core/mcp/service';
import { oauthStorePath } from '../../../main/core/mcp/oauth-store';
import { NodeSpawner } from '../../../main/core/process/node-spawner';
import { mcpHostEntry } from '../../../main/core/process/entries';
import { cleanups } from '../../support/cleanups';
import { startOAuthServer } from '../../support/oauth-server';
import { launchWebHost } from '../../../main/web/launch';
import { makeHome } from './harness';

const defer = cleanups('test');
const REDIRECT = 'http://127.0.0.1:9/oauth/callback';

function service(home: string): McpService {
  const svc = new McpService({ home, spawner: new NodeSpawner({ stdout: 'pipe' }), entry: mcpHostEntry(), oauth: { redirectUrl: REDIRECT } });
  defer(() => svc.close());
  return svc;
}

/** Opens the authorization URL as a browser would; the server approves and redirects to the callback. */
async function approve(url: string): Promise<{ state: string; code: string | null; error: string | null }> {
  const r = await fetch(url, { redirect: 'manual' });
  expect(r.status).toBe(302);
  const back = new URL(r.headers.get('location')!);
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
  return { state: back.searchParams.get('state')!, code: back.searchParams.get('code'), error: back.searchParams.get('error') };
}

describe('OAuth for a remote MCP server', () => {
  it('discovery, registration, authorization, token, a tool call; a failed step is named; refresh after expiry; stored 0600', { timeout: 90_000 }, async () => {
    const server = await startOAuthServer();
    defer(() => server.stop());
    const home = makeHome({ secure: { type: 'http', url: server.mcpUrl } });
    const svc = service(home);

    // 1. The server answers 401: discovery and registration run, then the person must sign in.
    await server.failTokenExchange(true);
    const first = await svc.test('secure');
    expect(first.ok).toBe(false);
    expect(first.message).toMatch(/needs you to sign in .*open http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
    const [waiting] = await svc.servers();
    expect(waiting.auth).toMatchObject({ step: 'authorization', state: 'waiting' });
    const authUrl = new URL(waiting.auth!.url!);
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authUrl.searchParams.get('redirect_uri')).toBe(REDIRECT);

    // 2. The token endpoint refuses the code: the status names the token step.
    const refused = await svc.authCallback(await approve(authUrl.href));
    expect(refused.auth).toMatchObject({ step: 'token', state: 'failed', error: expect.stringContaining('refuses this code exchange') });
    expect(refused.status).toBe('error');
    expect(refused.error).toMatch(/OAuth token failed/);
    // The same callback again is refused: its flow is over.
    await expect(svc.authCallback({ state: authUrl.searchParams.get('state') })).rejects.toThrow(/no OAuth sign-in is waiting/);

    // 3. Sign in again: the registered client is reused, the code exchanged, the server connected.
    await server.failTokenExchange(false);
    const again = await svc.authorize('secure');
    expect(again.auth).toMatchObject({ step: 'authorization', state: 'waiting' });
    const connected = await svc.authCallback(await approve(again.auth!.url!));
    expect(connected).toMatchObject({ status: 'connected', auth: { step: 'connected', state: 'done' }, serverInfo: { name: 'oauth-test-server', version: '1.2.3' }, instructions: 'Signed-in tools only.' });
    const call = await svc.callTool('secure', 'whoami', {});
    expect(call.output.isError).toBeFalsy();
    expect(call.output.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^client [0-9a-f-]{36}$/) });
    expect(await server.stats()).toMatchObject({ registrations: 1, exchanges: 1, refreshes: 0 });

    // 4. The credentials are in a 0600 file.
    await expect.poll(() => fs.existsSync(oauthStorePath(home))).toBe(true);
    expect(fs.statSync(oauthStorePath(home)).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(fs.readFileSync(oauthStorePath(home), 'utf8'));
    expect(stored.secure.tokens.refresh_token).toEqual(expect.any(String));

    // 5. The access token expires: the next call gets 401, the client refreshes and the call succeeds.
    await server.expireTokens();
    const afterExpiry = await svc.callTool('secure', 'whoami', {});
    expect(afterExpiry.output.isError).toBeFalsy();
    expect((await server.stats()).refreshes).toBe(1);
    expect((await svc.servers())[0].auth).toMatchObject({ step: 'connected', state: 'done' });

    // 6. A new mcp-host (app restart) uses the stored tokens: no new sign-in.
    await svc.close();
    const restarted = service(home);
    expect((await restarted.callTool('secure', 'whoami', {})).output.isError).toBeFalsy();
    expect(await server.stats()).toMatchObject({ registrations: 1, exchanges: 1 });
  });

  it('a local (stdio) server has no sign-in: authorize is refused as a bad request, not an internal error', { timeout: 60_000 }, async () => {
    const home = makeHome({ local: { command: process.execPath, args: ['-e', ''] } });
    const svc = service(home);
    const refusal = await svc.authorize('local').then(
      () => undefined,
      (err: { code?: string; message: string }) => err,
    );
    expect(refusal).toMatchObject({ code: 'bad_request', message: 'MCP server "local" is a stdio server: OAuth applies to remote (http, sse) servers only' });
  });

  it('names discovery as the failed step when the authorization metadata cannot be read', { timeout: 60_000 }, async () => {
    // A server that asks for a token (401) and whose metadata documents fail (HTTP 500).
    const bare = http.createServer((req, res) => {
      if (req.url?.startsWith('/.well-known/')) res.writeHead(500).end('metadata store is down');
      else res.writeHead(401, { 'WWW-Authenticate': 'Bearer' }).end();
    });
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
    defer(() => void bare.close());
    const port = (bare.address() as AddressInfo).port;
    const svc = service(makeHome({ bare: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } }));
    const r = await svc.test('bare');
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/OAuth discovery failed: .*500/);
    const [info] = await svc.servers();
    expect(info.auth).toMatchObject({ step: 'discovery', state: 'failed' });
  });

  it('web host: the authorization server sends the browser back to the host\'s /oauth/callback, which finishes the sign-in', { timeout: 90_000 }, async () => {
    const server = await startOAuthServer();
    defer(() => server.stop());
    const home = makeHome({ secure: { type: 'http', url: server.mcpUrl } });
    const app = await launchWebHost({ home, open: false, seed: false, log: () => {} });
    defer(() => app.close());
    const origin = new URL(app.web.url).origin;
    expect((await app.mcp.test('secure')).ok).toBe(false);
    const info = (await app.mcp.servers()).find((s) => s.name === 'secure')!;
    expect(info.auth).toMatchObject({ step: 'authorization', state: 'waiting' });
    expect(new URL(info.auth!.url!).searchParams.get('redirect_uri')).toBe(`${origin}/oauth/callback`);
    // The browser: the authorization server redirects to the host, the host answers the page.
    const page = await fetch(info.auth!.url!);
    expect(page.url).toMatch(new RegExp(`^${origin}/oauth/callback\\?`));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Signed in: MCP server "secure" is connected.');
    expect((await app.mcp.callTool('secure', 'whoami', {})).output.isError).toBeFalsy();
    // A forged or replayed callback is refused, with no token needed to say so.
    const replay = await fetch(page.url);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain('no OAuth sign-in is waiting for this callback');
    expect((await fetch(`${origin}/oauth/callback`)).status).toBe(400);
  });
});
