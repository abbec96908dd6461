/**
 * What the web host adapter needs to survive a lost connection without losing or doubling an
 * edit: which requests may wait for (or be sent again on) the next connection, the words for
 * the ones that cannot, the session check that tells a restarted host from a stopped one, and
 * the stable origin of this page's own edits across connections.
 */
import type { HostMethod } from '../../../shared/protocol/host-api';
import { SESSION_PATH } from '../../../shared/protocol/web-session';
import { HostCallError } from './types';

/** Said (banner, rejected calls) once the host refused this page's token. */
export const SESSION_ENDED_MESSAGE = "This page's session has ended (the host was restarted). Open the URL the host printed when it started (`npm start` or `stepwise serve`).";

/** Said while the connection is lost and the adapter retries. */
export const DISCONNECTED_MESSAGE = 'Disconnected from the host — edits are paused until it reconnects';

/**
 * Requests that can wait for the next connection and be sent again when the one carrying them
 * was lost: reads, and `thread.edit`, which carries an `editId`: the host answers a repeat of
 * an edit it already applied with that edit's version instead of applying it again (replaying
 * it would remove a second message or add a duplicate); `thread.sync` and `thread.update`
 * (a Yjs update applied twice changes nothing). Anything else (start a run, delete, save settings) must not happen twice or
 * minutes late: it is refused while disconnected, and fails if the connection drops under it.
 */
const RESENDABLE: ReadonlySet<HostMethod> = new Set<HostMethod>([
  'workspace.list',
  'thread.open',
  'thread.close',
  'thread.edit',
  'thread.sync',
  'thread.update',
  'thread.render',
  'run.list',
  'run.get',
  'stream.subscribe',
  'stream.snapshot',
  'settings.providers',
  'settings.app',
  'settings.providersFile',
  'mcp.servers',
  'mcp.tools',
]);

/** Whether `method` may wait for the next connection (see {@link RESENDABLE}). */
export function resendable(method: string): boolean {
  return RESENDABLE.has(method as HostMethod);
}

/** The error of every call once the session has ended. */
export function sessionEnded(method: string): HostCallError {
  return new HostCallError(SESSION_ENDED_MESSAGE, 'session_ended', method);
}

/** The error of a call that cannot wait, made while disconnected. */
export function notConnected(method: string): HostCallError {
  return new HostCallError(
    `Not connected to the host, so ${method} was not sent. The page reconnects by itself: try again once the header no longer says disconnected.`,
    'disconnected',
    method,
  );
}

/** The error of a call that cannot be repeated, in flight when the connection was lost. */
export function lostDuring(method: string): HostCallError {
  return new HostCallError(
    `Lost the connection to the host during ${method}, so it may or may not have happened. The page reconnects by itself: check, and try again once the header no longer says disconnected.`,
    'disconnected',
    method,
  );
}

/** What the session check found: the token is good, refused (host restarted), or no answer. */
export type SessionProbe = 'ok' | 'refused' | 'unreachable';

/**
 * Ask the web host whether `token` is still its token: `GET /api/session` with the token as a
 * bearer header (the only way the API takes it). 401/403 → refused; a 2xx → ok; no answer, or
 * some other server at the address → unreachable.
 */
export async function probeSession(origin: string, token: string, fetchImpl: typeof fetch | undefined = globalThis.fetch): Promise<SessionProbe> {
  if (typeof fetchImpl !== 'function') return 'unreachable';
  try {
    const timeout = typeof AbortSignal.timeout === 'function' ? AbortSignal.timeout(4000) : undefined;
    const u = new URL(SESSION_PATH, origin);
    u.searchParams.set('t', String(Date.now())); // never an answer from a cache
    const r = await fetchImpl(u.toString(), {
      headers: { authorization: `Bearer ${token}` },
      credentials: 'omit',
      signal: timeout,
    });
    if (r.status === 401 || r.status === 403) return 'refused';
    return r.ok ? 'ok' : 'unreachable';
  } catch {
    return 'unreachable';
  }
}

/**
 * The host labels a client's edits `origin` in `thread_patch` (given in `thread.open`'s
 * answer), so a window can tell its own echoes. Each connection is a new client with a new
 * origin; the page is shown the first origin it ever got, always: the current connection's
 * origin is mapped to it, and a stranger that happens to carry it (a restarted host counts
 * clients afresh) to another name. Without this, the page's own edits would come back looking
 * like another window's after a reconnect, and be applied twice.
 */
export class OriginAliases {
  private stable: string | undefined;
  private current: string | undefined;

  /** A new connection: its origin is unknown until a `thread.open` answers on it. */
  reset(): void {
    this.current = undefined;
  }

  /** `thread.open` answered `origin` on the current connection; returns the origin to show. */
  learn(origin: string | undefined): string | undefined {
    if (origin === undefined) return undefined;
    this.current = origin;
    this.stable ??= origin;
    return this.stable;
  }

  /** A `thread_patch` origin as the page must see it. */
  map(origin: string): string {
    if (this.stable === undefined || this.current === this.stable) return origin;
    if (origin === this.current) return this.stable;
    if (origin === this.stable) return `${origin}@elsewhere`;
    return origin;
  }
}
