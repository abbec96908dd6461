/**
 * The web host's defences (docs/architecture.md#host-api): a per-launch random token on every HTTP request and
 * WebSocket handshake, and `Host` / `Origin` checks against cross-site requests and DNS
 * rebinding. Pure functions over header values, so each rule has a unit test.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_COOKIE = 'stepwise_token';

/** A new token: 32 random bytes, base64url. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time token comparison. */
export function tokenMatches(expected: string, given: string | undefined | null): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token a request carries: `?token=`, `Authorization: Bearer`, or the session cookie. */
export function requestToken(url: URL, headers: { authorization?: string; cookie?: string }): string | undefined {
  const q = url.searchParams.get('token');
  if (q) return q;
  const auth = headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice(7).trim();
  for (const part of (headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === TOKEN_COOKIE) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** Whether an address is a loopback one. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.');
}

/**
 * Host names a request may carry in `Host` (with the bound port): the bound address, and for
 * a loopback bind also `localhost`, `127.0.0.1` and `[::1]`. Anything else (a rebinding
 * attacker's domain) is refused.
 */
export function allowedHosts(boundHost: string, port: number): Set<string> {
  const names = new Set<string>([boundHost.includes(':') && !boundHost.startsWith('[') ? `[${boundHost}]` : boundHost]);
  if (isLoopback(boundHost)) for (const h of ['127.0.0.1', 'localhost', '[::1]']) names.add(h);
  return new Set([...names].map((h) => `${h}:${port}`.toLowerCase()));
}

export type Verdict = { ok: true } | { ok: false; status: number; reason: string };

/**
 * Checks one request. `origin` is required for WebSocket handshakes (browsers always send
 * it) and, when present on any request, must be this server's own origin.
 */
export function checkRequest(opts: {
  token: string;
  hosts: Set<string>;
  url: URL;
  headers: { host?: string; origin?: string; authorization?: string; cookie?: string };
  websocket?: boolean;
}): Verdict {
  const host = (opts.headers.host ?? '').toLowerCase();
  if (!opts.hosts.has(host)) return { ok: false, status: 421, reason: `Host "${opts.headers.host ?? ''}" is not this server (DNS rebinding defence)` };
  const origin = opts.headers.origin;
  if (origin !== undefined || opts.websocket) {
    if (!origin || origin === 'null') return { ok: false, status: 403, reason: 'Missing Origin' };
    let o: URL;
    try {
      o = new URL(origin);
    } catch {
      return { ok: false, status: 403, reason: `Malformed Origin "${origin}"` };
    }
    if (o.protocol !== 'http:' || !opts.hosts.has(o.host.toLowerCase())) return { ok: false, status: 403, reason: `Origin "${origin}" is not allowed` };
  }
  if (!tokenMatches(opts.token, requestToken(opts.url, opts.headers))) {
    return { ok: false, status: 401, reason: 'Missing or wrong token: open the URL that `stepwise serve` printed' };
  }
  return { ok: true };
}
