import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OAuthSession, oauthStep } from './oauth';

describe('oauthStep', () => {
  it('names the step of each OAuth request from its URL and body; MCP traffic is none', () => {
    expect(oauthStep('https://a.example/.well-known/oauth-protected-resource/mcp')).toBe('discovery');
    expect(oauthStep('https://a.example/.well-known/oauth-authorization-server')).toBe('discovery');
    expect(oauthStep('https://a.example/.well-known/openid-configuration')).toBe('discovery');
    expect(oauthStep('https://a.example/register', { method: 'POST', body: JSON.stringify({ redirect_uris: ['x'] }) })).toBe('registration');
    expect(oauthStep('https://a.example/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code: 'c' }) })).toBe('token');
    expect(oauthStep('https://a.example/token', { method: 'POST', body: 'grant_type=refresh_token&refresh_token=r' })).toBe('refresh');
    expect(oauthStep('https://a.example/mcp', { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })).toBeUndefined();
  });

  it('property: any URL and string body give a step or none, never a throw', () => {
    fc.assert(fc.property(fc.webUrl(), fc.option(fc.string(), { nil: undefined }), (url, body) => {
      const step = oauthStep(url, body === undefined ? undefined : { body });
      expect([undefined, 'discovery', 'registration', 'token', 'refresh']).toContain(step);
    }));
  });
});

describe('OAuthSession', () => {
  const hooks = () => ({ saved: [] as unknown[], status: [] as unknown[] });

  it('uses a configured client id; else the registered client, unless it was registered for another callback URL', () => {
    const h = hooks();
    const configured = new OAuthSession('s', { clientId: 'mine', clientSecret: 'shh' }, 'http://127.0.0.1:5/oauth/callback', undefined, { saved: (c) => h.saved.push(c), status: (s) => h.status.push(s) });
    expect(configured.clientInformation()).toEqual({ client_id: 'mine', client_secret: 'shh' });
    expect(configured.clientMetadata.token_endpoint_auth_method).toBe('client_secret_post');
    const stored = { client: { client_id: 'reg', redirect_uris: ['http://127.0.0.1:5/oauth/callback'] } };
    const same = new OAuthSession('s', {}, 'http://127.0.0.1:5/oauth/callback', stored, { saved: () => {}, status: () => {} });
    expect(same.clientInformation()).toMatchObject({ client_id: 'reg' });
    expect(same.clientMetadata.token_endpoint_auth_method).toBe('none');
    const moved = new OAuthSession('s', {}, 'http://127.0.0.1:6/oauth/callback', stored, { saved: () => {}, status: () => {} });
    expect(moved.clientInformation()).toBeUndefined();
  });

  it('without a callback URL the authorization step fails saying why; saved tokens reach the owner', () => {
    const h = hooks();
    const s = new OAuthSession('s', {}, undefined, undefined, { saved: (c) => h.saved.push(c), status: (st) => h.status.push(st) });
    s.redirectToAuthorization(new URL('https://as.example/authorize?x=1'));
    expect(s.status()).toMatchObject({ step: 'authorization', state: 'failed', error: expect.stringContaining('no OAuth callback') });
    s.saveTokens({ access_token: 'a', token_type: 'bearer' });
    expect(h.saved.at(-1)).toEqual({ tokens: { access_token: 'a', token_type: 'bearer' } });
    s.invalidateCredentials('tokens');
    expect(h.saved.at(-1)).toEqual({});
    expect(() => s.codeVerifier()).toThrow(/no PKCE code verifier/);
  });
});
