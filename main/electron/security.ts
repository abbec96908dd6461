/**
 * Hardening per Electron's security checklist
 * (https://www.electronjs.org/docs/latest/tutorial/security): isolated, sandboxed renderers
 * without Node; a strict CSP (header on top of index.html's meta tag); no navigation away from
 * the app; no new windows (https links open in the default browser); every permission request
 * denied; no remote content. Electron objects are taken structurally, so the rules are
 * testable under Node.
 */
import type { BrowserWindowConstructorOptions } from 'electron';
import { isFileUrlUnder } from './file-request';
import { isAppRendererUrl, type RendererOrigin } from './ipc';

/**
 * Creates a Stepwise window: isolated, sandboxed, no Node, web security on, no webviews, no
 * middle-click new windows, no drag-and-drop navigation. `BrowserWindow` is Electron's class
 * (injected so the options are testable under Node); the options are written out here, in one
 * literal, for reviewers and static scanners alike.
 */
export function createSecureWindow<W>(
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => W,
  options: Omit<BrowserWindowConstructorOptions, 'webPreferences'>,
  preload: string,
): W {
  return new BrowserWindow({
    ...options,
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      disableBlinkFeatures: 'Auxclick',
      safeDialogs: true,
      spellcheck: true,
    },
  });
}

/**
 * The renderer's Content-Security-Policy. Production: same-origin (the app's files) only, no
 * network at all. Development adds the dev server (scripts, styles, its HMR WebSocket) and
 * the inline module preamble of React refresh.
 */
export function desktopCsp(devUrl?: string): string {
  const base = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
    'frame-ancestors': ["'none'"],
  } as Record<string, string[]>;
  if (devUrl) {
    const u = new URL(devUrl);
    const ws = `${u.protocol === 'https:' ? 'wss' : 'ws'}://${u.host}`;
    base['script-src'].push(u.origin, "'unsafe-inline'");
    base['connect-src'].push(u.origin, ws);
  }
  return Object.entries(base)
    .map(([k, v]) => `${k} ${v.join(' ')}`)
    .join('; ');
}

/** `headers` with the CSP set (any existing CSP header, in any letter case, replaced). */
export function withCsp(headers: Record<string, string[] | string> | undefined, csp: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (k.toLowerCase() === 'content-security-policy') continue;
    out[k] = Array.isArray(v) ? v : [v];
  }
  out['Content-Security-Policy'] = [csp];
  return out;
}

/** Only https links leave the app, and only to the default browser. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && !u.username && !u.password;
  } catch {
    return false;
  }
}

/** The session surface hardened here. */
export interface SessionLike {
  webRequest: {
    onHeadersReceived(
      listener: (details: { url: string; responseHeaders?: Record<string, string[] | string> }, callback: (response: { responseHeaders?: Record<string, string[]>; cancel?: boolean }) => void) => void,
    ): void;
    onBeforeRequest(listener: (details: { url: string }, callback: (response: { cancel?: boolean }) => void) => void): void;
  };
  setPermissionRequestHandler(handler: (wc: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: (wc: unknown, permission: string) => boolean): void;
}

/**
 * True when a request may load: the app's own files (a `file:` URL inside `rendererDir`, see
 * isFileUrlUnder), data/blob, and in development the dev server and the developer tools'
 * `devtools:` and `chrome-extension:` pages. A packaged app (`packaged`, Electron's
 * `app.isPackaged`; strict unless told otherwise) opens no developer tools and loads no
 * extension, so it refuses those two schemes.
 */
export function isAllowedRequest(url: string, origin: RendererOrigin, rendererDir: string, packaged = true): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol === 'data:' || u.protocol === 'blob:') return true;
  if (u.protocol === 'devtools:' || u.protocol === 'chrome-extension:') return !packaged;
  if (u.protocol === 'file:') return isFileUrlUnder(u, rendererDir);
  if (origin.devUrl) {
    try {
      const dev = new URL(origin.devUrl);
      if (u.host === dev.host && ['http:', 'https:', 'ws:', 'wss:'].includes(u.protocol)) return true;
    } catch {
      return false;
    }
  }
  return false;
}

/**
 * Session rules: CSP header on every response; requests outside the app (and the dev
 * server) cancelled — no remote content; every permission request and check denied.
 * `packaged` (Electron's `app.isPackaged`) as for isAllowedRequest.
 */
export function hardenSession(session: SessionLike, origin: RendererOrigin, rendererDir: string, log?: (line: string) => void, packaged = true): void {
  const csp = desktopCsp(origin.devUrl);
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withCsp(details.responseHeaders, csp) });
  });
  session.webRequest.onBeforeRequest((details, callback) => {
    const ok = isAllowedRequest(details.url, origin, rendererDir, packaged);
    if (!ok) log?.(`blocked request to ${details.url.slice(0, 200)}`);
    callback({ cancel: !ok });
  });
  session.setPermissionRequestHandler((_wc, permission, callback) => {
    log?.(`denied permission request: ${permission}`);
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
}

/** The webContents surface hardened here. */
export interface HardenedContentsLike {
  on(event: 'will-navigate' | 'will-redirect', listener: (event: { preventDefault(): void; url?: string }, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' } | { action: 'allow' }): void;
}

/**
 * No navigation away from the app (an https link is opened in the default browser instead),
 * no new windows, no <webview>.
 */
export function hardenWebContents(wc: HardenedContentsLike, origin: RendererOrigin, openExternal: (url: string) => void, log?: (line: string) => void): void {
  const leave = (url: string) => {
    if (isSafeExternalUrl(url)) openExternal(url);
    else log?.(`blocked navigation to ${url.slice(0, 200)}`);
  };
  wc.on('will-navigate', (event, url) => {
    if (origin.devUrl && isAppRendererUrl(url, origin)) return; // the dev server's full reload
    event.preventDefault();
    leave(url);
  });
  wc.on('will-redirect', (event, url) => {
    if (isAppRendererUrl(url, origin)) return;
    event.preventDefault();
  });
  wc.on('will-attach-webview', (event) => event.preventDefault());
  wc.setWindowOpenHandler(({ url }) => {
    leave(url);
    return { action: 'deny' };
  });
}
