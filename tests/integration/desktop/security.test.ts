/**
 * Electron security checklist for the desktop shell: the static scanner Electronegativity
 * (@doyensec/electronegativity, run for real on main/electron and preload, offline: its
 * one check that downloads Electron's release list is left out) finds nothing of
 * HIGH severity — and does flag an insecure window, so the check can fail — plus direct
 * assertions on what the shell applies: window options, CSP, navigation, new windows,
 * permissions, remote requests.
 *
 * Stand-ins (no Electron binary here): a BrowserWindow class that records its options, and
 * EventEmitter-based session/webContents objects with Electron's handler signatures.
 */
import { execFile } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { BrowserWindowConstructorOptions } from 'electron';
import { createSecureWindow, desktopCsp, hardenSession, hardenWebContents, isAllowedRequest, isSafeExternalUrl, withCsp, type SessionLike } from '../../../main/electron/security';

const repo = path.resolve(import.meta.dirname, '..', '..', '..');
const rendererDir = path.resolve('/app/out/renderer');
const origin = { indexFile: path.join(rendererDir, 'index.html') };

interface Finding {
  issue: string;
  severity: string;
  file: string;
}

/** Runs Electronegativity on `dir` (offline; see electronegativity-scan.mjs); returns its findings. */
function scan(dir: string): Promise<Finding[]> {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'eneg-')), 'findings.json');
  const script = path.join(import.meta.dirname, 'electronegativity-scan.mjs');
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [script, dir, out], { timeout: 60_000, cwd: repo }, (err, _stdout, stderr) => {
      if (err || !fs.existsSync(out)) return reject(new Error(`electronegativity failed on ${dir}: ${err?.message ?? 'no findings file'} ${stderr}`));
      resolve(JSON.parse(fs.readFileSync(out, 'utf8')) as Finding[]);
    });
  });
}

describe('Electronegativity', () => {
  it('reports no HIGH-severity finding in main/electron and preload, and does flag an insecure window', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eneg-src-'));
    fs.cpSync(path.join(repo, 'main', 'electron'), path.join(dir, 'electron'), { recursive: true });
    fs.cpSync(path.join(repo, 'preload'), path.join(dir, 'preload'), { recursive: true });
    const bad = fs.mkdtempSync(path.join(os.tmpdir(), 'eneg-bad-'));
    fs.writeFileSync(
      path.join(bad, 'main.js'),
      "const { BrowserWindow } = require('electron');\nnew BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, webSecurity: false } });\n",
    );
    const [ours, theirs] = await Promise.all([scan(dir), scan(bad)]);
    expect(theirs.filter((f) => f.severity === 'HIGH').map((f) => f.issue)).toEqual(expect.arrayContaining(['CONTEXT_ISOLATION_JS_CHECK', 'LIMIT_NAVIGATION_GLOBAL_CHECK']));
    expect(ours.filter((f) => f.severity === 'HIGH')).toEqual([]);
    // What it flags in an app without them, it finds in ours: sandbox, auxclick, navigation
    // limits, a permission handler, web security.
    const issues = ours.map((f) => f.issue);
    for (const i of ['SANDBOX_JS_CHECK', 'AUXCLICK_JS_CHECK', 'LIMIT_NAVIGATION_GLOBAL_CHECK', 'PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK', 'WEB_SECURITY_JS_CHECK', 'CONTEXT_ISOLATION_JS_CHECK']) {
      expect(issues).not.toContain(i);
    }
  }, 90_000);
});

describe('window options', () => {
  it('every window is isolated, sandboxed, without Node, with web security, and uses the preload given', () => {
    let seen: BrowserWindowConstructorOptions | undefined;
    class FakeBrowserWindow {
      constructor(o: BrowserWindowConstructorOptions) {
        seen = o;
      }
    }
    const win = createSecureWindow(FakeBrowserWindow, { width: 800, height: 600, show: false }, '/app/out/preload/index.cjs');
    expect(win).toBeInstanceOf(FakeBrowserWindow);
    expect(seen).toMatchObject({ width: 800, height: 600, show: false });
    const prefs = seen!.webPreferences!;
    expect(prefs.preload).toBe('/app/out/preload/index.cjs');
    // On: isolation, the sandbox, web security. Off: Node anywhere, insecure content, <webview>,
    // navigation by drag and drop.
    const on = ['contextIsolation', 'sandbox', 'webSecurity'] as const;
    const off = ['nodeIntegration', 'nodeIntegrationInWorker', 'nodeIntegrationInSubFrames', 'allowRunningInsecureContent', 'webviewTag', 'navigateOnDragDrop'] as const;
    const applied = (keys: readonly (keyof typeof prefs)[]) => Object.fromEntries(keys.map((k) => [k, prefs[k]]));
    expect(applied(on)).toEqual(Object.fromEntries(on.map((k) => [k, true])));
    expect(applied(off)).toEqual(Object.fromEntries(off.map((k) => [k, false])));
    expect(prefs.disableBlinkFeatures).toContain('Auxclick');
  });
});

describe('content security policy', () => {
  it('production allows only the app itself; development adds only the local dev server', () => {
    const prod = desktopCsp();
    expect(prod).toContain("default-src 'self'");
    expect(prod).toContain("script-src 'self';");
    expect(prod).toContain("connect-src 'self';");
    expect(prod).toContain("object-src 'none'");
    expect(prod).not.toMatch(/unsafe-eval|https?:|ws:/);
    const dev = desktopCsp('http://localhost:5173/');
    expect(dev).toContain('script-src \'self\' http://localhost:5173');
    expect(dev).toContain('connect-src \'self\' http://localhost:5173 ws://localhost:5173');
    expect(dev).not.toContain('unsafe-eval');
  });

  it('replaces any CSP header a response carries', () => {
    const h = withCsp({ 'content-security-policy': ["default-src *"], 'Content-Type': 'text/html' }, 'x');
    expect(h).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': ['x'] });
  });
});

describe('session and navigation rules', () => {
  function fakeSession() {
    const s = {
      headers: undefined as undefined | Parameters<SessionLike['webRequest']['onHeadersReceived']>[0],
      before: undefined as undefined | Parameters<SessionLike['webRequest']['onBeforeRequest']>[0],
      permission: undefined as undefined | ((wc: unknown, p: string, cb: (g: boolean) => void) => void),
      check: undefined as undefined | ((wc: unknown, p: string) => boolean),
    };
    const session: SessionLike = {
      webRequest: { onHeadersReceived: (l) => (s.headers = l), onBeforeRequest: (l) => (s.before = l) },
      setPermissionRequestHandler: (h) => (s.permission = h),
      setPermissionCheckHandler: (h) => (s.check = h),
    };
    return { s, session };
  }

  it('denies every permission, blocks remote requests and sets the CSP header', () => {
    const { s, session } = fakeSession();
    hardenSession(session, origin, rendererDir);
    for (const p of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      let granted: boolean | undefined;
      s.permission!({}, p, (g) => (granted = g));
      expect(granted).toBe(false);
      expect(s.check!({}, p)).toBe(false);
    }
    const verdict = (url: string) => {
      let cancel: boolean | undefined;
      s.before!({ url }, (r) => (cancel = r.cancel));
      return cancel;
    };
    expect(verdict(pathToFileURL(path.join(rendererDir, 'assets', 'index.js')).href)).toBe(false);
    expect(verdict(pathToFileURL('/etc/passwd').href)).toBe(true);
    expect(verdict('https://cdn.example.com/x.js')).toBe(true);
    expect(verdict('http://localhost:5173/')).toBe(true);
    expect(verdict('data:image/png;base64,AAAA')).toBe(false);
    let headers: Record<string, string[]> | undefined;
    s.headers!({ url: 'file:///x', responseHeaders: {} }, (r) => (headers = r.responseHeaders));
    expect(headers!['Content-Security-Policy'][0]).toBe(desktopCsp());
    expect(isAllowedRequest('http://localhost:5173/src/main.tsx', { ...origin, devUrl: 'http://localhost:5173/' }, rendererDir)).toBe(true);
    expect(isAllowedRequest('ws://localhost:5173/', { ...origin, devUrl: 'http://localhost:5173/' }, rendererDir)).toBe(true);
  });

  it('blocks navigation and new windows; https links open in the default browser, nothing else does', () => {
    const wc = new EventEmitter() as EventEmitter & { open?: (d: { url: string }) => { action: string } };
    (wc as unknown as { setWindowOpenHandler: (h: (d: { url: string }) => { action: string }) => void }).setWindowOpenHandler = (h) => (wc.open = h);
    const opened: string[] = [];
    hardenWebContents(wc as never, origin, (u) => opened.push(u));
    const nav = (url: string) => {
      let prevented = false;
      wc.emit('will-navigate', { preventDefault: () => (prevented = true) }, url);
      return prevented;
    };
    expect(nav('https://docs.example.com/page')).toBe(true);
    expect(nav('file:///etc/passwd')).toBe(true);
    expect(nav('javascript:alert(1)')).toBe(true);
    expect(wc.open!({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(wc.open!({ url: 'http://example.com/' })).toEqual({ action: 'deny' });
    expect(wc.open!({ url: 'file:///bin/sh' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://docs.example.com/page', 'https://example.com/']);
    let webview = false;
    wc.emit('will-attach-webview', { preventDefault: () => (webview = true) });
    expect(webview).toBe(true);
    expect(isSafeExternalUrl('https://user:pw@example.com/')).toBe(false);
    expect(isSafeExternalUrl('smb://host/share')).toBe(false);
  });
});
