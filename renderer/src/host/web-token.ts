/**
 * Where a web page keeps the web host's token (see shared/protocol/web-session.ts: it starts
 * any command, so it is a secret). It arrives once in the URL the host printed (`?token=`, or
 * `#token=` in older links); the page moves it to sessionStorage (this tab only, kept across
 * reloads) and takes it out of the address bar and the history entry.
 */
import { TOKEN_PATTERN } from '../../../shared/protocol/web-session';

/** sessionStorage key of the token. */
export const TOKEN_STORAGE_KEY = 'stepwise.token';

/** What {@link takeToken} needs of the page (window.location, sessionStorage, history). */
export interface TokenPage {
  location: { href: string };
  storage?: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  history: { readonly state: unknown; replaceState(state: unknown, unused: string, url?: string | null): void };
}

/** `href` without its `token` query parameter and `#token=` fragment; undefined when it has neither. */
export function withoutToken(href: string): { token: string; href: string } | undefined {
  const u = new URL(href);
  const hash = new URLSearchParams(u.hash.slice(1));
  const inQuery = u.searchParams.get('token');
  const inHash = hash.get('token');
  if (inQuery === null && inHash === null) return undefined;
  if (inQuery !== null) u.searchParams.delete('token');
  if (inHash !== null) {
    hash.delete('token');
    const rest = hash.toString();
    u.hash = rest ? `#${rest}` : '';
  }
  return { token: (inQuery ?? inHash)!, href: u.toString() };
}

/**
 * The token of this tab: one in the URL (stored, then removed from the URL), else the one stored
 * earlier in this tab (a reload), else undefined. A token that cannot be a host's token
 * (TOKEN_PATTERN) is removed from the URL and ignored.
 */
export function takeToken(page: TokenPage): string | undefined {
  const found = withoutToken(page.location.href);
  let stored: string | null = null;
  try {
    stored = page.storage?.getItem(TOKEN_STORAGE_KEY) ?? null;
  } catch {
    // storage disabled: the token lives as long as the page
  }
  if (!found) return stored && TOKEN_PATTERN.test(stored) ? stored : undefined;
  page.history.replaceState(page.history.state, '', found.href);
  if (!TOKEN_PATTERN.test(found.token)) return undefined;
  try {
    page.storage?.setItem(TOKEN_STORAGE_KEY, found.token);
  } catch {
    // as above
  }
  return found.token;
}
