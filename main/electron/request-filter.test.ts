/**
 * The session's request filter (main/electron/security.ts, file-request.ts): a `file:` request
 * loads only files inside the renderer folder, however its path is encoded; a packaged app
 * refuses the developer tools' and extensions' schemes.
 *
 * The properties check the filter against a worst-case loader: one that decodes every percent
 * escape (separators too), treats `\` as a separator as well, stops at a NUL and then resolves
 * `..`. Whatever URL is built from any string, if the filter lets it through, that loader
 * opens a file inside the renderer folder.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isFileUrlUnder } from './file-request';
import { hardenSession, isAllowedRequest, type SessionLike } from './security';

const posixDir = '/app/out/renderer';
const winDir = 'C:\\Program Files\\Stepwise\\resources\\app.asar\\out\\renderer';
const posixOrigin = { indexFile: `${posixDir}/index.html` };
const posixBase = pathToFileURL(posixDir).href; // file:///app/out/renderer
const winBase = pathToFileURL(winDir, { windows: true }).href; // file:///C:/Program%20Files/...

/** Percent escapes decoded byte by byte (malformed ones kept), as a careless loader would. */
function decodeAll(s: string): string {
  return s.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** Resolves `..` and `.` in `segments`; undefined when it climbs above the root. */
function resolveSegments(segments: string[]): string[] | undefined {
  const out: string[] = [];
  for (const s of segments) {
    if (s === '' || s === '.') continue;
    if (s === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(s);
  }
  return out;
}

/** The worst-case loader's file for a parsed file: URL on POSIX; undefined when it names none. */
function worstCasePosixFile(u: URL): string[] | undefined {
  if (u.host !== '') return undefined; // another machine's file
  const decoded = decodeAll(u.pathname).split('\0')[0];
  return resolveSegments(decoded.split(/[/\\]/));
}

/** The same on Windows: the drive kept, names without the trailing dots and spaces Windows drops. */
function worstCaseWindowsFile(u: URL): string[] | undefined {
  if (u.host !== '') return undefined;
  const decoded = decodeAll(u.pathname).split('\0')[0].replace(/^\//, '');
  // A name of dots and spaces only is read as `..` (worst case) or `.`; others lose the trailing ones.
  const names = decoded.split(/[/\\]/).map((n) => (/^[. ]+$/.test(n) ? (n.includes('..') ? '..' : '.') : n.replace(/[. ]+$/, '')));
  if (names.slice(1).some((n) => n.includes(':'))) return undefined; // a stream or another drive: not a plain file
  return resolveSegments(names.map((n) => n.toLowerCase()));
}

function strictlyInside(file: string[] | undefined, dir: string[]): boolean {
  return file !== undefined && file.length > dir.length && dir.every((d, i) => file[i] === d);
}

/**
 * Property: whatever `suffix` follows one of `bases`, a URL that `allowed` lets through names,
 * for the worst-case loader, a file strictly inside `dir` (given as path names).
 */
function neverEscapes(bases: string[], allowed: (url: string) => boolean, worstCase: (u: URL) => string[] | undefined, dir: string[]): void {
  fc.assert(
    fc.property(fc.constantFrom(...bases), suffix, (base, s) => {
      const url = base + s;
      if (allowed(url)) expect(strictlyInside(worstCase(new URL(url)), dir), url).toBe(true);
    }),
    { numRuns: 3000 },
  );
}

/** Path pieces an attacker would combine, plus arbitrary text. */
const piece = fc.oneof(
  fc.constantFrom('..', '.', '/', '\\', '%2f', '%2F', '%5c', '%5C', '%2e', '%2E', '%2e%2e', '.%2e', '%00', '%', '%25', '%252f', '?', '#', ':', ' ', '%20', 'C:', 'c:', '//', 'etc', 'passwd', 'renderer', 'renderer-evil', 'app', 'out', 'Program Files', '::$DATA'),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
);
const suffix = fc.array(piece, { maxLength: 10 }).map((a) => a.join(''));

describe('file: requests', () => {
  it('renderer/..%2f..%2fetc%2fpasswd and other encoded escapes are refused, without throwing', () => {
    const refused = [
      `${posixBase}/..%2f..%2fetc%2fpasswd`,
      `${posixBase}/..%2F..%2F..%2Fetc%2Fpasswd`,
      `${posixBase}/assets/..%5c..%5c..%5cetc%5cpasswd`,
      `${posixBase}/%2e%2e/%2e%2e/etc/passwd`,
      `${posixBase}/index.html%00.png`,
      `${posixBase}/%E0%A4%A`, // a malformed escape: the old filter threw here
      `${posixBase}-evil/index.js`, // a sibling whose name starts with the folder's
      posixBase, // the folder itself (a directory listing)
      `${posixBase}/`,
      'file://evil.example/app/out/renderer/index.html',
      'file:///etc/passwd',
    ];
    for (const url of refused) expect(isAllowedRequest(url, posixOrigin, posixDir), url).toBe(false);
    const allowed = [
      `${posixBase}/index.html`,
      `${posixBase}/assets/index-Ab12cD.js`,
      `${posixBase}/assets/%2e%2e/index.html`, // the URL parser resolves %2e%2e itself
      `${posixBase}/assets/font%20name.woff2?v=1#x`,
      `${posixBase}/assets/%E6%97%A5%E6%9C%AC.svg`,
    ];
    for (const url of allowed) expect(isAllowedRequest(url, posixOrigin, posixDir), url).toBe(true);
  });

  it('property (POSIX): no URL built from any string is let out of the renderer folder', () => {
    const bases = [`${posixBase}/`, posixBase, `${posixBase}/assets/`, 'file://', 'file:///', 'file:///app/out/'];
    neverEscapes(bases, (url) => isAllowedRequest(url, posixOrigin, posixDir), worstCasePosixFile, posixDir.split('/').filter(Boolean));
  });

  it('property (Windows rules): no URL built from any string is let out of the renderer folder', () => {
    const bases = [`${winBase}/`, winBase, `${winBase}/assets/`, 'file:///C:/', 'file:///D:/', 'file://server/share/'];
    const allowed = (url: string) => URL.canParse(url) && isFileUrlUnder(new URL(url), winDir, 'win32');
    neverEscapes(bases, allowed, worstCaseWindowsFile, winDir.toLowerCase().split('\\'));
    for (const url of [`${winBase}/..%5c..%5cwindows%5cwin.ini`, `${winBase}/.. ./.. ./x`, `${winBase}/index.html::$DATA`, 'file:///D:/x.js', 'file://server/share/out/renderer/x.js']) {
      expect(isFileUrlUnder(new URL(url), winDir, 'win32'), url).toBe(false);
    }
    expect(isFileUrlUnder(new URL('file:///c:/PROGRAM%20FILES/stepwise/Resources/APP.ASAR/out/renderer/assets/x.js'), winDir, 'win32')).toBe(true);
  });

  it('property: every asset file of the renderer folder, whatever its name, loads', () => {
    const name = fc
      .oneof(fc.stringMatching(/^[A-Za-z0-9 _.~@+,()[\]!$&'=;%#?-]{1,12}$/), fc.constantFrom('日本', 'é', '😀', 'index.html', 'assets'))
      .filter((n) => n !== '.' && n !== '..' && !/[. ]$/.test(n));
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 4 }), (names) => {
        const posixUrl = pathToFileURL(path.posix.join(posixDir, ...names)).href;
        expect(isAllowedRequest(posixUrl, posixOrigin, posixDir), posixUrl).toBe(true);
        const winUrl = pathToFileURL(path.win32.join(winDir, ...names), { windows: true });
        expect(isFileUrlUnder(winUrl, winDir, 'win32'), winUrl.href).toBe(true);
        expect(isFileUrlUnder(new URL(posixUrl.toUpperCase().replace(/^FILE:/, 'file:')), posixDir, 'darwin')).toBe(true);
      }),
      { numRuns: 1000 },
    );
    // Letter case counts on Linux only.
    expect(isFileUrlUnder(new URL('file:///APP/out/renderer/x.js'), posixDir, 'linux')).toBe(false);
  });
});

describe('developer tools and extensions', () => {
  const devtools = 'devtools://devtools/bundled/devtools_app.html';
  const extension = 'chrome-extension://mhjfbmdgcfjbbpaeojofohoefgiehjai/index.html';

  it('a packaged app refuses devtools: and chrome-extension: requests; development allows them', () => {
    for (const url of [devtools, extension]) {
      expect(isAllowedRequest(url, posixOrigin, posixDir, true), url).toBe(false);
      expect(isAllowedRequest(url, posixOrigin, posixDir), `${url} (strict by default)`).toBe(false);
      expect(isAllowedRequest(url, posixOrigin, posixDir, false), url).toBe(true);
    }
  });

  it('the session filter follows app.isPackaged', () => {
    const verdicts = (packaged: boolean) => {
      let before: Parameters<SessionLike['webRequest']['onBeforeRequest']>[0] | undefined;
      const session: SessionLike = {
        webRequest: { onHeadersReceived: () => undefined, onBeforeRequest: (l) => (before = l) },
        setPermissionRequestHandler: () => undefined,
        setPermissionCheckHandler: () => undefined,
      };
      hardenSession(session, posixOrigin, posixDir, undefined, packaged);
      return [devtools, extension, `${posixBase}/index.html`].map((url) => {
        let cancel: boolean | undefined;
        before!({ url }, (r) => (cancel = r.cancel));
        return cancel;
      });
    };
    expect(verdicts(true)).toEqual([true, true, false]);
    expect(verdicts(false)).toEqual([false, false, false]);
  });
});
