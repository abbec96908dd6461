/**
 * The OAuth side of one server session (session.ts): the SDK provider of a remote server
 * (oauth.ts), the diagnosis of a connect that failed in the flow (naming the step), and the
 * code exchange when the browser comes back to the callback.
 */
import { auth as sdkAuth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { McpOAuthCredentials, McpServerConfig } from '../shared/protocol/mcp';
import type { Diagnosis } from './diagnose';
import { OAuthSession, type McpAuthStatus } from './oauth';

/** A request that cannot apply to this server: the caller sees code `bad_request`, not `internal`. */
function refused(message: string): Error & { code: string } {
  return Object.assign(new Error(message), { code: 'bad_request' });
}

/** OAuth context of a session: the callback URL the host serves and the credentials it stored. */
export interface SessionAuth {
  redirectUrl?: string;
  credentials?: McpOAuthCredentials;
}

/** OAuth of one session's server; a local server (stdio, bundled) has none and every method is a no-op. */
export class RemoteAuth {
  private oauth?: OAuthSession;

  constructor(
    private readonly name: string,
    private readonly config: McpServerConfig,
    /** Read when the server first needs OAuth (the host may learn its callback URL later). */
    private readonly auth: () => SessionAuth,
    private readonly hooks: { saved(c: McpOAuthCredentials): void; changed(): void },
  ) {}

  /** The provider for the transport (made once), or undefined for a local server. */
  provider(): OAuthSession | undefined {
    if (this.config.transport !== 'http' && this.config.transport !== 'sse') return undefined;
    const auth = this.auth();
    this.oauth ??= new OAuthSession(this.name, this.config.oauth ?? {}, auth.redirectUrl, auth.credentials, { saved: this.hooks.saved, status: this.hooks.changed });
    return this.oauth;
  }

  status(): McpAuthStatus | undefined {
    return this.oauth?.status();
  }

  /** The `state` of the flow waiting for the person, if one waits. */
  pendingState(): string | undefined {
    return this.oauth?.pendingState;
  }

  /** The connection is up: a sign-in in progress is done. */
  connected(): void {
    const st = this.oauth?.status();
    if (st && st.step !== 'connected') this.oauth!.setStatus('connected', 'done');
  }

  /** A connect that failed in the OAuth flow: the diagnosis names the step (or says to sign in); undefined when OAuth was not the cause. */
  failure(err: unknown): Diagnosis | undefined {
    const oauth = this.oauth;
    const st = oauth?.status();
    if (!oauth || !st) return undefined;
    if (st.state === 'waiting') return { kind: 'error', message: `MCP server "${this.name}" needs you to sign in (OAuth authorization): open ${st.url}` };
    if (st.state === 'running') oauth.fail(err instanceof Error ? err.message : String(err));
    else if (!(err instanceof UnauthorizedError)) return undefined;
    const now = oauth.status()!;
    // The server refused us (401) and the sign-in it should offer failed: say both.
    return now.state === 'failed' ? { kind: 'error', message: `MCP server "${this.name}": unauthorized (HTTP 401), and OAuth ${now.step} failed: ${now.error}` } : undefined;
  }

  /**
   * Exchanges the callback's `code` for tokens (PKCE verifier of this flow); `error` (the person
   * declined, RFC 6749 §4.1.2.1) fails the authorization step. Resolves with the session's
   * error text when a step failed, undefined when the tokens are in.
   */
  async exchange(code: string | undefined, error: string | undefined): Promise<string | undefined> {
    const oauth = this.oauth;
    if (!oauth || (this.config.transport !== 'http' && this.config.transport !== 'sse')) throw refused(`MCP server "${this.name}" has no OAuth flow in progress`);
    oauth.pendingState = undefined;
    if (error || !code) {
      oauth.setStatus('authorization', 'failed', { error: error ? `the authorization server answered ${error.slice(0, 200)}` : 'the callback carried no code' });
      return `MCP server "${this.name}": OAuth authorization failed: ${oauth.status()!.error}`;
    }
    try {
      oauth.setStatus('token', 'running');
      await sdkAuth(oauth, { serverUrl: this.config.url, authorizationCode: code, fetchFn: oauth.fetch, ...(this.config.oauth?.scope ? { scope: this.config.oauth.scope } : {}) });
      return undefined;
    } catch (err) {
      oauth.fail(err instanceof Error ? err.message : String(err));
      return `MCP server "${this.name}": OAuth ${oauth.status()!.step} failed: ${oauth.status()!.error}`;
    }
  }

  /** Drops the tokens so the next connect signs in again. Throws for a local server. */
  forgetTokens(): void {
    const oauth = this.provider();
    if (!oauth) throw refused(`MCP server "${this.name}" is a ${this.config.transport} server: OAuth applies to remote (http, sse) servers only`);
    oauth.invalidateCredentials('tokens');
  }
}
