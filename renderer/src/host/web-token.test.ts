/**
 * The page keeps the web host's token in sessionStorage and out of the address bar: it takes
 * it from the URL the host printed (`?token=`, or `#token=`), removes it from the URL (the
 * history entry too), and finds it again after a reload of the stripped URL.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TOKEN_STORAGE_KEY, takeToken, withoutToken } from './web-token';

/** A tab: its address, its sessionStorage and its history entry. */
function tab(href: string, storage = new Map<string, string>()) {
  const page = {
    location: { href },
    storage: { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v) },
    history: {
      state: { n: 1 },
      replaceState: (state: unknown, _title: string, url?: string | URL | null) => {
        expect(state).toEqual({ n: 1 }); // the entry keeps its state
        page.location.href = String(url);
      },
    },
  };
  return { page, storage };
}

describe('the page token', () => {
  it('moves a token from the query to sessionStorage and out of the URL; a reload finds it there', () => {
    const { page, storage } = tab('http://127.0.0.1:5179/?token=abc_DEF-1');
    expect(takeToken(page)).toBe('abc_DEF-1');
    expect(page.location.href).toBe('http://127.0.0.1:5179/');
    expect(storage.get(TOKEN_STORAGE_KEY)).toBe('abc_DEF-1');
    // A reload: the stripped URL, the same tab's storage.
    expect(takeToken(tab(page.location.href, storage).page)).toBe('abc_DEF-1');
    // Another tab opened without the token has none.
    expect(takeToken(tab('http://127.0.0.1:5179/').page)).toBeUndefined();
  });

  it('takes #token= too, keeps the rest of the URL, and a new URL token replaces a stored one', () => {
    const { page, storage } = tab('http://h:1/app?view=1#token=old&x=2');
    expect(takeToken(page)).toBe('old');
    expect(page.location.href).toBe('http://h:1/app?view=1#x=2');
    const next = tab('http://h:1/?a=b&token=new#frag', storage);
    expect(takeToken(next.page)).toBe('new');
    expect(next.page.location.href).toBe('http://h:1/?a=b#frag');
    expect(storage.get(TOKEN_STORAGE_KEY)).toBe('new');
  });

  it('a malformed token is removed from the URL and not used; storage that throws still gives the URL token', () => {
    const bad = tab('http://h:1/?token=a%20b');
    expect(takeToken(bad.page)).toBeUndefined();
    expect(bad.page.location.href).toBe('http://h:1/');
    const { page } = tab('http://h:1/?token=t1');
    const throwing = { ...page, storage: { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } } };
    expect(takeToken(throwing)).toBe('t1');
  });

  it('no URL keeps a token once it has been taken out', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/), (url, token) => {
        const u = new URL(url);
        u.searchParams.set('token', token);
        const out = withoutToken(u.toString());
        expect(out?.token).toBe(token);
        expect(new URL(out!.href).searchParams.has('token')).toBe(false);
        expect(new URLSearchParams(new URL(out!.href).hash.slice(1)).has('token')).toBe(false);
      }),
    );
  });
});
