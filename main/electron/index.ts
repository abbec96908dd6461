/**
 * Electron main process entry (built to out/main/index.js). Thin glue: the host core of
 * main/core (the same one the web host runs) with utility-process children (a brokered
 * MessageChannelMain per run between runner and mcp-host), one hardened,
 * sandboxed window per BrowserWindow, the typed IPC contract of ipc.ts, the native menu and
 * restored window bounds. The desktop app opens no network listener (docs/architecture.md#host-api).
 */
import { app, BrowserWindow, Menu, MessageChannelMain, ipcMain, safeStorage, screen, session, shell, utilityProcess } from 'electron';
import path from 'node:path';
import { createHostCore, defaultHome, type HostCore } from '../core/host-core';
import { mcpHostEntry, runnerEntry } from '../core/process/entries';
import { McpService } from '../core/mcp/service';
import { WorkspaceStore } from '../core/workspace/workspace-store';
import type { HostPush } from '../../shared/protocol/host-api';
import { examplesDir, seedExampleRuns } from '../web/seed';
import { startOAuthLoopback } from '../web/oauth-callback';
import { registerHostIpc, WindowConnections, type IpcMainLike, type RendererOrigin } from './ipc';
import { buildMenuTemplate } from './menu';
import { devRendererUrl, preloadPath, rendererIndex } from './paths';
import { createSecretBox, type SecretBox } from './secrets';
import { createSecureWindow, hardenSession, hardenWebContents, type HardenedContentsLike, type SessionLike } from './security';
import { seedDesktopMcpConfig } from './seed';
import { UtilityProcessSpawner, type UtilityFork } from './utility-spawner';
import { useSpawnerForTemplates } from '../core/template-engine';
import { loadWindowState, MIN_SIZE, restoreBounds, trackWindowState } from './window-state';

const log = (line: string) => process.stderr.write(`[stepwise] ${line}\n`);

interface Shell {
  home: string;
  core: HostCore;
  mcp: McpService;
  connections: WindowConnections;
  origin: RendererOrigin;
  secrets: SecretBox;
}

let shellState: Shell | undefined;
let quitting = false;

/** The desktop SecretBox (safeStorage) for the host's provider settings; undefined before ready. */
export function desktopSecrets(): SecretBox | undefined {
  return shellState?.secrets;
}

// Every renderer sandboxed, whatever a window asks for.
app.enableSandbox();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const win = BrowserWindow.getAllWindows()[0];
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });
  app.whenReady().then(start).catch(fail);
}

async function start(): Promise<void> {
  const home = path.resolve(defaultHome());
  const devUrl = devRendererUrl(app.isPackaged);
  const origin: RendererOrigin = { indexFile: rendererIndex(), devUrl };

  hardenSession(session.defaultSession as unknown as SessionLike, origin, path.dirname(origin.indexFile), log, app.isPackaged);
  app.on('web-contents-created', (_e, wc) => hardenWebContents(wc as unknown as HardenedContentsLike, origin, (url) => void shell.openExternal(url), log));

  const workspace = new WorkspaceStore(path.join(home, 'workspace'));
  await seedDesktopMcpConfig(home, log).catch((err: Error) => log(`could not write settings/mcp.json: ${err.message}`));
  const ex = examplesDir();
  if (ex) {
    await workspace
      .seedExamples(ex)
      .then((created) => (created.length ? seedExampleRuns(ex, home) : undefined))
      .catch((err) => log(`could not seed the examples: ${(err as Error).message}`));
  }

  // Runners and the mcp-host are utility processes; each run that uses MCP gets its own
  // MessageChannelMain to the mcp-host, so tool-call traffic never passes through main.
  const spawner = new UtilityProcessSpawner(utilityProcess.fork as unknown as UtilityFork, {
    messageChannel: () => new MessageChannelMain(),
  });
  // Templates render in a utility process of their own with a bounded heap (docs/architecture.md#templates).
  useSpawnerForTemplates(spawner);
  // Packaged, the app cannot run scripts as Node (runAsNode fuse off): the mcp-host refuses a
  // stdio server that would try, with a diagnosis, instead of starting a second copy of the app.
  // Declared before the core and the MCP service so provider keys and MCP servers' OAuth
  // tokens are encrypted from the first save on.
  const late: { connections?: WindowConnections } = {};
  const secrets = createSecretBox(safeStorage, (message) => {
    log(message);
    late.connections?.broadcast({ type: 'notice', level: 'warn', message });
  });
  const mcp = new McpService({ home, spawner, entry: mcpHostEntry(), connectInBackground: true, oauth: { keys: secrets }, ...(app.isPackaged ? { appExecutable: process.execPath } : {}) });
  // An MCP server's sign-in opens in the system browser (links leave through openExternal),
  // which comes back to this loopback listener.
  const loopback = await startOAuthLoopback((q) => mcp.authCallback(q));
  app.on('will-quit', () => void loopback.close());
  await mcp.setOAuthRedirect(loopback.redirectUrl);
  const core = await createHostCore({ home, spawner, runnerEntry: runnerEntry(), mcp, mcpRelay: mcp, workspace, keys: secrets, watchWorkspace: true });
  const connections = (late.connections = new WindowConnections((send: (push: HostPush) => void) => core.connect(send)));
  registerHostIpc({
    ipcMain: ipcMain as unknown as IpcMainLike,
    origin,
    connectionFor: (id) => connections.connectionFor(id),
    log,
  });
  shellState = { home, core, mcp, connections, origin, secrets };

  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      buildMenuTemplate({
        platform: process.platform,
        dev: !app.isPackaged,
        appName: app.name,
        actions: { newWindow: () => void openWindow(), openHomeFolder: () => void shell.openPath(home) },
      }),
    ),
  );

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) void openWindow();
  });
  await openWindow();
}

/** Opens a window; the first one takes the saved bounds, later ones cascade from the focused window. */
async function openWindow(): Promise<BrowserWindow | undefined> {
  const s = shellState;
  if (!s) return undefined;
  const state = await loadWindowState(s.home);
  const bounds = restoreBounds(state, screen.getAllDisplays().map((d) => d.workArea));
  const focused = BrowserWindow.getFocusedWindow();
  if (focused) {
    const b = focused.getBounds();
    Object.assign(bounds, { x: b.x + 24, y: b.y + 24 });
  }
  const win = createSecureWindow(
    BrowserWindow,
    { ...bounds, minWidth: MIN_SIZE.width, minHeight: MIN_SIZE.height, show: false, title: 'Stepwise', backgroundColor: '#1a1b1e' },
    preloadPath(),
  );
  if (!focused && state.maximized) win.maximize();
  if (!focused && state.fullScreen) win.setFullScreen(true);
  s.connections.attach(win.webContents);
  trackWindowState(win, s.home, (err) => log(`could not save the window state: ${err.message}`));
  win.once('ready-to-show', () => win.show());
  if (s.origin.devUrl) await win.loadURL(s.origin.devUrl);
  else await win.loadFile(s.origin.indexFile);
  return win;
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

// Cancel live runs, save every thread and run file, stop the mcp-host, then quit.
app.on('before-quit', (event) => {
  const s = shellState;
  if (!s || quitting) return;
  quitting = true;
  event.preventDefault();
  s.connections.closeAll();
  const done = Promise.allSettled([s.core.close().then(() => s.mcp.close?.())]);
  const timeout = new Promise((r) => setTimeout(r, 5000));
  void Promise.race([done, timeout]).then(() => app.quit());
});

function fail(err: unknown): void {
  log(`could not start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  app.exit(1);
}
