/**
 * The desktop shell's plain parts: window bounds restored from $home/settings/window.json
 * (mode 0600) and kept on a connected display; the native menu's roles per platform; the
 * safeStorage SecretBox (Electron's safeStorage replaced by a stand-in with its surface: the
 * binary is needed for the real one); the desktop mcp.json seed and its migration; the bundle paths.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { buildMenuTemplate } from '../../../main/electron/menu';
import { devRendererUrl, preloadPath, rendererIndex } from '../../../main/electron/paths';
import { createSecretBox, type SafeStorageLike } from '../../../main/electron/secrets';
import { seedDesktopMcpConfig } from '../../../main/electron/seed';
import { loadWindowState, restoreBounds, saveWindowState, windowStateFile } from '../../../main/electron/window-state';
import { makeHome } from '../../support/host-harness';

describe('window state', () => {
  it('round-trips through window.json with mode 0600; a broken file gives the defaults', async () => {
    const home = makeHome();
    expect(await loadWindowState(home)).toEqual({ width: 1400, height: 900, maximized: false, fullScreen: false });
    await saveWindowState(home, { x: 40, y: 60, width: 1000, height: 700, maximized: true, fullScreen: false });
    expect(await loadWindowState(home)).toEqual({ x: 40, y: 60, width: 1000, height: 700, maximized: true, fullScreen: false });
    if (process.platform !== 'win32') expect(fs.statSync(windowStateFile(home)).mode & 0o777).toBe(0o600);
    fs.writeFileSync(windowStateFile(home), '{ "width": "wide"');
    expect(await loadWindowState(home)).toMatchObject({ width: 1400, height: 900 });
    fs.writeFileSync(windowStateFile(home), JSON.stringify({ width: 10, height: 10, x: 5 }));
    expect(await loadWindowState(home)).toEqual({ width: 720, height: 480, maximized: false, fullScreen: false });
  });

  it('keeps a saved position only on a connected display', () => {
    const displays = [{ x: 0, y: 0, width: 1920, height: 1050 }];
    const state = { x: 100, y: 80, width: 1200, height: 800, maximized: false, fullScreen: false };
    expect(restoreBounds(state, displays)).toEqual({ x: 100, y: 80, width: 1200, height: 800 });
    // The second monitor it was on is gone: centred, same size.
    expect(restoreBounds({ ...state, x: 2500 }, displays)).toEqual({ width: 1200, height: 800 });
    // Title bar above the top edge is not reachable.
    expect(restoreBounds({ ...state, y: -400 }, displays)).toEqual({ width: 1200, height: 800 });
    // Larger than any display: clamped.
    expect(restoreBounds({ ...state, width: 5000, height: 3000 }, displays)).toMatchObject({ width: 1920, height: 1050 });
    expect(restoreBounds({ ...state, x: 2500 }, [...displays, { x: 1920, y: 0, width: 2560, height: 1400 }])).toMatchObject({ x: 2500 });
  });
});

describe('menu', () => {
  const roles = (t: MenuItemConstructorOptions[]) => t.flatMap((m) => (m.submenu as MenuItemConstructorOptions[]).map((i) => i.role).filter(Boolean));
  const actions = { newWindow: () => {}, openHomeFolder: () => {} };

  it('macOS: app menu first, standard edit roles, no devtools in production', () => {
    const t = buildMenuTemplate({ platform: 'darwin', dev: false, appName: 'Stepwise', actions });
    expect(t.map((m) => m.label)).toEqual(['Stepwise', 'File', 'Edit', 'View', 'Window', 'Help']);
    const r = roles(t);
    for (const role of ['about', 'hide', 'quit', 'undo', 'redo', 'cut', 'copy', 'paste', 'selectAll', 'minimize', 'zoom', 'front', 'togglefullscreen']) expect(r).toContain(role);
    expect(r).not.toContain('toggleDevTools');
    expect(r).not.toContain('reload');
  });

  it('Windows/Linux: no app menu, quit under File, reload and devtools only in development', () => {
    const prod = buildMenuTemplate({ platform: 'linux', dev: false, appName: 'Stepwise', actions });
    expect(prod.map((m) => m.label)).toEqual(['File', 'Edit', 'View', 'Window', 'Help']);
    expect(roles(prod)).toContain('quit');
    expect(roles(prod)).not.toContain('toggleDevTools');
    const dev = buildMenuTemplate({ platform: 'win32', dev: true, appName: 'Stepwise', actions });
    expect(roles(dev)).toEqual(expect.arrayContaining(['reload', 'forceReload', 'toggleDevTools', 'undo', 'redo']));
  });

  it('File > New Window calls the action', () => {
    let n = 0;
    const t = buildMenuTemplate({ platform: 'linux', dev: false, appName: 'Stepwise', actions: { ...actions, newWindow: () => n++ } });
    const item = (t[0].submenu as MenuItemConstructorOptions[]).find((i) => i.label === 'New Window')!;
    item.click!(undefined as never, undefined, undefined as never);
    expect(n).toBe(1);
    expect(item.accelerator).toBe('CmdOrCtrl+Shift+N');
  });
});

describe('secrets', () => {
  /** safeStorage stand-in: reversible "encryption" with the same surface. */
  const keyring = (available: boolean, backend = 'gnome_libsecret'): SafeStorageLike => ({
    isEncryptionAvailable: () => available,
    encryptString: (t) => Buffer.from([...Buffer.from(t, 'utf8')].map((b) => b ^ 0x5a)),
    decryptString: (b) => Buffer.from([...b].map((x) => x ^ 0x5a)).toString('utf8'),
    getSelectedStorageBackend: () => backend,
  });

  it('encrypts with the OS keyring when available; the stored value does not contain the key', () => {
    const box = createSecretBox(keyring(true));
    expect(box.available).toBe(true);
    const sealed = box.encrypt('sk-live-123456');
    expect(sealed.startsWith('safe:v1:')).toBe(true);
    expect(sealed).not.toContain('sk-live');
    expect(box.decrypt(sealed)).toBe('sk-live-123456');
    expect(box.isPlain(sealed)).toBe(false);
    expect(() => box.decrypt('sk-raw')).toThrow(/not a stored secret/);
  });

  it('falls back to plain text with one visible warning (no keyring, or Linux basic_text)', () => {
    for (const storage of [keyring(false), keyring(true, 'basic_text'), undefined]) {
      const warnings: string[] = [];
      const box = createSecretBox(storage, (w) => warnings.push(w));
      expect(box.available).toBe(false);
      expect(box.warning).toMatch(/unencrypted/);
      const a = box.encrypt('k1');
      box.encrypt('k2');
      expect(a).toBe('plain:v1:k1');
      expect(box.decrypt(a)).toBe('k1');
      expect(box.isPlain(a)).toBe(true);
      expect(warnings).toHaveLength(1);
    }
    // A value sealed with a keyring that is gone now: a clear error, not garbage.
    const sealed = createSecretBox(keyring(true)).encrypt('k');
    expect(() => createSecretBox(keyring(false)).decrypt(sealed)).toThrow(/keyring.*not available/);
  });
});

describe('desktop seed and paths', () => {
  it('the everything server is the bundled one (nothing runs the app executable as Node), mode 0600, never overwriting', async () => {
    const home = makeHome();
    expect(await seedDesktopMcpConfig(home)).toBe(true);
    const file = path.join(home, 'settings', 'mcp.json');
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ mcpServers: { everything: { type: 'bundled', server: 'everything' } } });
    expect(fs.readFileSync(file, 'utf8')).not.toMatch(/ELECTRON_RUN_AS_NODE|"command"/);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { mine: { command: 'node', args: ['s.js'] } } }));
    expect(await seedDesktopMcpConfig(home)).toBe(false);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ mcpServers: { mine: { command: 'node', args: ['s.js'] } } });
    expect(await seedDesktopMcpConfig(makeHome(), undefined, { installed: false })).toBe(false);
  });

  it("at start, an earlier version's seeded entry (the app executable with ELECTRON_RUN_AS_NODE) is migrated to the bundled server, with a notice", async () => {
    const home = makeHome();
    const file = path.join(home, 'settings', 'mcp.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const script = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
    const old = { command: '/opt/Stepwise/stepwise', args: [script, 'stdio'], env: { ELECTRON_RUN_AS_NODE: '1' }, timeoutMs: 5000 };
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { everything: old, mine: { command: 'node', args: ['s.js'] } } }));
    const notices: string[] = [];
    expect(await seedDesktopMcpConfig(home, (line) => notices.push(line))).toBe(false);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ mcpServers: { everything: { type: 'bundled', server: 'everything', timeoutMs: 5000 }, mine: { command: 'node', args: ['s.js'] } } });
    expect(notices).toEqual([expect.stringMatching(/^The "everything" MCP server in .* ran this app's executable as Node, which this version cannot do; it is now the everything server bundled with Stepwise\.$/)]);
  });

  it('finds the CommonJS preload and the renderer next to the main bundle; the dev URL only unpackaged and local', () => {
    const dir = path.resolve('/app/resources/app.asar/out/main');
    expect(preloadPath(dir)).toBe(path.resolve('/app/resources/app.asar/out/preload/index.cjs'));
    expect(rendererIndex(dir)).toBe(path.resolve('/app/resources/app.asar/out/renderer/index.html'));
    expect(devRendererUrl(false, { ELECTRON_RENDERER_URL: 'http://localhost:5173' })).toBe('http://localhost:5173/');
    expect(devRendererUrl(true, { ELECTRON_RENDERER_URL: 'http://localhost:5173' })).toBeUndefined();
    expect(devRendererUrl(false, { ELECTRON_RENDERER_URL: 'https://evil.example/' })).toBeUndefined();
    expect(devRendererUrl(false, {})).toBeUndefined();
  });

  it('the build emits the preload as CommonJS under the name main loads', () => {
    const repo = path.resolve(import.meta.dirname, '..', '..', '..');
    const config = fs.readFileSync(path.join(repo, 'electron.vite.config.ts'), 'utf8');
    expect(config).toMatch(/format: 'cjs', entryFileNames: '\[name\]\.cjs'/);
    const built = path.join(repo, 'out', 'preload', 'index.cjs');
    if (fs.existsSync(built)) {
      const code = fs.readFileSync(built, 'utf8');
      expect(code).toMatch(/require\("electron"\)/);
      expect(code).not.toMatch(/^\s*(import|export)\s/m);
      expect(code).toContain('exposeInMainWorld("stepwise"');
    }
  });
});
