/**
 * The desktop IPC contract (main/electron/ipc.ts) against the real host core: a window's
 * requests reach the core only from the app's own top-level renderer page, only for the
 * contract's method names and with params matching their entries; every invoke resolves with
 * an outcome, `{ ok: true, result }` or `{ ok: false, error: { message, code } }`, which the
 * renderer's desktop adapter decodes. Pushes go per window on `stepwise:push`.
 *
 * Stand-ins (the Electron binary cannot run here): `ipcMain` is a small registry with the same
 * `handle`/`removeHandler` surface and invoke-event shape (`sender.id`, `senderFrame.url`,
 * `senderFrame.parent`); a window's webContents is an EventEmitter with `id`, `send`,
 * `isDestroyed`. The preload is loaded with a stand-in `electron` module (contextBridge and
 * ipcRenderer wired to that registry), so the renderer adapter talks through the real preload.
 */
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHostCore, type HostCore } from '../../../main/core/host-core';
import { INVOKE_CHANNEL, PUSH_CHANNEL, isAppRendererUrl, registerHostIpc, WindowConnections, type InvokeEventLike } from '../../../main/electron/ipc';
import { checkRequest } from '../../../main/core/handlers';
import { HOST_METHOD_NAMES } from '../../../shared/protocol/contract/host-methods';
import { createDesktopHost, type StepwisePreloadApi } from '../../../renderer/src/host/desktop';
import { HostCallError } from '../../../renderer/src/host/types';
import type { HostMethods, HostPush } from '../../../shared/protocol/host-api';
import { makeHome, waitFor, writeThread } from '../../support/host-harness';
import { scriptedThread } from '../../support/threads';

const indexFile = path.resolve('/app/out/renderer/index.html');
const appUrl = pathToFileURL(indexFile).href;

/** ipcMain stand-in: the registered handler, invoked the way Electron does (event, ...args). */
class FakeIpcMain {
  handlers = new Map<string, (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>>();
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** What ipcRenderer.invoke does: Electron rejects with "Error invoking remote method '…': Error: …". */
  async invoke(event: InvokeEventLike, channel: string, ...args: unknown[]): Promise<unknown> {
    const h = this.handlers.get(channel);
    if (!h) throw new Error(`No handler registered for '${channel}'`);
    try {
      return structuredClone(await h(event, ...args));
    } catch (err) {
      throw new Error(`Error invoking remote method '${channel}': ${String(err)}`, { cause: err });
    }
  }
}

class FakeWebContents extends EventEmitter {
  destroyed = false;
  sent: { channel: string; args: unknown[] }[] = [];
  constructor(readonly id: number) {
    super();
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args: structuredClone(args) });
    this.emit('ipc-out', channel, ...args);
  }
}

let core: HostCore | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
  vi.doUnmock('electron');
  vi.resetModules();
});

describe('method and params validation', () => {
  it('accepts exactly the contract’s method names and params matching their entries', () => {
    const expected: (keyof HostMethods)[] = ['workspace.list', 'thread.open', 'thread.edit', 'run.start', 'stream.ack', 'settings.saveProvider', 'mcp.test'];
    for (const m of expected) expect(HOST_METHOD_NAMES).toContain(m);
    expect(new Set(HOST_METHOD_NAMES).size).toBe(HOST_METHOD_NAMES.length);
    expect(checkRequest('workspace.list', undefined)).toEqual({ method: 'workspace.list', params: {} });
    expect(() => checkRequest('constructor', {})).toThrow(expect.objectContaining({ code: 'unknown_method', message: '"constructor" is not a host method' }));
    expect(() => checkRequest('__proto__', {})).toThrow(expect.objectContaining({ code: 'unknown_method' }));
    expect(() => checkRequest(42, {})).toThrow(expect.objectContaining({ code: 'bad_request', message: "a request's method must be a string, not number" }));
    expect(() => checkRequest('thread.open', 'x.json')).toThrow(expect.objectContaining({ code: 'bad_request', message: 'thread.open: /: Expected object' }));
    expect(() => checkRequest('thread.open', ['x'])).toThrow(expect.objectContaining({ code: 'bad_request' }));
    expect(() => checkRequest('thread.open', null)).toThrow(expect.objectContaining({ code: 'bad_request' }));
    expect(() => checkRequest('thread.open', { path: 7 })).toThrow(expect.objectContaining({ code: 'bad_request', message: 'thread.open: /path: Expected string' }));
  });

  it('recognises the app renderer page, in production and in development', () => {
    expect(isAppRendererUrl(appUrl, { indexFile })).toBe(true);
    expect(isAppRendererUrl(`${appUrl}#/thread/x`, { indexFile })).toBe(true);
    expect(isAppRendererUrl(pathToFileURL(path.resolve('/app/out/renderer/other.html')).href, { indexFile })).toBe(false);
    expect(isAppRendererUrl(pathToFileURL(path.resolve('/tmp/evil/index.html')).href, { indexFile })).toBe(false);
    expect(isAppRendererUrl('file:///app/out/renderer/../../../tmp/index.html', { indexFile })).toBe(false);
    expect(isAppRendererUrl('https://example.com/index.html', { indexFile })).toBe(false);
    expect(isAppRendererUrl('http://localhost:5173/', { indexFile })).toBe(false);
    const dev = { indexFile, devUrl: 'http://localhost:5173/' };
    expect(isAppRendererUrl('http://localhost:5173/', dev)).toBe(true);
    expect(isAppRendererUrl('http://localhost:5174/', dev)).toBe(false);
    expect(isAppRendererUrl('http://127.0.0.1:5173/', dev)).toBe(false);
    expect(isAppRendererUrl(undefined, dev)).toBe(false);
    expect(isAppRendererUrl('not a url', dev)).toBe(false);
  });
});

describe('stepwise:invoke against the host core', () => {
  async function setup() {
    const home = makeHome();
    const thread = scriptedThread([{ text: 'hello from the desktop' }]);
    writeThread(home, 'desk.json', thread);
    core = await createHostCore({ home, log: () => {}, saveDebounceMs: 20 });
    const ipcMain = new FakeIpcMain();
    const connections = new WindowConnections((send) => core!.connect(send));
    const refused: string[] = [];
    const off = registerHostIpc({ ipcMain, origin: { indexFile }, connectionFor: (id) => connections.connectionFor(id), log: (l) => refused.push(l) });
    const wc = new FakeWebContents(7);
    connections.attach(wc);
    const event = (url = appUrl, parent: unknown = null, id = 7): InvokeEventLike => ({ sender: { id }, senderFrame: { url, parent } });
    return { home, thread, ipcMain, connections, wc, event, refused, off };
  }

  it('answers a window, and refuses foreign frames, sub-frames, strangers, unknown methods and bad params', async () => {
    const s = await setup();
    const list = (await s.ipcMain.invoke(s.event(), INVOKE_CHANNEL, 'workspace.list', {})) as { ok: true; result: { path: string }[] };
    expect(list.ok).toBe(true);
    expect(list.result.map((e) => e.path)).toContain('desk.json');

    const refused = (code: string, message?: RegExp) => ({ ok: false, error: { code, message: message ? expect.stringMatching(message) : expect.any(String) } });
    await expect(s.ipcMain.invoke(s.event('https://evil.example/'), INVOKE_CHANNEL, 'workspace.list', {})).resolves.toEqual(refused('forbidden'));
    await expect(s.ipcMain.invoke(s.event(appUrl, { url: appUrl }), INVOKE_CHANNEL, 'workspace.list', {})).resolves.toEqual(refused('forbidden'));
    await expect(s.ipcMain.invoke(s.event(appUrl, null, 99), INVOKE_CHANNEL, 'workspace.list', {})).resolves.toEqual(refused('forbidden', /not connected/));
    await expect(s.ipcMain.invoke({ sender: { id: 7 }, senderFrame: null }, INVOKE_CHANNEL, 'workspace.list', {})).resolves.toEqual(refused('forbidden'));
    await expect(s.ipcMain.invoke(s.event(), INVOKE_CHANNEL, 'fs.readFile', { path: '/etc/passwd' })).resolves.toEqual(refused('unknown_method', /^"fs\.readFile" is not a host method$/));
    await expect(s.ipcMain.invoke(s.event(), INVOKE_CHANNEL, 'thread.open', 'desk.json')).resolves.toEqual(refused('bad_request', /^thread\.open: \/: Expected object$/));
    await expect(s.ipcMain.invoke(s.event(), INVOKE_CHANNEL, 'thread.edit', { threadId: s.thread.id, baseVersion: 0, patches: 'all' })).resolves.toEqual(
      refused('bad_request', /^thread\.edit: \/patches: Expected array$/),
    );
    expect(s.refused.some((l) => l.includes('evil.example'))).toBe(true);
    // A refused request never opened a connection for a stranger.
    expect(s.connections.open).toBe(1);
    // A core error keeps its code: a thread file that does not load.
    await expect(s.ipcMain.invoke(s.event(), INVOKE_CHANNEL, 'thread.open', { path: 'missing.json' })).resolves.toEqual(refused('bad_thread_file', /^missing\.json: no such file$/));
    s.off();
    expect(s.ipcMain.handlers.size).toBe(0);
  });

  it('the real preload and the renderer desktop adapter run a thread end to end; a reload gets a fresh connection', async () => {
    const s = await setup();
    // Stand-in `electron` for the preload: contextBridge records the exposed API, ipcRenderer
    // goes through the ipcMain stand-in as window 7's main frame.
    const exposed: Record<string, unknown> = {};
    vi.doMock('electron', () => ({
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
      ipcRenderer: {
        invoke: (channel: string, ...args: unknown[]) => s.ipcMain.invoke(s.event(), channel, ...args),
        on: (channel: string, l: (...a: unknown[]) => void) => s.wc.on('ipc-out', (ch: string, ...a: unknown[]) => ch === channel && l({ sender: 'ipc-event' }, ...a)),
        removeListener: () => {},
      },
    }));
    await import('../../../preload/index');
    expect(Object.keys(exposed)).toEqual(['stepwise']);
    const api = exposed.stepwise as StepwisePreloadApi;
    expect(Object.keys(api).sort()).toEqual(['invoke', 'onPush']);
    // The preload checks the request's shape before anything crosses to the main process.
    await expect(api.invoke('../../etc', {})).resolves.toEqual({ ok: false, error: { code: 'bad_request', message: expect.stringMatching(/ is not a host method name$/) } });
    await expect(api.invoke('workspace.list', 'x' as unknown)).resolves.toEqual({ ok: false, error: { code: 'bad_request', message: expect.stringMatching(/params must be an object$/) } });

    const host = createDesktopHost(api);
    const pushes: HostPush[] = [];
    const ac = new AbortController();
    void (async () => {
      for await (const p of host.pushes(ac.signal)) pushes.push(p);
    })();
    const opened = await host.call('thread.open', { path: 'desk.json' });
    expect(opened.thread.id).toBe(s.thread.id);
    await host.call('stream.subscribe', {});
    // Errors decode to HostCallError with the host's code.
    const err = await host.call('thread.open', { path: 'nope.json' }).catch((e) => e);
    expect(err).toBeInstanceOf(HostCallError);
    expect((err as HostCallError).code).toBe('bad_thread_file');
    expect((err as HostCallError).message).toContain('nope.json');
    expect((err as HostCallError).message).not.toContain('Error invoking remote method');

    const { runId } = await host.call('run.start', { threadId: s.thread.id, mode: 'step' });
    await waitFor(() => pushes.some((p) => p.type === 'run_ended' && p.runId === runId), 20_000, 'run ended');
    const text = pushes.filter((p) => p.type === 'llm_delta' && p.runId === runId).map((p) => (p as { delta: string }).delta).join('');
    expect(text).toBe('hello from the desktop');
    expect(s.wc.sent.every((m) => m.channel === PUSH_CHANNEL)).toBe(true);

    // A reload (main-frame navigation) drops the window's connection; the next request opens a new one.
    s.wc.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false });
    expect(s.connections.open).toBe(0);
    await host.call('workspace.list', {});
    expect(s.connections.open).toBe(1);
    // A closed window is forgotten.
    s.wc.destroyed = true;
    s.wc.emit('destroyed');
    expect(s.connections.open).toBe(0);
    await expect(s.ipcMain.invoke(s.event(), INVOKE_CHANNEL, 'workspace.list', {})).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
    ac.abort();
  });
});
