/**
 * A remote MCP server behind a real OAuth 2.1 authorization server, both built from the MCP
 * SDK's server-side auth helpers: `mcpAuthRouter` (metadata, dynamic client registration,
 * authorize, token) over an in-memory `OAuthServerProvider` that approves every authorization
 * at once (a person clicking "Allow"), and `requireBearerAuth` in front of a stateless
 * Streamable HTTP MCP server with one tool, `whoami`.
 *
 * Prints `{"port": N}` on stdout once listening on 127.0.0.1. Test controls (POST, no auth):
 * `/control/expire` expires every access token (the next request gets 401, the client
 * refreshes); `/control/fail-token?on=1|0` makes the token endpoint refuse the code exchange;
 * `GET /control/stats` counts registrations, code exchanges and refreshes.
 */
import { randomUUID } from 'node:crypto';
import express from 'express';
import { mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

const clients = new Map();
const codes = new Map();
const access = new Map();
const refresh = new Map();
const stats = { registrations: 0, exchanges: 0, refreshes: 0, rejected: 0 };
let failToken = false;

function issue(clientId) {
  const token = randomUUID();
  const refreshToken = randomUUID();
  access.set(token, { clientId, expiresAt: Math.floor(Date.now() / 1000) + 3600 });
  refresh.set(refreshToken, clientId);
  return { access_token: token, token_type: 'bearer', expires_in: 3600, refresh_token: refreshToken };
}

/** @type {import('@modelcontextprotocol/sdk/server/auth/provider.js').OAuthServerProvider} */
const provider = {
  clientsStore: {
    getClient: async (id) => clients.get(id),
    registerClient: async (client) => {
      stats.registrations++;
      const full = { ...client, client_id: randomUUID(), client_id_issued_at: Math.floor(Date.now() / 1000) };
      clients.set(full.client_id, full);
      return full;
    },
  },
  // The person approves at once: back to the client's redirect URI with a code and its state.
  async authorize(client, params, res) {
    const code = randomUUID();
    codes.set(code, { clientId: client.client_id, challenge: params.codeChallenge, redirectUri: params.redirectUri });
    const to = new URL(params.redirectUri);
    to.searchParams.set('code', code);
    if (params.state) to.searchParams.set('state', params.state);
    res.redirect(302, to.href);
  },
  async challengeForAuthorizationCode(_client, code) {
    const c = codes.get(code);
    if (!c) throw new InvalidGrantError('unknown authorization code');
    return c.challenge;
  },
  async exchangeAuthorizationCode(client, code) {
    if (failToken) throw new InvalidGrantError('the test server refuses this code exchange');
    const c = codes.get(code);
    if (!c || c.clientId !== client.client_id) throw new InvalidGrantError('unknown authorization code');
    codes.delete(code);
    stats.exchanges++;
    return issue(client.client_id);
  },
  async exchangeRefreshToken(client, refreshToken) {
    if (refresh.get(refreshToken) !== client.client_id) throw new InvalidGrantError('unknown refresh token');
    refresh.delete(refreshToken);
    stats.refreshes++;
    return issue(client.client_id);
  },
  async verifyAccessToken(token) {
    const t = access.get(token);
    if (!t || t.expiresAt * 1000 <= Date.now()) {
      stats.rejected++;
      throw new InvalidTokenError('the access token is unknown or expired');
    }
    return { token, clientId: t.clientId, scopes: [], expiresAt: t.expiresAt };
  },
};

const app = express();
const server = app.listen(0, '127.0.0.1', () => {
  const port = server.address().port;
  const base = `http://127.0.0.1:${port}`;
  const mcpUrl = new URL(`${base}/mcp`);
  app.use(mcpAuthRouter({ provider, issuerUrl: new URL(base), resourceServerUrl: mcpUrl, resourceName: 'Stepwise OAuth test server' }));
  app.post('/control/expire', (_req, res) => {
    for (const t of access.values()) t.expiresAt = 0;
    res.json({ ok: true });
  });
  app.post('/control/fail-token', (req, res) => {
    failToken = req.query.on === '1';
    res.json({ ok: true });
  });
  app.get('/control/stats', (_req, res) => res.json(stats));
  const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl: `${base}/.well-known/oauth-protected-resource/mcp` });
  app.post('/mcp', bearer, express.json(), async (req, res) => {
    const mcp = new McpServer({ name: 'oauth-test-server', version: '1.2.3' }, { instructions: 'Signed-in tools only.' });
    mcp.registerTool('whoami', { description: 'The OAuth client the call came with' }, async (extra) => ({
      content: [{ type: 'text', text: `client ${extra.authInfo?.clientId}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  app.get('/mcp', bearer, (_req, res) => res.status(405).set('Allow', 'POST').end());
  process.stdout.write(JSON.stringify({ port }) + '\n');
});
