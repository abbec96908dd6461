/**
 * The web host's defences (docs/architecture.md#host-api): a per-launch random token on the API and the WebSocket (and on the
 * page that receives it), and `Host` / `Origin` checks against cross-site requests and DNS
 * rebinding. Pure functions over header values, so each rule has a unit test. How a page sends
 * the token is in shared/protocol/web-session.ts.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { TOKEN_PATTERN, TOKEN_PROTOCOL_PREFIX } from '../../shared/protocol/web-session';

/** A new token: 32 random bytes, base64url (43 characters matching TOKEN_PATTERN). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether `token` can be a launch token (TOKEN_PATTERN: it must fit in a subprotocol name). */
export function validToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

/**
 * Constant-time token comparison: both sides are hashed first, so neither the content nor the
 * length of the expected token shows in the time taken.
 */
export function tokenMatches(expected: string, given: string | undefined | null): boolean {
  if (typeof given !== 'string' || given === '') return false;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const m = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
  return m?.[1];
}

/** The token a WebSocket handshake offers as the subprotocol `stepwise.token.<token>`. */
export function protocolToken(header: string | undefined): string | undefined {
  for (const p of (header ?? '').split(',')) {
    const name = p.trim();
    if (name.startsWith(TOKEN_PROTOCOL_PREFIX)) return name.slice(TOKEN_PROTOCOL_PREFIX.length);
  }
  return undefined;
}

/**
 * The request target as a URL when it is in origin form (`/path?query`, RFC 9112 §3.2.1) and
 * does not start with `//` (which URL parsers read as a host name); undefined for anything
 * else (`//`, `//[`, `http://[`, `*`, an absolute URL), which the host answers with 400.
 * Never throws.
 */
export function parseTarget(target: string | undefined): URL | undefined {
  if (!target || !target.startsWith('/') || target.startsWith('//')) return undefined;
  try {
    // Parsed after a fixed authority, so `//x` stays a path instead of naming a host.
    const url = new URL(`http://host${target}`);
    return url.host === 'host' ? url : undefined;
  } catch {
    return undefined;
  }
}

export type Verdict = { ok: true } | { ok: false; status: number; reason: string };

/** `Host` header values this server answers to (lower-case `name:port`). */
export interface HostNames {
  has(host: string): boolean;
}

/**
 * Checks where a request comes from: its `Host` must be one of this server's names (DNS
 * rebinding defence), and its `Origin`, required for WebSocket handshakes (browsers always send
 * it) and checked whenever present, must be this server's own http origin.
 */
export function checkOrigin(o: { hosts: HostNames; headers: { host?: string; origin?: string }; websocket?: boolean }): Verdict {
  const host = (o.headers.host ?? '').toLowerCase();
  if (!o.hosts.has(host)) return { ok: false, status: 421, reason: `Host ${quote(o.headers.host ?? '')} is not this server (DNS rebinding defence)` };
  const origin = o.headers.origin;
  if (origin !== undefined || o.websocket) {
    if (!origin || origin === 'null') return { ok: false, status: 403, reason: 'Missing Origin' };
    let u: URL;
    try {
      u = new URL(origin);
    } catch {
      return { ok: false, status: 403, reason: `Malformed Origin ${quote(origin)}` };
    }
    if (u.protocol !== 'http:' || !o.hosts.has(u.host.toLowerCase())) return { ok: false, status: 403, reason: `Origin ${quote(origin)} is not allowed` };
  }
  return { ok: true };
}

/** Checks the token a request offers against the launch's. */
export function checkToken(expected: string, given: string | undefined): Verdict {
  if (tokenMatches(expected, given)) return { ok: true };
  return { ok: false, status: 401, reason: 'Missing or wrong token: open the URL that `stepwise serve` printed' };
}

/** `s` quoted for a log line or an error: JSON-escaped (no control characters), at most 100 characters. */
export function quote(s: string): string {
  return JSON.stringify(s.length > 100 ? `${s.slice(0, 100)}…` : s);
}
