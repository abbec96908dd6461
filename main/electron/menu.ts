/**
 * The native menu, built from the platform's standard roles so labels, shortcuts and
 * behaviour are the OS's own: the app menu on macOS; File; Edit (undo/redo/cut/copy/paste
 * roles act on the focused window's web contents — the renderer's keydown handler sees
 * Mod+Z / Mod+Shift+Z first and applies them to the thread's history); View (reload and
 * developer tools only in development); Window; Help.
 * Docs: https://www.electronjs.org/docs/latest/api/menu#examples
 */
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  newWindow(): void;
  /** Opens $STEPWISE_HOME in the file manager. */
  openHomeFolder(): void;
}

export interface MenuOptions {
  platform: NodeJS.Platform;
  /** Development build (`electron-vite dev`): adds reload and developer tools. */
  dev: boolean;
  appName: string;
  actions: MenuActions;
}

/** The application menu template (pass to `Menu.buildFromTemplate`). */
export function buildMenuTemplate(o: MenuOptions): MenuItemConstructorOptions[] {
  const mac = o.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [];
  if (mac) {
    template.push({
      label: o.appName,
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        { role: 'services' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }
  template.push({
    label: 'File',
    submenu: [
      { label: 'New Window', accelerator: 'CmdOrCtrl+Shift+N', click: () => o.actions.newWindow() },
      { label: 'Open Stepwise Folder', click: () => o.actions.openHomeFolder() },
      { type: 'separator' },
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  });
  template.push({
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(mac ? ([{ role: 'pasteAndMatchStyle' }, { role: 'delete' }, { role: 'selectAll' }] as MenuItemConstructorOptions[]) : ([{ role: 'delete' }, { type: 'separator' }, { role: 'selectAll' }] as MenuItemConstructorOptions[])),
    ],
  });
  const view: MenuItemConstructorOptions[] = [];
  if (o.dev) view.push({ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' });
  view.push({ role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' }, { role: 'togglefullscreen' });
  template.push({ label: 'View', submenu: view });
  template.push({
    label: 'Window',
    role: 'window',
    submenu: mac ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }] : [{ role: 'minimize' }, { role: 'close' }],
  });
  template.push({
    label: 'Help',
    role: 'help',
    submenu: [...(mac ? [] : ([{ role: 'about' }] as MenuItemConstructorOptions[])), { label: 'Open Stepwise Folder', click: () => o.actions.openHomeFolder() }],
  });
  return template;
}
