/**
 * OAuth for one remote server (MCP spec 2025-06-18, Authorization), on the SDK's client auth:
 * an `OAuthClientProvider` that keeps the credentials the host stores (registered client,
 * tokens), a configured client id or dynamic registration (RFC 7591), PKCE, and a `fetch`
 * that tells which step of the flow each request belongs to, so the status names the step
 * that failed (discovery, registration, authorization, token, refresh).
 */
import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpOAuthCredentials } from '../shared/protocol/mcp';
import type { McpServerInfo } from '../shared/protocol/host-api';

export type McpAuthStatus = NonNullable<McpServerInfo['auth']>;
type Step = McpAuthStatus['step'];

/** What an {@link OAuthSession} tells its owner. */
export interface OAuthHooks {
  /** The credentials changed (client registered, tokens saved or dropped): store them. */
  saved(credentials: McpOAuthCredentials): void;
  /** The status changed. */
  status(status: McpAuthStatus): void;
}

/** A server's OAuth settings from mcp.json (`oauth`). */
export interface OAuthSettings {
  clientId?: string;
  clientSecret?: string;
  scope?: string;
}

/**
 * The step an OAuth request belongs to, from its URL and body: metadata documents are
 * discovery, a JSON body with `redirect_uris` is registration, a form with `grant_type` is the
 * token exchange or a refresh. Anything else (the MCP traffic itself) is `undefined`.
 */
export function oauthStep(url: string, init?: RequestInit): Step | undefined {
  if (/\/\.well-known\/(oauth-protected-resource|oauth-authorization-server|openid-configuration)/.test(url)) return 'discovery';
  const body = init?.body;
  if (body instanceof URLSearchParams || (typeof body === 'string' && /(^|&)grant_type=/.test(body))) {
    const grant = new URLSearchParams(body.toString()).get('grant_type');
    if (grant === 'refresh_token') return 'refresh';
    if (grant) return 'token';
  }
  if (typeof body === 'string' && body.includes('"redirect_uris"')) return 'registration';
  return undefined;
}

/**
 * The SDK's `OAuthClientProvider` for one server: client metadata with the host's callback
 * URL, the configured client id or the registered client, tokens, PKCE verifier and the
 * `state` of the flow waiting for the person.
 */
export class OAuthSession implements OAuthClientProvider {
  private credentials: McpOAuthCredentials;
  private verifier?: string;
  /** The `state` of the flow waiting for the person (authorization), if one waits. */
  pendingState?: string;
  private current?: McpAuthStatus;

  constructor(
    readonly server: string,
    private readonly settings: OAuthSettings,
    private readonly redirect: string | undefined,
    stored: McpOAuthCredentials | undefined,
    private readonly hooks: OAuthHooks,
  ) {
    this.credentials = { ...stored };
  }

  /** The status so far (undefined until the server asked for authorization). */
  status(): McpAuthStatus | undefined {
    return this.current;
  }

  /** Sets the status; `failed` keeps the step it failed at. */
  setStatus(step: Step, state: McpAuthStatus['state'], extra: { url?: string; error?: string } = {}): void {
    this.current = { step, state, ...extra };
    this.hooks.status(this.current);
  }

  /** Marks the step in flight as failed with `error` (its text, no secrets: the SDK's messages name the endpoint and OAuth error code). */
  fail(error: string): void {
    this.setStatus(this.current?.step ?? 'discovery', 'failed', { error });
  }

  /** A fetch for the transport and the SDK's auth: each OAuth request moves the status to its step. */
  readonly fetch: FetchLike = async (url, init) => {
    const step = oauthStep(url.toString(), init);
    if (step && (this.current?.step !== step || this.current.state !== 'running')) this.setStatus(step, 'running');
    return fetch(url, init);
  };

  get redirectUrl(): string {
    return this.redirect ?? 'http://127.0.0.1/oauth/callback';
  }

  get clientMetadata(): OAuthClientMetadata {
    const m: OAuthClientMetadata = {
      client_name: 'Stepwise',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.settings.clientSecret ? 'client_secret_post' : 'none',
    };
    if (this.settings.scope) m.scope = this.settings.scope;
    return m;
  }

  state(): string {
    this.pendingState = randomBytes(24).toString('base64url');
    return this.pendingState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    if (this.settings.clientId) {
      return { client_id: this.settings.clientId, ...(this.settings.clientSecret ? { client_secret: this.settings.clientSecret } : {}) };
    }
    const client = this.credentials.client as (OAuthClientInformationMixed & { redirect_uris?: unknown }) | undefined;
    // Registered for another callback URL (the loopback or web host port changed): register again.
    if (Array.isArray(client?.redirect_uris) && !client.redirect_uris.includes(this.redirectUrl)) return undefined;
    return client;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.credentials = { ...this.credentials, client: info as Record<string, unknown> };
    this.hooks.saved(this.credentials);
  }

  tokens(): OAuthTokens | undefined {
    return this.credentials.tokens as OAuthTokens | undefined;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.credentials = { ...this.credentials, tokens: tokens as Record<string, unknown> };
    this.hooks.saved(this.credentials);
    // A refresh happens on a live connection (the server answered 401): it is connected again.
    if (this.current?.step === 'refresh') this.setStatus('connected', 'done');
  }

  redirectToAuthorization(url: URL): void {
    if (!this.redirect) {
      this.setStatus('authorization', 'failed', { error: 'no OAuth callback here (the CLI cannot open a sign-in): sign in once with `stepwise serve` on the same home, whose stored tokens the CLI then uses' });
      return;
    }
    this.setStatus('authorization', 'waiting', { url: url.href });
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no PKCE code verifier: the authorization was not started by this process');
    return this.verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'verifier' || scope === 'discovery') {
      if (scope === 'verifier') this.verifier = undefined;
      return;
    }
    const next = { ...this.credentials };
    if (scope === 'all' || scope === 'tokens') delete next.tokens;
    if (scope === 'all' || scope === 'client') delete next.client;
    this.credentials = next;
    this.hooks.saved(this.credentials);
  }
}
