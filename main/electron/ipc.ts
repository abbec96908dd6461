/**
 * The one IPC contract between a window's renderer and the host core (docs/architecture.md#host-api):
 * `ipcRenderer.invoke('stepwise:invoke', method, params)` answered by `ipcMain.handle`, and
 * host pushes sent as `webContents.send('stepwise:push', push)` on a per-window connection.
 *
 * Every invoke is checked before it reaches the core: the sender frame must be the app's own
 * top-level renderer page, the method one of the contract's (HOST_METHOD_NAMES), the params
 * those of its entry (checkRequest). Every invoke resolves with an {@link Outcome}:
 * `{ ok: true, result }` or `{ ok: false, error: { message, code } }` (the renderer's desktop
 * adapter decodes it); it never rejects, so the code is never lost to Electron's rejection text.
 *
 * Electron is used only through the structural types below, so this module runs under plain
 * Node in tests (the real `ipcMain` / `WebContents` satisfy them).
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { HostPush } from '../../shared/protocol/host-api';
import { toWireError, type Outcome } from '../../shared/protocol/contract/errors';
import type { HostConnection } from '../core/host-core';
import { checkRequest } from '../core/handlers';
import { HostError } from '../core/errors';

/** Channel of requests (renderer → main, `ipcRenderer.invoke`). */
export const INVOKE_CHANNEL = 'stepwise:invoke';
/** Channel of pushes (main → renderer, `webContents.send`). */
export const PUSH_CHANNEL = 'stepwise:push';

/** The part of a host connection a window uses. */
type WindowConnection = Pick<HostConnection, 'request' | 'close'>;

/**
 * Which frame URLs are the app's own renderer: the built `index.html` as a file URL (same
 * path, any query or hash), or in development the origin of `ELECTRON_RENDERER_URL`.
 */
export interface RendererOrigin {
  /** Absolute path of out/renderer/index.html (production). */
  indexFile: string;
  /** The dev server URL (`ELECTRON_RENDERER_URL`), when running `electron-vite dev`. */
  devUrl?: string;
}

/** True when `url` is a page of the app's own renderer (see RendererOrigin). */
export function isAppRendererUrl(url: string | undefined, origin: RendererOrigin): boolean {
  if (!url) return false;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (origin.devUrl) {
    try {
      const dev = new URL(origin.devUrl);
      if ((u.protocol === 'http:' || u.protocol === 'https:') && u.origin === dev.origin) return true;
    } catch {
      // a malformed dev URL allows nothing
    }
  }
  if (u.protocol !== 'file:' || u.host !== '') return false;
  let file: string;
  try {
    file = fileURLToPath(`file://${u.pathname}`);
  } catch {
    return false;
  }
  return samePath(file, origin.indexFile);
}

function samePath(a: string, b: string): boolean {
  const na = path.resolve(a);
  const nb = path.resolve(b);
  return process.platform === 'win32' || process.platform === 'darwin' ? na.toLowerCase() === nb.toLowerCase() : na === nb;
}

/** The parts of Electron's `IpcMainInvokeEvent` the handler reads. */
export interface InvokeEventLike {
  sender: { id: number };
  senderFrame: { url: string; parent: unknown | null } | null;
}

/** The parts of Electron's `ipcMain` the handler uses. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export interface HostIpcOptions {
  ipcMain: IpcMainLike;
  origin: RendererOrigin;
  /** The connection of the window whose webContents has `webContentsId`; undefined when it is not one of ours. */
  connectionFor(webContentsId: number): WindowConnection | undefined;
  /** Diagnostics for refused requests. */
  log?: (line: string) => void;
}

/**
 * Registers the `stepwise:invoke` handler. Returns a function that removes it.
 * Refusals (as `{ ok: false, error }`): `forbidden` (foreign or sub-frame sender, or not one of
 * our windows), `unknown_method`, `bad_request`; a core error keeps its own code.
 */
export function registerHostIpc(o: HostIpcOptions): () => void {
  const log = o.log ?? (() => {});
  o.ipcMain.handle(INVOKE_CHANNEL, async (event, method, params): Promise<Outcome> => {
    try {
      const frame = event.senderFrame;
      if (!frame || frame.parent || !isAppRendererUrl(frame.url, o.origin)) {
        log(`refused ${String(method).slice(0, 80)} from ${frame?.url ?? 'a destroyed frame'}: not the app's renderer`);
        throw new HostError('forbidden', 'requests are accepted only from the Stepwise window');
      }
      const req = checkRequest(method, params);
      const conn = o.connectionFor(event.sender.id);
      if (!conn) throw new HostError('forbidden', 'this window is not connected to the host');
      return { ok: true, result: await conn.request(req.method, req.params) };
    } catch (err) {
      return { ok: false, error: toWireError(err) };
    }
  });
  return () => o.ipcMain.removeHandler(INVOKE_CHANNEL);
}

/** The parts of Electron's `WebContents` a window connection uses. */
export interface WebContentsLike {
  readonly id: number;
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
  on(event: 'did-start-navigation', listener: (details: { isMainFrame: boolean; isSameDocument: boolean }) => void): unknown;
  on(event: 'render-process-gone' | 'destroyed', listener: () => void): unknown;
}

/**
 * One host connection per window, made on the window's first request and dropped when its
 * page goes away (navigation/reload, renderer crash, window closed), so a reloaded page starts
 * from a fresh connection (snapshots first, then live deltas; docs/architecture.md#sequence-and-snapshots).
 */
export class WindowConnections {
  private readonly byId = new Map<number, { wc: WebContentsLike; conn?: WindowConnection }>();

  constructor(private readonly connect: (send: (push: HostPush) => void) => WindowConnection) {}

  /** Starts tracking a window's webContents. */
  attach(wc: WebContentsLike): void {
    if (this.byId.has(wc.id)) return;
    this.byId.set(wc.id, { wc });
    const id = wc.id;
    const reset = () => this.reset(id);
    wc.on('did-start-navigation', (d) => {
      if (d.isMainFrame && !d.isSameDocument) reset();
    });
    wc.on('render-process-gone', reset);
    wc.on('destroyed', () => {
      reset();
      this.byId.delete(id);
    });
  }

  /** The connection of a tracked webContents, connecting on first use; undefined for a stranger. */
  connectionFor(webContentsId: number): WindowConnection | undefined {
    const entry = this.byId.get(webContentsId);
    if (!entry || entry.wc.isDestroyed()) return undefined;
    if (!entry.conn) {
      const wc = entry.wc;
      entry.conn = this.connect((push) => {
        if (!wc.isDestroyed()) wc.send(PUSH_CHANNEL, push);
      });
    }
    return entry.conn;
  }

  /** Closes a window's connection (the next request opens a new one). */
  reset(webContentsId: number): void {
    const entry = this.byId.get(webContentsId);
    if (!entry?.conn) return;
    const conn = entry.conn;
    entry.conn = undefined;
    conn.close();
  }

  /** Sends a shell-level push (a notice) to every open window. */
  broadcast(push: HostPush): void {
    for (const { wc } of this.byId.values()) if (!wc.isDestroyed()) wc.send(PUSH_CHANNEL, push);
  }

  /** Closes every connection. */
  closeAll(): void {
    for (const id of [...this.byId.keys()]) this.reset(id);
  }

  /** Number of open connections (diagnostics, tests). */
  get open(): number {
    return [...this.byId.values()].filter((e) => e.conn).length;
  }
}
